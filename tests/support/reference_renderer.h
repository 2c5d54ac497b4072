// The slow, obvious renderer: docs/design.md section 4 "Render" transcribed literally, one splat and
// one pixel at a time, weights in double precision, no tiles, no separable weights, no fast exp.
// The host renderer (and later the GPU renderers) are tested against it.
#pragma once

#include <cmath>

#include "io/image.h"
#include "splotch/render/host_renderer.h"

namespace splotch::testing {

inline void reference_render(const SplatView& s, bool a_eq_e, double gray_absorption, Image& image) {
  const double h2sigma = 0.5 * std::pow(3.14159265358979323846, -1.0 / 6.0);
  for (std::size_t i = 0; i < s.n; ++i) {
    const float X = s.x[i], Y = s.y[i], r = s.radius[i];
    const float R = 0.75f * r;
    const double sigma = h2sigma * r;
    const int x_lo = std::max(0, int(X - R + 1.0f)), x_hi = std::min(image.width, int(X + R + 1.0f));
    const int y_lo = std::max(0, int(Y - R + 1.0f)), y_hi = std::min(image.height, int(Y + R + 1.0f));
    for (int x = x_lo; x < x_hi; ++x) {
      const float dx2 = (float(x) - X) * (float(x) - X);
      const float dy = std::sqrt(std::max(R * R - dx2, 0.0f));
      const int lo = std::max(y_lo, int(Y - dy + 1.0f)), hi = std::min(y_hi, int(Y + dy + 1.0f));
      for (int y = lo; y < hi; ++y) {
        const double d2 = double(x - X) * double(x - X) + double(y - Y) * double(y - Y);
        const double w = std::exp(-d2 / (sigma * sigma));
        float* p = image.pixel(x, y);
        for (int c = 0; c < 3; ++c) {
          const double e = s.e[c][i];
          if (a_eq_e) {
            p[c] = float(p[c] + w * e);
          } else {
            const double q = e + gray_absorption != 0 ? e / (e + gray_absorption) : 0.0;
            const double t = std::exp(-w * e);
            p[c] = float(p[c] * t + q * (1.0 - t));
          }
        }
      }
    }
  }
}

}  // namespace splotch::testing
