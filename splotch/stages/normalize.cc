#include "splotch/stages/normalize.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "splotch/util/fast_log.h"
#include "splotch/util/simd.h"

namespace splotch {
namespace {

// The original's stand-in for log10 of a non-positive value.
constexpr float log_of_nonpositive = -38.0f;

enum class Transform { none, log10, asinh };

// The particles a loop works on: all of them, or those of one type. Two types, so that the loop
// over all particles has no test at all and vectorises.
struct AllParticles {
  bool contains(std::size_t) const { return true; }
};
struct ParticlesOfType {
  const std::uint8_t* type;
  std::uint8_t wanted;
  bool contains(std::size_t i) const { return type[i] == wanted; }
};

// log10 of one value, and whether it counts in the range (values <= 0 become -38 and do not).
inline float logged(float v, bool& counts) {
  counts = v > 0.0f;
  return counts ? fast_log10(v) : log_of_nonpositive;
}

// log10 of every value in place, eight at a time (written with vectors: the compiler does not
// vectorise this loop by itself), returning the range of the logs that count.
ValueRange log_every(float* v, std::size_t n) {
  using namespace simd;
  float lo = 3.4e38f, hi = -3.4e38f;
  const std::size_t groups = n / lanes;
#pragma omp parallel reduction(min : lo) reduction(max : hi)
  {
    vfloat group_lo = splat(3.4e38f), group_hi = splat(-3.4e38f);
#pragma omp for schedule(static)
    for (std::size_t g = 0; g < groups; ++g) {
      float* at = v + g * lanes;
      const vfloat x = load(at);
      const vint counts = x > 0.0f;
      const vfloat l = fast_log10(max(x, splat(1e-38f)));
      store(at, select(counts, l, splat(log_of_nonpositive)));
      group_lo = min(group_lo, select(counts, l, splat(3.4e38f)));
      group_hi = max(group_hi, select(counts, l, splat(-3.4e38f)));
    }
    for (int k = 0; k < lanes; ++k) {
      lo = std::min(lo, group_lo[k]);
      hi = std::max(hi, group_hi[k]);
    }
  }
  for (std::size_t i = groups * lanes; i < n; ++i) {
    bool counts;
    v[i] = logged(v[i], counts);
    if (counts) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
  }
  return {lo, hi};
}

// Transforms the selected values of one array in place and returns their range.
template <class Selection>
ValueRange transform_array(float* v, std::size_t n, Selection sel, Transform t) {
  if (t == Transform::log10 && std::is_same_v<Selection, AllParticles>) return log_every(v, n);
  float lo = 3.4e38f, hi = -3.4e38f;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi)
  for (std::size_t i = 0; i < n; ++i) {
    if (!sel.contains(i)) continue;
    bool counts = true;
    if (t == Transform::log10) v[i] = logged(v[i], counts);
    if (t == Transform::asinh) v[i] = std::asinh(v[i]);
    if (!counts) continue;
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  return {lo, hi};
}

template <class Selection>
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

// Calls work(selection) with the particles of type t: all particles when there is one type.
template <class Work>
void for_type(const ParticleSet& p, int t, Work work) {
  if (p.type.empty())
    work(AllParticles{});
  else
    work(ParticlesOfType{p.type.data(), std::uint8_t(t)});
}

int colour_channels(const ParticleSet& p, const TypeNormalization& t) {
  return t.vector_colour && !p.colour[1].empty() ? 3 : 1;
}

}  // namespace

std::vector<TypeRanges> transform_and_measure(ParticleSet& p, const std::vector<TypeNormalization>& types) {
  const std::size_t n = p.size();
  std::vector<TypeRanges> ranges(types.size());
  for (std::size_t t = 0; t < types.size(); ++t) {
    const TypeNormalization& tn = types[t];
    for_type(p, int(t), [&](auto sel) {
      ranges[t].intensity =
          transform_array(p.intensity.data(), n, sel, tn.intensity_log ? Transform::log10 : Transform::none);
      for (int c = 0; c < colour_channels(p, tn); ++c)
        ranges[t].colour.merge(transform_array(p.colour[c].data(), n, sel, colour_transform(tn)));
    });
    if (p.type.empty()) break;  // a single type: every particle was done
  }
  return ranges;
}

namespace {

// The user's bounds on the data's range. A bound given alone beyond the data (a minimum above
// their largest value) would turn the range over; the other end is then the bound moved by the
// data's width, so that every value takes the bound's end of the range, as the bound says.
void bound(ValueRange& range, std::optional<float> min, std::optional<float> max) {
  const float width = range.max > range.min ? range.max - range.min : 1.0f;
  if (min && !max && *min >= range.max) range.max = *min + width;
  if (max && !min && *max <= range.min) range.min = *max - width;
  if (min) range.min = *min;
  if (max) range.max = *max;
}

}  // namespace

std::vector<TypeRanges> choose_ranges(const std::vector<TypeRanges>& data,
                                      const std::vector<TypeNormalization>& types) {
  std::vector<TypeRanges> out = data;
  for (std::size_t t = 0; t < types.size(); ++t) {
    // A type with no countable value (say, every colour <= 0 under color_log) maps to 1.
    if (out[t].colour.empty()) out[t].colour = {0.0f, 0.0f};
    if (out[t].intensity.empty()) out[t].intensity = {0.0f, 0.0f};
    bound(out[t].colour, types[t].color_min, types[t].color_max);
    bound(out[t].intensity, types[t].intensity_min, types[t].intensity_max);
  }
  return out;
}

void apply_ranges(ParticleSet& p, const std::vector<TypeRanges>& ranges, const std::vector<TypeNormalization>& types) {
  const std::size_t n = p.size();
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t].as_read) continue;
    for_type(p, int(t), [&](auto sel) {
      normalize_array(p.intensity.data(), n, sel, ranges[t].intensity);
      for (int c = 0; c < colour_channels(p, types[t]); ++c)
        normalize_array(p.colour[c].data(), n, sel, ranges[t].colour);
    });
    if (p.type.empty()) break;
  }
}

