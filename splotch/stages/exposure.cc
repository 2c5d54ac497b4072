#include "splotch/stages/exposure.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace splotch {
namespace {

constexpr double saturated_warning_fraction = 0.30;
constexpr int dark_warning_level = 13;  // 5% of 255
// A picture with fewer of its pixels lit is nearly black, however bright they are (one dot).
constexpr double lit_warning_fraction = 0.001;

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g%%", 100 * fraction);
  return text;
}

std::string shortest(double v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, float(v));
  return std::string(buf, res.ptr);
}

}  // namespace

std::size_t sample_stride(const Image& image) {
  return std::max<std::size_t>(1, std::size_t(image.width) * std::size_t(image.height) >> 16);
}

namespace {
constexpr int bin_shift = 16;  // 65536 bins of the 32 bits

std::uint32_t bits_of(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The lit value of pixel p, 0 where it is not lit.
float lit_value(const Image& sums, std::size_t p) {
  const float* v = &sums.rgb[3 * p];
  const float m = std::max({v[0], v[1], v[2]});
  return m > 0 && std::isfinite(m) ? m : 0.0f;
}
}  // namespace

// The k-th smallest (0-based) of the lit values, exactly as std::nth_element finds it, on every
// thread: a histogram of the values' top 16 bits (a positive float's bits order as its value)
// finds the bin of the k-th, and only that bin's values are selected from. On one thread the
// whole selection over a 2048^2 picture took 0.035 s of every frame of a movie with exposure =
// auto.
double automatic_exposure(const Image& sums, std::size_t stride) {
  const std::size_t pixels = std::size_t(sums.width) * std::size_t(sums.height);
  const long samples = long((pixels + stride - 1) / stride);
  std::vector<std::uint64_t> histogram(std::size_t(1) << bin_shift, 0);
#pragma omp parallel
  {
    std::vector<std::uint64_t> mine(histogram.size(), 0);
#pragma omp for schedule(static) nowait
    for (long i = 0; i < samples; ++i) {
      const float m = lit_value(sums, std::size_t(i) * stride);
      if (m > 0) ++mine[bits_of(m) >> bin_shift];
    }
#pragma omp critical
    for (std::size_t b = 0; b < mine.size(); ++b) histogram[b] += mine[b];
  }
  std::uint64_t lit = 0;
  for (std::uint64_t c : histogram) lit += c;
  if (lit == 0) return 0;
  std::size_t k = std::min(std::size_t(lit - 1), std::size_t(0.995 * double(lit)));
  std::uint32_t bin = 0;
  while (k >= histogram[bin]) k -= std::size_t(histogram[bin++]);
  std::vector<float> in_bin;
  in_bin.reserve(std::size_t(histogram[bin]));
#pragma omp parallel
  {
    std::vector<float> mine;
#pragma omp for schedule(static) nowait
    for (long i = 0; i < samples; ++i) {
      const float m = lit_value(sums, std::size_t(i) * stride);
      if (m > 0 && bits_of(m) >> bin_shift == bin) mine.push_back(m);
    }
#pragma omp critical
    in_bin.insert(in_bin.end(), mine.begin(), mine.end());
  }
  std::nth_element(in_bin.begin(), in_bin.begin() + std::ptrdiff_t(k), in_bin.end());
  return in_bin[k] > 0 ? std::log(10.0) / double(in_bin[k]) : 0;
}

void scale(Image& sums, double factor) {
  const float f = float(factor);
  float* v = sums.rgb.data();
  const std::size_t n = sums.rgb.size();
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] *= f;
}

PictureLevels measure_levels(const Image& picture) {
  const std::size_t pixels = std::size_t(picture.width) * std::size_t(picture.height);
  std::size_t saturated = 0, lit = 0, touched = 0;
  float brightest = 0;
  const float* v = picture.rgb.data();
#pragma omp parallel for schedule(static) reduction(+ : saturated, lit, touched) reduction(max : brightest)
  for (std::size_t p = 0; p < pixels; ++p) {
    const float m = std::max({v[3 * p], v[3 * p + 1], v[3 * p + 2]}) * 256.0f;  // as to_8bit has it
    saturated += m >= 255.0f;
    lit += m >= float(dark_warning_level);
    touched += m >= 1.0f;
    if (m > brightest) brightest = m;
  }
  PictureLevels l;
  const double all = pixels ? double(pixels) : 1.0;
  l.saturated_fraction = double(saturated) / all;
  l.lit_fraction = double(lit) / all;
  l.touched_fraction = double(touched) / all;
  l.brightest = int(std::min(255.0f, std::max(0.0f, brightest)));
  return l;
}

std::string level_warning(const PictureLevels& l, double suggested, bool a_eq_e, float gray_absorption,
                          const std::string& bottom) {
  const std::string fix = suggested > 0 ? "exposure = " + shortest(suggested) +
                                              " (every brightness times that), or exposure = auto, would put its "
                                              "brightest 0.5% just below white"
                                        : "";
  if (l.saturated_fraction > saturated_warning_fraction)
    return std::to_string(int(std::lround(100 * l.saturated_fraction))) +
           "% of the picture is saturated (white in "
           "some colour): " +
           (fix.empty() ? "lower the brightnesses (brightnessN)" : fix);
  const bool dark = l.brightest < dark_warning_level;
  if (!dark && l.lit_fraction >= lit_warning_fraction) return "";
  const std::string what =
      dark ? "the picture is nearly black (its brightest value is " + std::to_string(l.brightest) + " of 255)"
           : "the picture is nearly black: only " + percent(l.lit_fraction) +
                 " of its pixels are lit (5% of white or more)";
  if (!bottom.empty()) return what + ": " + bottom;
  // Few pixels touched at all: the particles fill a speck of the view; many touched but dim: the
  // brightness is short.
  if (!dark && l.touched_fraction < 4 * lit_warning_fraction)
    return what +
           ": the particles cover a speck of the view; bring the camera closer (camera_x/y/z, or a smaller "
           "fov), or widen the particles (smooth_factorN; minrad_pix for the smallest); the report's notes "
           "say where the camera and the smoothing lengths came from";
  // Without a factor to suggest (a_eq_e = FALSE: the picture is not linear in the brightness), one
  // that would bring the brightest value near white where the light were thin, as a start.
  const std::string raise = !dark ? "raise the brightnesses (brightnessN)"
                            : l.brightest > 0
                                ? "raise the brightnesses (brightnessN), about " + shortest(230.0 / l.brightest) +
                                      " times as a start (the picture does not scale with them exactly)"
                                : "raise the brightnesses (brightnessN) a hundredfold or more as a start";
  std::string text = what + ": " + (fix.empty() ? raise : fix);
  if (!a_eq_e)
    text += "; with a_eq_e = FALSE a colour much weaker than gray_absorption (" + shortest(gray_absorption) +
            ") stays dark: lower gray_absorption";
  return text;
}

}  // namespace splotch
