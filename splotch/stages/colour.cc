#include "splotch/stages/colour.h"

namespace splotch {

void colourize(Splats& s, const std::vector<TypeColour>& types, ParticleArray<float> spare) {
  const std::size_t n = s.size();
  // Scalar types need green and blue arrays of their own from here on. Green takes over the
  // intensity array (each element is read before it is overwritten), so only blue is new memory.
  const bool scalar_only = s.colour[1].empty();
  ParticleArray<float> intensity_values;
  if (scalar_only) {
    s.colour[1] = std::move(s.intensity);
    if (spare.size() == n) s.colour[2].swap(spare);
    s.colour[2].resize(n);
  } else {
    intensity_values = std::move(s.intensity);
  }
  float* e[3] = {s.colour[0].data(), s.colour[1].data(), s.colour[2].data()};
  const float* intensity = scalar_only ? s.colour[1].data() : intensity_values.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const TypeColour& tc = types[std::size_t(s.type_of(i))];
    const float scale = intensity[i] * tc.brightness;
    if (tc.vector_colour) {
      for (int c = 0; c < 3; ++c) e[c][i] *= scale;
    } else {
      const Rgb rgb = tc.palette->at(e[0][i]);
      e[0][i] = rgb.r * scale;
      e[1][i] = rgb.g * scale;
      e[2][i] = rgb.b * scale;
    }
  }
  ParticleArray<float>().swap(s.intensity);
  ParticleArray<std::uint8_t>().swap(s.type);
}

}  // namespace splotch
