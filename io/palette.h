// Colour palettes: the map from a normalised colour value in [0, 1] to RGB that the colour stage
// applies to every particle of a non-vector type (docs/design.md sections 3 and 4).
//
// A palette of n entries puts entry i at position i / (n - 1) and interpolates linearly between
// neighbours; a single entry is that colour everywhere. Palette::read() loads the original
// Splotch's `.pal` format:
//
//   fire            <- line 1: a name (any text, often "JASC-PAL")
//   0100            <- line 2: a version token (not checked; the original skips it)
//   3               <- line 3: the count n
//   0 0 0           <- n lines "R G B", numbers in [0, 256], stored as value / 255
//   255 128 0
//   255 255 255
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace splotch {

struct Rgb {
  float r, g, b;
};

class Palette {
 public:
  // `colours` are already scaled to [0, 1] (or slightly above, see read()); at least one.
  // An empty list is a programming error and throws std::invalid_argument.
  Palette(std::string name, std::vector<Rgb> colours);

  // Reads a `.pal` file. Throws UserError naming the file, the line and the problem.
  static Palette read(const std::string& path);

  const std::string& name() const { return name_; }
  int size() const { return static_cast<int>(padded_.size()) - 1; }
  Rgb entry(int i) const { return padded_[static_cast<std::size_t>(i)]; }

  // The colour at v; v is clamped to [0, 1] and NaN counts as 0. Called once per particle, so it
  // is inline, allocation-free and branch-light.
  Rgb at(float v) const;

 private:
  std::string name_;
  // The n entries followed by a copy of the last one: the upper neighbour of index i is then
  // always valid, even for v == 1 or n == 1, and at() needs no special case.
  std::vector<Rgb> padded_;
  float scale_ = 0.0f;  // n - 1: maps v in [0, 1] to the fractional entry index
};

inline Rgb Palette::at(float v) const {
  // Comparisons with NaN are false, so NaN takes the 0 branch.
  const float clamped = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  const float position = clamped * scale_;  // in [0, n - 1]: rounding cannot pass n - 1
  const int lower = static_cast<int>(position);
  const float frac = position - static_cast<float>(lower);
  const Rgb& lo = padded_[static_cast<std::size_t>(lower)];
  const Rgb& hi = padded_[static_cast<std::size_t>(lower) + 1];
  // One fused multiply-add per channel where the target has it (what the compiler chose by itself
  // before), a multiply and an add where not: written out, so that the GPU, which colours particles
  // kept on it, can do as this build does (splotch/render/gpu_particles.cc) and match it bit for bit.
#ifdef __FMA__
  return {std::fma(frac, hi.r - lo.r, lo.r), std::fma(frac, hi.g - lo.g, lo.g), std::fma(frac, hi.b - lo.b, lo.b)};
#else
  return {lo.r + frac * (hi.r - lo.r), lo.g + frac * (hi.g - lo.g), lo.b + frac * (hi.b - lo.b)};
#endif
}

}  // namespace splotch
