// Post-processing (docs/design.md section 4), in the original's order:
//   1. a_eq_e only: pixel = 1 - exp(-S) per channel (the a_eq_e=FALSE image is already final);
//   2. pixel = contrast * pixel^gamma + brightness, only when that is not the identity;
//   3. the colour bar, when asked for: drawn last, so that it shows the palette's own colours
//      whatever the adjustment (the original draws it after the adjustment too).
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

// The whole image as palettes (the original's simtype -1, show_palette.par): one horizontal band
// per palette, of equal height, the first lowest; column x shows palette(x / width).
void draw_palette_bands(Image& image, const std::vector<const Palette*>& palettes);

}  // namespace splotch
