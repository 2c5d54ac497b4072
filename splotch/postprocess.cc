#include "splotch/postprocess.h"

#include <cmath>

namespace splotch {
namespace {

constexpr int colour_bar_rows = 10;

void emission_to_brightness(Image& image) {
  float* v = image.rgb.data();
  const std::size_t n = image.rgb.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] = float(-std::expm1(-double(v[i])));
}

void adjust(Image& image, double gamma, double contrast, double brightness) {
  float* v = image.rgb.data();
  const std::size_t n = image.rgb.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] = float(contrast * std::pow(double(v[i]), gamma) + brightness);
}

}  // namespace

void draw_colour_bars(Image& image, const std::vector<const Palette*>& bars) {
  for (std::size_t b = 0; b < bars.size(); ++b)
    for (int k = 0; k < colour_bar_rows; ++k) {
      const int y = image.height - 1 - int(b) * colour_bar_rows - k;
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

void postprocess(Image& image, const PostOptions& o) {
  if (o.a_eq_e) emission_to_brightness(image);
  if (!o.colour_bars.empty()) draw_colour_bars(image, o.colour_bars);
  if (o.gamma != 1.0 || o.contrast != 1.0 || o.brightness != 0.0) adjust(image, o.gamma, o.contrast, o.brightness);
}

}  // namespace splotch
