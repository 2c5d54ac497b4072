#include "splotch/normalize.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "splotch/fast_log.h"

namespace splotch {
namespace {

// The original's stand-in for log10 of a non-positive value.
constexpr float log_of_nonpositive = -38.0f;

enum class Transform { none, log10, asinh };

// The particles a loop works on: all, or those of one type.
struct Selection {
  const std::uint8_t* type;  // null: every particle
  std::uint8_t wanted;
  bool contains(std::size_t i) const { return type == nullptr || type[i] == wanted; }
};

// Transforms the selected values of one array in place and returns their range (values <= 0
// under log10 become -38 and are left out of the range). The loops have no branches so that they
// vectorise; the selection is a blend.
ValueRange transform_array(float* v, std::size_t n, Selection sel, Transform t) {
  float lo = 3.4e38f, hi = -3.4e38f;
  if (t == Transform::log10) {
#pragma omp parallel for simd schedule(static) reduction(min : lo) reduction(max : hi)
    for (std::size_t i = 0; i < n; ++i) {
      const float old = v[i];
      const bool counts = sel.contains(i) && old > 0.0f;
      const float logged = old > 0.0f ? fast_log10(old) : log_of_nonpositive;
      v[i] = sel.contains(i) ? logged : old;
      lo = std::min(lo, counts ? logged : lo);
      hi = std::max(hi, counts ? logged : hi);
    }
  } else {
    // asinh is rare: a plain loop is fast enough.
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi)
    for (std::size_t i = 0; i < n; ++i) {
      if (!sel.contains(i)) continue;
      if (t == Transform::asinh) v[i] = std::asinh(v[i]);
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
  }
  return {lo, hi};
}

void normalize_array(float* v, std::size_t n, Selection sel, const ValueRange& r) {
  const float min = r.min, max = r.max;
  const bool flat = max == min;  // v -> 1 when max == min
  const float width = flat ? 1.0f : max - min;
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float c = std::min(std::max(v[i], min), max);
    const float mapped = flat ? 1.0f : (c - min) / width;
    v[i] = sel.contains(i) ? mapped : v[i];
  }
}

Transform colour_transform(const TypeNormalization& t) {
  return t.color_log ? Transform::log10 : t.color_asinh ? Transform::asinh : Transform::none;
}

Selection select_type(const ParticleSet& p, int t) {
  return {p.type.empty() ? nullptr : p.type.data(), std::uint8_t(t)};
}

int colour_channels(const ParticleSet& p, const TypeNormalization& t) {
  return t.vector_colour && !p.colour[1].empty() ? 3 : 1;
}

}  // namespace

std::vector<TypeRanges> transform_and_measure(ParticleSet& p, const std::vector<TypeNormalization>& types) {
  const std::size_t n = p.size();
  std::vector<TypeRanges> ranges(types.size());
  for (std::size_t t = 0; t < types.size(); ++t) {
    const Selection sel = select_type(p, int(t));
    const TypeNormalization& tn = types[t];
    ranges[t].intensity =
        transform_array(p.intensity.data(), n, sel, tn.intensity_log ? Transform::log10 : Transform::none);
    for (int c = 0; c < colour_channels(p, tn); ++c)
      ranges[t].colour.merge(transform_array(p.colour[c].data(), n, sel, colour_transform(tn)));
    if (p.type.empty()) break;  // a single type: every particle was done
  }
  return ranges;
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
  for (std::size_t t = 0; t < types.size(); ++t) {
    const Selection sel = select_type(p, int(t));
    normalize_array(p.intensity.data(), n, sel, ranges[t].intensity);
    for (int c = 0; c < colour_channels(p, types[t]); ++c) normalize_array(p.colour[c].data(), n, sel, ranges[t].colour);
    if (p.type.empty()) break;
  }
}

std::vector<TypeRanges> normalize(ParticleSet& p, const std::vector<TypeNormalization>& types) {
  std::vector<TypeRanges> ranges = choose_ranges(transform_and_measure(p, types), types);
  apply_ranges(p, ranges, types);
  return ranges;
}

}  // namespace splotch
