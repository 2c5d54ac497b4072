// exp(x) for x <= 0 in single precision, written so that the compiler vectorises loops calling it
// (no library call, no branch): range reduction x = n ln2 + r with |r| <= ln2/2, then a degree-5
// minimax polynomial for exp(r) (the Cephes single-precision coefficients, relative error about
// 1e-7), scaled by 2^n built in the exponent bits. Arguments below -87 give about 1e-38 instead of
// a denormal.
#pragma once

#include <cstdint>
#include <cstring>

namespace splotch {

inline float fast_exp(float x) {
  x = x < -87.0f ? -87.0f : x;
  // Round x / ln2 to the nearest integer by adding and subtracting 1.5 * 2^23.
  const float shifter = 12582912.0f;
  const float n = (x * 1.44269504088896341f + shifter) - shifter;
  const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float e = (p * r) * r + r + 1.0f;
  const std::int32_t bits = (std::int32_t(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, 4);
  return e * scale;
}

}  // namespace splotch
