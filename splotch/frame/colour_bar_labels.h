// colorbar = labels (docs/parameters.md): the picture's colour bars, the original's 10 rows per
// scalar-colour type at the bottom, each under a row of text that names the type's colour quantity
// and gives the values at ticks of the range its palette spans (the range used, after color_log or
// color_asinh: splotch/stages/normalize.h), so that a reader of the picture can tell what a colour
// stands for. colorbar = TRUE keeps the original's bars alone.
#pragma once

#include <string>
#include <vector>

#include "io/image.h"
#include "io/palette.h"

namespace splotch {

struct LabelledBar {
  const Palette* palette = nullptr;
  std::string name;       // "type 0: Temperature"
  double lo = 0, hi = 1;  // the palette's ends, in the transformed values
  bool log = false, asinh = false;
};

// The bars from the bottom up, bars[0] lowest; each takes 10 rows and its text row above them.
void draw_labelled_colour_bars(Image& image, const std::vector<LabelledBar>& bars);

// The values of a bar's ticks (in the quantity itself: 10^v of a log scale) and where each lies
// on the bar, 0 (its left end) to 1.
struct BarTick {
  double value, position;
};
std::vector<BarTick> bar_ticks(const LabelledBar& bar);

}  // namespace splotch
