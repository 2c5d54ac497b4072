// Colour stage (docs/design.md section 4): the emission of each splat. Types with scalar colours look
// their normalised value up in the type's palette; vector types use (c0, c1, c2) as they are.
// Then e *= I * brightness. The intensity and type arrays are released afterwards: e carries
// what they said.
#pragma once

#include <vector>

#include "io/palette.h"
#include "splotch/stages/splats.h"

namespace splotch {

struct TypeColour {
  bool vector_colour = false;
  const Palette* palette = nullptr;  // required when !vector_colour
  float brightness = 1.0f;
};

// `spare`: an array nobody needs any more; if it has one element per splat, it becomes the blue
// array (memory touched before costs no page faults).
void colourize(Splats& splats, const std::vector<TypeColour>& types, ParticleArray<float> spare = {});

}  // namespace splotch
