// exp(x) for x <= 0 in single precision, for one float or eight lanes at once, without library
// calls or branches: range reduction x = n ln2 + r with |r| <= ln2/2, a degree-5 minimax polynomial
// for exp(r) (the Cephes single-precision coefficients; relative error about 1e-7), times 2^n made
// in the exponent bits. Arguments below -87 give about 1e-38 rather than a denormal.
#pragma once

#include <cstdint>
#include <cstring>

#include "splotch/util/simd.h"

namespace splotch {
namespace detail {

inline float clamp_exp_argument(float x) { return x < -87.0f ? -87.0f : x; }
inline simd::vfloat clamp_exp_argument(simd::vfloat x) { return x < -87.0f ? simd::splat(-87.0f) : x; }

inline float power_of_two(float n) {
  const std::int32_t bits = (std::int32_t(n) + 127) << 23;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline simd::vfloat power_of_two(simd::vfloat n) {
  const simd::vint bits = (__builtin_convertvector(n, simd::vint) + 127) << 23;
  return (simd::vfloat)bits;  // a vector cast reinterprets the bits
}

template <class F>
inline F exp_nonpositive(F x) {
  x = clamp_exp_argument(x);
  // Round x / ln2 to the nearest integer by adding and subtracting 1.5 * 2^23.
  const F n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  const F r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
  F p = r * 1.9875691500e-4f + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return ((p * r) * r + r + 1.0f) * power_of_two(n);
}

}  // namespace detail

inline float fast_exp(float x) { return detail::exp_nonpositive(x); }
inline simd::vfloat fast_exp(simd::vfloat x) { return detail::exp_nonpositive(x); }

}  // namespace splotch
