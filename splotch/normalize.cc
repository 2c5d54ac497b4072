#include "splotch/normalize.h"

#include <algorithm>
#include <cmath>
#include <omp.h>

namespace splotch {
namespace {

// The original's stand-in for log10 of a non-positive value.
constexpr float log_of_nonpositive = -38.0f;

// Transforms one value; returns whether it counts in the range.
inline bool transform(float& v, bool take_log, bool take_asinh) {
  if (take_log) {
    if (v > 0.0f) {
      v = std::log10(v);
      return true;
    }
    v = log_of_nonpositive;
    return false;
  }
  if (take_asinh) v = std::asinh(v);
  return true;
}

inline float normalized(float v, const ValueRange& r) {
  if (r.max == r.min) return 1.0f;
  float c = std::min(std::max(v, r.min), r.max);
  return (c - r.min) / (r.max - r.min);
}

}  // namespace

std::vector<TypeRanges> transform_and_measure(ParticleSet& p, const std::vector<TypeNormalization>& types) {
  const std::size_t n = p.size();
  const int ntypes = int(types.size());
  const int ncolour = p.colour[1].empty() ? 1 : 3;
  std::vector<TypeRanges> total(types.size());
#pragma omp parallel
  {
    std::vector<TypeRanges> mine(types.size());
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const int t = p.type_of(i);
      const TypeNormalization& tn = types[t];
      if (transform(p.intensity[i], tn.intensity_log, false)) mine[t].intensity.include(p.intensity[i]);
      const int channels = tn.vector_colour ? ncolour : 1;
      for (int c = 0; c < channels; ++c)
        if (transform(p.colour[c][i], tn.color_log, tn.color_asinh)) mine[t].colour.include(p.colour[c][i]);
    }
#pragma omp critical(splotch_normalize_merge)
    for (int t = 0; t < ntypes; ++t) {
      total[t].colour.merge(mine[t].colour);
      total[t].intensity.merge(mine[t].intensity);
    }
  }
  return total;
}

std::vector<TypeRanges> choose_ranges(const std::vector<TypeRanges>& data, const std::vector<TypeNormalization>& types) {
  std::vector<TypeRanges> out = data;
  for (std::size_t t = 0; t < types.size(); ++t) {
    // A type with no countable value (say, every colour <= 0 under color_log) maps to 1.
    if (out[t].colour.empty()) out[t].colour = {0.0f, 0.0f};
    if (out[t].intensity.empty()) out[t].intensity = {0.0f, 0.0f};
    if (types[t].color_min) out[t].colour.min = *types[t].color_min;
    if (types[t].color_max) out[t].colour.max = *types[t].color_max;
    if (types[t].intensity_min) out[t].intensity.min = *types[t].intensity_min;
    if (types[t].intensity_max) out[t].intensity.max = *types[t].intensity_max;
  }
  return out;
}

void apply_ranges(ParticleSet& p, const std::vector<TypeRanges>& ranges, const std::vector<TypeNormalization>& types) {
  const std::size_t n = p.size();
  const int ncolour = p.colour[1].empty() ? 1 : 3;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const int t = p.type_of(i);
    p.intensity[i] = normalized(p.intensity[i], ranges[t].intensity);
    const int channels = types[t].vector_colour ? ncolour : 1;
    for (int c = 0; c < channels; ++c) p.colour[c][i] = normalized(p.colour[c][i], ranges[t].colour);
  }
}

std::vector<TypeRanges> normalize(ParticleSet& p, const std::vector<TypeNormalization>& types) {
  std::vector<TypeRanges> ranges = choose_ranges(transform_and_measure(p, types), types);
  apply_ranges(p, ranges, types);
  return ranges;
}

}  // namespace splotch
