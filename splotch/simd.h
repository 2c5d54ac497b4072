// Eight-lane float and int vectors through the GCC/Clang vector extension: one AVX register where
// the build machine has AVX2, two SSE registers elsewhere, plain code either way. The renderer's
// inner loops work on aligned groups of eight rows with masks, instead of scalar prologues and
// epilogues around short runs of pixels.
#pragma once

#include <cstdint>
#include <cstring>

namespace splotch::simd {

constexpr int lanes = 8;
typedef float v8f __attribute__((vector_size(32)));
typedef std::int32_t v8i __attribute__((vector_size(32)));

inline v8f load(const float* p) {
  v8f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, v8f v) { std::memcpy(p, &v, sizeof v); }
inline void store_int(std::int32_t* p, v8i v) { std::memcpy(p, &v, sizeof v); }
inline v8f splat(float x) { return v8f{} + x; }
inline v8i splat(std::int32_t x) { return v8i{} + x; }
inline v8i lane_index() { return v8i{0, 1, 2, 3, 4, 5, 6, 7}; }
inline v8f to_float(v8i v) { return __builtin_convertvector(v, v8f); }

// Lanes where `mask` is set (all bits) take `a`, the others `b`.
inline v8f select(v8i mask, v8f a, v8f b) { return mask ? a : b; }
inline v8f max(v8f a, v8f b) { return a > b ? a : b; }
inline v8f min(v8f a, v8f b) { return a < b ? a : b; }
inline v8i max(v8i a, v8i b) { return a > b ? a : b; }
inline v8i min(v8i a, v8i b) { return a < b ? a : b; }
// Per-lane sqrt; the compiler turns the loop into one vector instruction (with -fno-math-errno).
inline v8f sqrt(v8f x) {
  v8f r;
  for (int k = 0; k < lanes; ++k) r[k] = __builtin_sqrtf(x[k]);
  return r;
}
// int(v) per lane (truncation towards zero), for |v| < 2^31.
inline v8i truncate(v8f v) { return __builtin_convertvector(v, v8i); }

}  // namespace splotch::simd
