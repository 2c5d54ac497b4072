// Exposure: one factor on the brightness of every type, and the check of the finished picture.
// A run that writes a black or white picture and says nothing is the worst outcome for a batch
// job, so every picture is measured before its colour bar is drawn: mostly saturated (over 30% of
// its pixels at 255 in some channel) or nearly black (its brightest value under 5% of white) is
// a warning naming the factor that would fix it.
//
// `exposure = auto` (a_eq_e only) chooses that factor from the summed image itself: the 99.5th
// percentile of the lit pixels' brightest channel is put at 0.9 after 1 - exp(-S), so
// f = ln 10 / S_q. With a_eq_e the sums are linear in the brightnesses, so the factor is the same
// as multiplying every brightnessN by it; with a_eq_e = FALSE the picture is not (absorption and
// emission differ), and only a given number applies, to the brightnesses.
#pragma once

#include <string>

#include "io/image.h"

namespace splotch {

struct Exposure {
  enum class Mode { none, factor, automatic };
  Mode mode = Mode::none;
  double factor = 1.0;            // Mode::factor
  bool by_default = false;        // automatic because neither exposure nor any brightnessN was given
  bool brightness_given = false;  // some brightnessN given (with automatic: they weigh the types only)
};

// ln 10 / (the 99.5th percentile of the lit pixels' brightest channel of `sums`), the a_eq_e
// sums S; 0 when no pixel is lit. `stride` > 1 looks at every stride-th pixel only: enough for the
// factor a warning suggests, at a fraction of the cost on every render (exposure = auto uses all).
double automatic_exposure(const Image& sums, std::size_t stride = 1);
// The stride that samples about 2^16 pixels of `image`.
std::size_t sample_stride(const Image& image);

// Multiplies every value of `sums` by `factor` (threads share the work).
void scale(Image& sums, double factor);

// What the finished picture (post-processed, before the colour bar) looks like in 8 bits.
struct PictureLevels {
  double saturated_fraction = 0;  // pixels with some channel at 255
  int brightest = 0;              // the largest channel value, 0 to 255
  double lit_fraction = 0;        // pixels with some channel at 5% of white or more (13 of 255)
  double touched_fraction = 0;    // pixels with some channel above 0 (1 of 255 or more)
};
PictureLevels measure_levels(const Image& picture);

// The warning for a picture mostly saturated or nearly black ("" for neither). Nearly black is
// judged by how much of it is lit, not by its brightest pixel alone: a picture of one lit dot
// (a camera far away, smoothing lengths far too small) is as wrong as a dark one. `suggested`:
// the exposure that would put the brightest 0.5% just below white (a_eq_e; 0 where none is
// known). `bottom`: why no brightness can help, when every particle's intensity lies at the
// bottom of its given range (normalize.h: values_below_range), "" otherwise.
std::string level_warning(const PictureLevels& levels, double suggested, bool a_eq_e, float gray_absorption,
                          const std::string& bottom = "");

}  // namespace splotch
