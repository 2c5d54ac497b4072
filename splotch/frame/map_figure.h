// A map's figure (docs/maps.md, "Outputs"): the map through palette0 on a log or linear scale,
// with a colour bar of numeric ticks under the map's unit, a scale bar in the map's length unit and
// the redshift (or time), the text in DejaVu Sans (io/text_draw.h). The map keeps its pixels; the
// colour bar is a panel to its right.
#pragma once

#include <string>
#include <vector>

#include "io/image.h"
#include "io/palette.h"

namespace splotch {

struct FigureText {
  std::string unit;                // the colour bar's title: "Msun kpc^-2"
  std::string length_unit;         // "kpc"; "code length"
  double pixel = 1;                // a pixel's side in length_unit
  double redshift = -1, time = 0;  // redshift < 0: the time is shown
};

struct FigureScale {
  bool log = true;
  double lo = 0, hi = 1;
};

// The range the figure shows: `min`/`max` where given (NaN: not), else the data's (log: from the
// 1st percentile of the values above 0, so that a few faint pixels do not take the scale).
FigureScale figure_scale(const std::vector<float>& values, bool log, double min, double max);

// The figure of `values` (xres x yres, row 0 at the bottom).
Image8 map_figure(const std::vector<float>& values, int xres, int yres, const FigureScale& scale,
                  const Palette& palette, const FigureText& text);

// The ticks of a colour bar from lo to hi: decades (and 2 and 5 where few) on a log scale, steps
// of 1, 2 or 5 times a power of ten on a linear one or a log one too narrow for two of those.
// NaN pixels (no value) are drawn grey.
std::vector<double> colour_bar_ticks(const FigureScale& scale);
// A tick's value as the figures write it ("%g"), and where it lies on the scale, 0 (lo) to 1 (hi).
std::string tick_text(double v);
double tick_position(const FigureScale& scale, double v);
// A scale bar's length: 1, 2 or 5 times a power of ten, about a fifth of `width`.
double scale_bar_length(double width);

}  // namespace splotch
