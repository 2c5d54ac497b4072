// log10(x) for finite x > 0 in single precision, for one float or eight lanes at once: x = m 2^e
// with m in [sqrt(1/2), sqrt(2)), then the Cephes single-precision polynomial for ln(m) (error
// about 1 ulp) and ln x = ln m + e ln 2, scaled to base 10. Used to take the log of colour values
// and intensities, which the original does for every particle.
#pragma once

#include <cstdint>

#include "splotch/util/simd.h"

namespace splotch {
namespace detail {

inline float select(bool c, float a, float b) { return c ? a : b; }
inline simd::vfloat select(simd::vint c, simd::vfloat a, simd::vfloat b) { return c ? a : b; }
inline std::int32_t bits_of(float x) { return __builtin_bit_cast(std::int32_t, x); }
inline simd::vint bits_of(simd::vfloat x) { return (simd::vint)x; }
inline float float_of(std::int32_t b) { return __builtin_bit_cast(float, b); }
inline simd::vfloat float_of(simd::vint b) { return (simd::vfloat)b; }
inline float to_float(std::int32_t v) { return float(v); }
inline simd::vfloat to_float(simd::vint v) { return __builtin_convertvector(v, simd::vfloat); }

template <class F>
inline F log10_positive(F x) {
  const auto denormal = x < 1.17549435e-38f;  // scaled into the normal range first
  x = select(denormal, x * 8388608.0f, x);
  auto bits = bits_of(x);
  F e = to_float(((bits >> 23) & 0xff) - 126);
  e = select(denormal, e - 23.0f, e);
  bits = (bits & 0x007fffff) | 0x3f000000;  // mantissa in [0.5, 1)
  F m = float_of(bits);
  const auto small = m < 0.707106781186547524f;
  e = select(small, e - 1.0f, e);
  m = select(small, m + m - 1.0f, m - 1.0f);
  const F z = m * m;
  F p = m * 7.0376836292e-2f - 1.1514610310e-1f;
  p = p * m + 1.1676998740e-1f;
  p = p * m - 1.2420140846e-1f;
  p = p * m + 1.4249322787e-1f;
  p = p * m - 1.6668057665e-1f;
  p = p * m + 2.0000714765e-1f;
  p = p * m - 2.4999993993e-1f;
  p = p * m + 3.3333331174e-1f;
  F y = p * m * z;
  y += e * -2.12194440e-4f;
  y += z * -0.5f;
  const F ln = (m + y) + e * 0.693359375f;
  return ln * 0.434294481903251828f;
}

}  // namespace detail

inline float fast_log10(float x) { return detail::log10_positive(x); }
inline simd::vfloat fast_log10(simd::vfloat x) { return detail::log10_positive(x); }

}  // namespace splotch
