#include "splotch/stages/postprocess.h"

#include <cmath>

#include "splotch/util/fast_exp.h"
#include "splotch/util/simd.h"

namespace splotch {
namespace {

constexpr int colour_bar_rows = 10;

// 1 - exp(-S), eight values at a time; below 0.01 a Taylor polynomial, so that a faint pixel
// keeps its relative precision (1 - exp(-S) would cancel). Both parts are accurate to about 1e-7.
template <class F>
F one_minus_exp(F x) {
  using simd::select;
  const F taylor = x * (1.0f - x * (0.5f - x * (1.0f / 6.0f - x * (1.0f / 24.0f))));
  return select(x < 0.01f, taylor, 1.0f - fast_exp(-simd::max(x, F{})));
}

void emission_to_brightness(Image& image) {
  using namespace simd;
  float* v = image.rgb.data();
  const std::size_t n = image.rgb.size(), groups = n / lanes;
#pragma omp parallel for schedule(static)
  for (std::size_t g = 0; g < groups; ++g) store(v + g * lanes, one_minus_exp(load(v + g * lanes)));
  for (std::size_t i = groups * lanes; i < n; ++i) v[i] = one_minus_exp(v[i]);
}

void adjust(Image& image, double gamma, double contrast, double brightness) {
  float* v = image.rgb.data();
  const std::size_t n = image.rgb.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] = float(contrast * std::pow(double(v[i]), gamma) + brightness);
}

}  // namespace

namespace {

// Band b of `rows` rows from the bottom shows bars[b].
void draw_bands(Image& image, const std::vector<const Palette*>& bars, int rows) {
  for (std::size_t b = 0; b < bars.size(); ++b)
    for (int k = 0; k < rows; ++k) {
      const int y = image.height - 1 - int(b) * rows - k;
      if (y < 0) return;
      for (int x = 0; x < image.width; ++x) {
        const Rgb c = bars[b]->at(float(x) / float(image.width));
        float* px = image.pixel(x, y);
        px[0] = c.r;
        px[1] = c.g;
        px[2] = c.b;
      }
    }
}

}  // namespace

void draw_colour_bars(Image& image, const std::vector<const Palette*>& bars) {
  draw_bands(image, bars, colour_bar_rows);
}

void draw_palette_bands(Image& image, const std::vector<const Palette*>& palettes) {
  if (palettes.empty()) return;
  const int rows = (image.height + int(palettes.size()) - 1) / int(palettes.size());
  draw_bands(image, palettes, rows);
}

void postprocess(Image& image, const PostOptions& o) {
  if (o.a_eq_e) emission_to_brightness(image);
  if (o.gamma != 1.0 || o.contrast != 1.0 || o.brightness != 0.0) adjust(image, o.gamma, o.contrast, o.brightness);
  if (!o.colour_bars.empty()) draw_colour_bars(image, o.colour_bars);
}

}  // namespace splotch
