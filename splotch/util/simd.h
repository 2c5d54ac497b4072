// Eight-lane float and int vectors through the GCC/Clang vector extension: one AVX register where
// the build machine has AVX2, two SSE registers elsewhere, plain code either way. The renderer's
// inner loops work on groups of eight rows with masks, instead of scalar prologues and epilogues
// around short runs of pixels. (Sixteen lanes on AVX-512 measured slower: most columns of a
// splat are shorter than sixteen rows.)
#pragma once

#include <cstdint>
#include <cstring>

namespace splotch::simd {

constexpr int lanes = 8;
typedef float vfloat __attribute__((vector_size(4 * lanes)));
typedef std::int32_t vint __attribute__((vector_size(4 * lanes)));

inline vfloat load(const float* p) {
  vfloat v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, vfloat v) { std::memcpy(p, &v, sizeof v); }
inline void store_int(std::int32_t* p, vint v) { std::memcpy(p, &v, sizeof v); }
inline vfloat splat(float x) { return vfloat{} + x; }
inline vint splat(std::int32_t x) { return vint{} + x; }
inline vint lane_index() {
  vint v;
  for (int k = 0; k < lanes; ++k) v[k] = k;
  return v;
}
inline vfloat to_float(vint v) { return __builtin_convertvector(v, vfloat); }

// Lanes where `mask` is set (all bits) take `a`, the others `b`.
inline vfloat select(vint mask, vfloat a, vfloat b) { return mask ? a : b; }
inline vint select_int(vint mask, vint a, vint b) { return mask ? a : b; }
inline vfloat max(vfloat a, vfloat b) { return a > b ? a : b; }
inline vfloat min(vfloat a, vfloat b) { return a < b ? a : b; }
inline vint max(vint a, vint b) { return a > b ? a : b; }
inline vint min(vint a, vint b) { return a < b ? a : b; }
// Per-lane sqrt; the compiler turns the loop into one vector instruction (with -fno-math-errno).
inline vfloat sqrt(vfloat x) {
  vfloat r = x;
  for (int k = 0; k < lanes; ++k) r[k] = __builtin_sqrtf(x[k]);
  return r;
}
// int(v) per lane (truncation towards zero), for |v| < 2^31.
inline vint truncate(vfloat v) { return __builtin_convertvector(v, vint); }

// The same operations on single floats, so that one template serves a vector loop and its tail.
inline float select(bool mask, float a, float b) { return mask ? a : b; }
inline std::int32_t select_int(bool mask, std::int32_t a, std::int32_t b) { return mask ? a : b; }
inline float max(float a, float b) { return a > b ? a : b; }
inline float min(float a, float b) { return a < b ? a : b; }
inline float sqrt(float x) { return __builtin_sqrtf(x); }
inline std::int32_t truncate(float v) { return std::int32_t(v); }
inline float to_float(std::int32_t v) { return float(v); }
inline float load(const float* p, float) { return *p; }
inline vfloat load(const float* p, vfloat) { return load(p); }
inline void store(float* p, float v) { *p = v; }

// v limited to [lo, hi], per lane (or for one int).
template <class I>
I clamp(I v, int lo, int hi) {
  return select_int(v < lo, I{} + lo, select_int(v > hi, I{} + hi, v));
}

// v / d per lane (or for one int) for 0 <= v < 2^24, d > 0 and inverse = 1.0f / d, without an
// integer division (vectors have none): the float quotient is off by at most one, and one
// step each way corrects it.
template <class I>
I divide(I v, int d, float inverse) {
  I q = truncate(to_float(v) * inverse);
  q = select_int((q + 1) * d <= v, q + 1, q);
  return select_int(q * d > v, q - 1, q);
}

}  // namespace splotch::simd