NormalizedRanges normalize(ParticleSet& p, const std::vector<TypeNormalization>& types, const RangeReduction& reduce) {
  NormalizedRanges r;
  own(p.intensity);  // (normalised in place: a caller's arrays are not written)
  for (ParticleArray<float>& c : p.colour) own(c);
  r.data = transform_and_measure(p, types);
  if (reduce) reduce(r.data);
  r.used = choose_ranges(r.data, types);
  apply_ranges(p, r.used, types);
  return r;
}

namespace {

// Shortest text that reads back as the same float: a range copied into a .par is the range used.
std::string number(float v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string range_text(const ValueRange& data, const ValueRange& used, const char* transform) {
  const std::string found = data.empty() ? std::string("no value") + (*transform ? " above 0" : "") + " in the data"
                                         : number(data.min) + " to " + number(data.max) + transform + " in the data";
  const bool same = !data.empty() && data.min == used.min && data.max == used.max;
  // Data wholly outside the range used all take one end of it: one colour, maybe not the one meant.
  const bool outside = !data.empty() && used.min < used.max && (data.min >= used.max || data.max <= used.min);
  return found + (same ? "" : ", used " + number(used.min) + " to " + number(used.max)) +
         (outside ? std::string(" (the data lie at or beyond one end of the range used: every value takes its ") +
                        (data.min >= used.max ? "top" : "bottom") + ")"
                  : "");
}

}  // namespace

std::vector<std::string> range_lines(const NormalizedRanges& r, const std::vector<TypeNormalization>& types,
                                     const std::vector<std::string>& type_names) {
  std::vector<std::string> out;
  for (std::size_t t = 0; t < r.data.size() && t < types.size(); ++t) {
    const TypeNormalization& tn = types[t];
    const char* colour_transform = tn.color_log ? " (log10)" : tn.color_asinh ? " (asinh)" : "";
    const std::string name = t < type_names.size() && !type_names[t].empty() ? " (" + type_names[t] + ")" : "";
    out.push_back("type " + std::to_string(t) + name + ": colour " +
                  range_text(r.data[t].colour, r.used[t].colour, colour_transform) + "; intensity " +
                  range_text(r.data[t].intensity, r.used[t].intensity, tn.intensity_log ? " (log10)" : ""));
  }
  return out;
}

std::string values_below_range(const NormalizedRanges& r) {
  std::string out;
  for (std::size_t t = 0; t < r.data.size() && t < r.used.size(); ++t) {
    const std::string n = std::to_string(t);
    const ValueRange &data = r.data[t].intensity, &used = r.used[t].intensity;
    if (data.empty() || !(used.min < used.max) || data.max > used.min) continue;
    out += std::string(out.empty() ? "" : "; ") + "every intensity of type " + n + " lies at or below the bottom of " +
           "its range, " + number(used.min) + " (intensity_min" + n + "; the data reach " + number(data.max) +
           "), so all are drawn with intensity 0, which no brightness lifts: lower intensity_min" + n +
           " or leave it out";
  }
  return out;
}

std::string range_comments(const NormalizedRanges& r) {
  std::string out =
      "# The ranges found in the data (after log or asinh), per type. Set these keys to keep one\n"
      "# colour scale over the frames of a movie, where each snapshot has its own range:\n";
  for (std::size_t t = 0; t < r.data.size(); ++t) {
    const std::string n = std::to_string(t);
    const TypeRanges& d = r.data[t];
    auto line = [&](const std::string& key, const ValueRange& v, bool max) {
      out += "#   " + key + n + " = " + (v.empty() ? std::string("(no value)") : number(max ? v.max : v.min)) + "\n";
    };
    line("color_min", d.colour, false);
    line("color_max", d.colour, true);
    line("intensity_min", d.intensity, false);
    line("intensity_max", d.intensity, true);
  }
  return out;
}

}  // namespace splotch
