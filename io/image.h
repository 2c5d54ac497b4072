// Images as the pipeline holds them. Pixel (x, y) has x counted from the left and y from the top
// row of the written picture (docs/design.md section 4); rows are stored top first, three interleaved
// channels per pixel. The float image carries the rendered values (any range); the 8-bit image is
// what the writers encode.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/particle_array.h"

namespace splotch {

struct Image {
  int width = 0, height = 0;
  ParticleArray<float> rgb;  // [height][width][3]; huge pages, like the particle arrays

  Image() = default;
  // A black image. Zero-filled by all threads: the first touch of fresh memory is the slow part.
  Image(int w, int h) : width(w), height(h), rgb(std::size_t(w) * std::size_t(h) * 3) {
    float* v = rgb.data();
    const long n = long(rgb.size());
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) v[i] = 0.0f;
  }
  float* pixel(int x, int y) { return &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3]; }
  const float* pixel(int x, int y) const { return &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3]; }
};

struct Image8 {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // [height][width][3], R G B

  Image8() = default;
  Image8(int w, int h) : width(w), height(h), rgb(std::size_t(w) * std::size_t(h) * 3, 0) {}
  std::uint8_t* pixel(int x, int y) { return &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3]; }
  const std::uint8_t* pixel(int x, int y) const {
    return &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
  }
};

// The original's conversion: v8 = clamp(int(256 v), 0, 255), so [k/256, (k+1)/256) -> k and
// 1.0 -> 255; negative values and NaN give 0.
inline std::uint8_t to_8bit(float v) {
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return 255;
  return static_cast<std::uint8_t>(static_cast<int>(v * 256.0f));
}

Image8 to_8bit(const Image& image);

}  // namespace splotch
