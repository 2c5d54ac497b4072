// log10(x) for finite x > 0 in single precision, written so that loops calling it vectorise:
// x = m 2^e with m in [sqrt(1/2), sqrt(2)), then the Cephes single-precision polynomial for
// ln(m) (error about 1 ulp) and ln x = ln m + e ln 2, scaled to base 10. Used to take the log of
// colour values and intensities, which the original does for every particle.
#pragma once

#include <cstdint>
#include <cstring>

namespace splotch {

inline float fast_log10(float x) {
  const bool denormal = x < 1.17549435e-38f;  // scaled into the normal range first
  x = denormal ? x * 8388608.0f : x;
  std::int32_t bits;
  std::memcpy(&bits, &x, 4);
  float e = float(((bits >> 23) & 0xff) - 126) - (denormal ? 23.0f : 0.0f);
  bits = (bits & 0x007fffff) | 0x3f000000;  // mantissa in [0.5, 1)
  float m;
  std::memcpy(&m, &bits, 4);
  const bool small = m < 0.707106781186547524f;
  e = small ? e - 1.0f : e;
  m = small ? m + m - 1.0f : m - 1.0f;
  const float z = m * m;
  float p = 7.0376836292e-2f;
  p = p * m - 1.1514610310e-1f;
  p = p * m + 1.1676998740e-1f;
  p = p * m - 1.2420140846e-1f;
  p = p * m + 1.4249322787e-1f;
  p = p * m - 1.6668057665e-1f;
  p = p * m + 2.0000714765e-1f;
  p = p * m - 2.4999993993e-1f;
  p = p * m + 3.3333331174e-1f;
  float y = p * m * z;
  y += e * -2.12194440e-4f;
  y += -0.5f * z;
  const float ln = (m + y) + e * 0.693359375f;
  return ln * 0.434294481903251828f;
}

}  // namespace splotch
