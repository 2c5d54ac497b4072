// Post-processing (DESIGN.md section 4), in the original's order:
//   1. a_eq_e only: pixel = 1 - exp(-S) per channel (the a_eq_e=FALSE image is already final);
//   2. the colour bar, when asked for (it is then adjusted with the picture, as in the original);
//   3. pixel = contrast * pixel^gamma + brightness, only when that is not the identity.
#pragma once

#include <vector>

#include "io/image.h"
#include "io/palette.h"

namespace splotch {

struct PostOptions {
  bool a_eq_e = true;
  double gamma = 1.0, contrast = 1.0, brightness = 0.0;
  std::vector<const Palette*> colour_bars;  // one band per scalar-colour type, type 0 first (lowest)
};

void postprocess(Image& image, const PostOptions& options);

// The colour bar alone: the bottom 10 rows show colour_bars[0] (column x: palette(x / width)),
// the 10 rows above them colour_bars[1], and so on.
void draw_colour_bars(Image& image, const std::vector<const Palette*>& colour_bars);

}  // namespace splotch
