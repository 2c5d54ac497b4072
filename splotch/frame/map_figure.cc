#include "splotch/frame/map_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/text_draw.h"

namespace splotch {

std::string tick_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

double tick_position(const FigureScale& s, double v) {
  return s.log ? (std::log10(v) - std::log10(s.lo)) / (std::log10(s.hi) - std::log10(s.lo))
               : (v - s.lo) / (s.hi - s.lo);
}

namespace {

// The nice step (1, 2 or 5 times a power of ten) at or above `raw`.
double nice_step(double raw) {
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * decade >= raw * (1 - 1e-9)) return m * decade;
  return 10 * decade;
}

void fill(Image8& image, int x0, int y0, int x1, int y1, const std::uint8_t rgb[3]) {
  for (int y = std::max(0, y0); y < std::min(image.height, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(image.width, x1); ++x) std::copy(rgb, rgb + 3, image.pixel(x, y));
}

}  // namespace

namespace {

// The k-th smallest (from 0) of the values `shown` keeps, of `count` (k < count): from those at or
// below a bound that a sample puts a little above it, where enough lie there (the usual case: a
// pass over the map and a selection among a few per cent of it), else from all of them.
template <class Shown>
float kth_smallest_shown(const std::vector<float>& values, std::size_t count, std::size_t k, Shown shown) {
  const std::size_t n = values.size(), stride = 64;
  std::vector<float> sample;
  for (std::size_t i = 0; i < n; i += stride)
    if (shown(values[i])) sample.push_back(values[i]);
  float bound = HUGE_VALF;
  const std::size_t at = std::min(sample.size(), (2 * k + 64) / stride + 8);  // (twice the share, and a margin)
  if (sample.size() > 100 && at < sample.size()) {
    std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(at), sample.end());
    bound = sample[at];
  }
  std::vector<float> below;
#pragma omp parallel
  {
    std::vector<float> mine;
#pragma omp for schedule(static) nowait
    for (std::size_t i = 0; i < n; ++i)
      if (shown(values[i]) && values[i] <= bound) mine.push_back(values[i]);
#pragma omp critical
    below.insert(below.end(), mine.begin(), mine.end());
  }
  if (below.size() <= k) {  // (the sample misjudged: all of them)
    below.clear();
    below.reserve(count);
    for (float v : values)
      if (shown(v)) below.push_back(v);
  }
  std::nth_element(below.begin(), below.begin() + std::ptrdiff_t(k), below.end());
  return below[k];
}

}  // namespace

FigureScale figure_scale(const std::vector<float>& values, bool log, double min, double max) {
  FigureScale s;
  s.log = log;
  const auto shown = [log](float v) { return std::isfinite(v) && (!log || v > 0); };
  const std::size_t n = values.size();
  std::size_t count = 0;
  float lowest = HUGE_VALF, highest = -HUGE_VALF;
#pragma omp parallel for schedule(static) reduction(+ : count) reduction(min : lowest) reduction(max : highest)
  for (std::size_t i = 0; i < n; ++i)
    if (shown(values[i])) ++count, lowest = std::min(lowest, values[i]), highest = std::max(highest, values[i]);
  if (count > 0) {
    s.hi = highest;
    // (a log scale from the 1st percentile of the values above 0: the lowest few are noise)
    const std::size_t at = log ? count / 100 : 0;
    s.lo = at == 0 ? lowest : kth_smallest_shown(values, count, at, shown);
  } else if (log) {
    s.lo = 1, s.hi = 10;
  }
  if (!std::isnan(min)) s.lo = min;
  if (!std::isnan(max)) s.hi = max;
  if (!(s.hi > s.lo)) s.hi = log ? s.lo * 10 : s.lo + (s.lo != 0 ? std::fabs(s.lo) : 1);
  return s;
}

