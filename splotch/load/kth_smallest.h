// The k-th smallest of a few hundred squared distances, found by counting (kth_smallest below).
// The innermost loop of the neighbour search in knn_hsml.cc: inline functions in a header, so
// that they are compiled, and inlined, where they are called.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace splotch::knn {

// kth_smallest interpolates its trial values for this many rounds, then bisects, so that it ends
// after at most 31 more whatever the values.
inline constexpr int interpolation_rounds = 8;

inline float float_of(std::int32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

inline std::int32_t bits_of(float v) {
  std::int32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

// Squared distances read as their bit patterns, which order non-negative floats as the floats
// order (a sum of squares gives +0, never -0), and as signed integers, since no such pattern
// reaches the sign bit. Integer loops vectorise where float maximum reductions would not (and
// GCC vectorises the signed ones more readily).
typedef std::int32_t __attribute__((may_alias)) FloatBits;

inline std::int32_t count_at_most(const float* v, std::size_t m, std::int32_t limit) {
  const FloatBits* u = reinterpret_cast<const FloatBits*>(v);
  std::int32_t count = 0;
  for (std::size_t i = 0; i < m; ++i) count += u[i] <= limit;
  return count;
}

inline std::int32_t largest_at_most(const float* v, std::size_t m, std::int32_t limit) {
  const FloatBits* u = reinterpret_cast<const FloatBits*>(v);
  std::int32_t largest = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const std::int32_t x = u[i], y = x <= limit ? x : 0;
    largest = largest > y ? largest : y;
  }
  return largest;
}

// x^(1/3) for x > 0 to about 0.1%, plenty for a guess and several times faster than std::cbrt:
// a first approximation from the bit pattern (a third of the exponent), then one Newton step.
inline float rough_cbrt(float x) {
  const float y = float_of(bits_of(x) / 3 + 0x2a5137a0);
  return y - (y * y * y - x) / (3 * y * y);
}

// Where to count next, between the bit patterns lo and hi - 1. The first guesses interpolate
// the counts as a uniform density would (the count grows as the volume, distance^3 =
// (distance^2)^1.5), which usually lands within a few particles of k; after that, bisection of
// the bit patterns, which halves the bracket whatever the values.
inline std::int32_t next_guess(int round, std::int32_t lo, std::int32_t hi, double count_lo, double count_hi,
                               double k) {
  std::int32_t guess = lo + (hi - lo) / 2;
  if (round < interpolation_rounds && count_hi > count_lo) {
    const float lo_d2 = float_of(lo), hi_d2 = float_of(hi);
    const float lo_volume = lo_d2 * std::sqrt(lo_d2), hi_volume = hi_d2 * std::sqrt(hi_d2);
    const float share = float((k + 0.5 - count_lo) / (count_hi - count_lo));
    const float r = rough_cbrt(lo_volume + (hi_volume - lo_volume) * share);
    const std::int32_t interpolated = bits_of(r * r);  // (outside the bracket if anything overflowed)
    if (interpolated >= lo && interpolated < hi) guess = interpolated;
  }
  return guess;
}

// The k-th smallest of v[0, m) (values >= 0), given that count_upper >= k of them are at most
// `upper`, and a guess of the answer (0: none). It counts the values at or below a trial value
// until exactly k are, and then takes the largest of those. Every pass vectorises and
// mispredicts no branch: for the few hundred values here cheaper than a selection algorithm,
// which would mispredict every other comparison.
inline float kth_smallest(const float* v, std::size_t m, std::size_t k, float upper, std::size_t count_upper,
                          float guess) {
  std::int32_t lo = 0, hi = bits_of(upper);  // the answer's bits lie in [lo, hi]
  double count_lo = 0, count_hi = double(count_upper);
  if (count_upper == k) return float_of(largest_at_most(v, m, hi));
  std::int32_t trial =
      guess > 0 ? std::min(bits_of(guess), hi - 1) : next_guess(0, lo, hi, count_lo, count_hi, double(k));
  for (int round = 1; lo < hi; ++round) {
    const std::size_t count = std::size_t(count_at_most(v, m, trial));
    if (count == k) return float_of(largest_at_most(v, m, trial));
    if (count > k) {
      hi = trial;
      count_hi = double(count);
    } else {
      lo = trial + 1;
      count_lo = double(count);
    }
    trial = next_guess(round, lo, hi, count_lo, count_hi, double(k));
  }
  return float_of(lo);
}

}  // namespace splotch::knn
