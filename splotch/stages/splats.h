// Splats: the particles in screen space, as the geometry stage leaves them and the colour, sort
// and render stages use them. The arrays are the reader's, taken over by move and rewritten in
// place, so no field is ever held twice. Only active particles (in front of the camera, inside
// [zmin, zmax], with a footprint on the image) are kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/particle_array.h"

namespace splotch {

struct Splats {
  ParticleArray<float> x, y;              // centre in pixels: x from the left, y from the top row
  ParticleArray<float> depth;             // z' in the camera frame (negative in front of the camera)
  ParticleArray<float> radius;            // r in pixels, already widened by minrad_pix
  ParticleArray<float> intensity;         // I times the kernel normalisation; emptied by the colour stage
  ParticleArray<float> colour[3];         // normalised colour value(s); after the colour stage the emission e (RGB)
  ParticleArray<std::uint8_t> type;       // empty when every particle is of type 0; released after colour
  ParticleArray<std::uint32_t> draw_key;  // a_eq_e = FALSE: splats are drawn in ascending key order

  std::size_t size() const { return x.size(); }
  int type_of(std::size_t i) const { return type.empty() ? 0 : type[i]; }
};

}  // namespace splotch