std::vector<double> colour_bar_ticks(const FigureScale& s) {
  std::vector<double> ticks;
  if (s.log) {
    const int first = int(std::ceil(std::log10(s.lo) - 1e-9)), last = int(std::floor(std::log10(s.hi) + 1e-9));
    const bool few = last - first < 2;
    for (int k = first - 1; k <= last; ++k)
      for (double m : few ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double v = m * std::pow(10.0, k);
        if (v >= s.lo * (1 - 1e-9) && v <= s.hi * (1 + 1e-9)) ticks.push_back(v);
      }
  }
  // A linear scale, or a log one too narrow for two of its ticks: nice steps.
  if (ticks.size() < 2) {
    ticks.clear();
    const double step = nice_step((s.hi - s.lo) / (s.log ? 4 : 5));
    for (double v = std::ceil(s.lo / step - 1e-9) * step; v <= s.hi + 1e-9 * step; v += step)
      if (!s.log || v > 0) ticks.push_back(std::fabs(v) < 1e-12 * step ? 0.0 : v);
  }
  return ticks;
}

double scale_bar_length(double width) {
  return nice_step(width / 5) > width / 3 ? nice_step(width / 10) : nice_step(width / 5);
}

Image8 map_figure(const std::vector<float>& values, int xres, int yres, const FigureScale& s, const Palette& palette,
                  const FigureText& text) {
  const Font font(default_font_path());
  const float height = float(std::clamp(yres / 32, 10, 32));
  const int margin = int(height);
  const std::vector<double> ticks = colour_bar_ticks(s);
  int labels = 0;
  for (double t : ticks) labels = std::max(labels, font.width(tick_text(t), height));
  const int bar = int(height);
  const int panel = std::max(2 * margin + bar + margin / 2 + labels, 2 * margin + font.width(text.unit, height));
  Image8 image(xres + panel, yres);
  const double a = s.log ? std::log10(s.lo) : s.lo, b = s.log ? std::log10(s.hi) : s.hi;
  for (int y = 0; y < yres; ++y)
    for (int x = 0; x < xres; ++x) {
      const float v = values[std::size_t(yres - 1 - y) * std::size_t(xres) + std::size_t(x)];
      std::uint8_t* p = image.pixel(x, y);
      if (!(v == v)) {  // no value (an average where no particle reaches): grey, no colour of the scale
        p[0] = p[1] = p[2] = 96;
        continue;
      }
      const double t =
          !(v == v) || (s.log && !(v > 0)) ? 0.0 : ((s.log ? std::log10(double(v)) : double(v)) - a) / (b - a);
      const Rgb c = palette.at(float(t));
      p[0] = to_8bit(c.r);
      p[1] = to_8bit(c.g);
      p[2] = to_8bit(c.b);
    }
  const std::uint8_t white[3] = {255, 255, 255};
  // The colour bar: its title, then the bar from hi (top) to lo, ticks and their values.
  const int bar_x = xres + margin, top = 2 * margin + int(height), bottom = yres - margin;
  font.draw(image, xres + margin, margin / 2, height, text.unit, white);
  for (int y = top; y < bottom; ++y) {
    const Rgb c = palette.at(float(double(bottom - 1 - y) / std::max(1, bottom - 1 - top)));
    const std::uint8_t rgb[3] = {to_8bit(c.r), to_8bit(c.g), to_8bit(c.b)};
    fill(image, bar_x, y, bar_x + bar, y + 1, rgb);
  }
  for (double t : ticks) {
    const int y = bottom - 1 - int(std::lround(tick_position(s, t) * (bottom - 1 - top)));
    fill(image, bar_x + bar, y, bar_x + bar + margin / 3, y + 1, white);
    font.draw(image, bar_x + bar + margin / 2, y - int(height) / 2, height, tick_text(t), white);
  }
  // The scale bar at the map's bottom left, and the redshift or time at its top left.
  const double width = text.pixel * xres, length = scale_bar_length(width);
  const int pixels = std::max(1, int(std::lround(length / text.pixel)));
  const int thick = std::max(2, int(height) / 5);
  fill(image, margin, yres - margin - thick, margin + pixels, yres - margin, white);
  font.draw(image, margin, yres - margin - thick - int(height) - 2, height, tick_text(length) + " " + text.length_unit,
            white);
  char when[48] = "";
  if (text.redshift >= 0)
    std::snprintf(when, sizeof when, "z = %.3g", text.redshift);
  else if (text.time == 0 || (std::isfinite(text.time) && std::fabs(text.time) > 1e-30))  // (not a header's garbage)
    std::snprintf(when, sizeof when, "t = %.4g", text.time);
  font.draw(image, margin, margin / 2, height, when, white);
  return image;
}

}  // namespace splotch
