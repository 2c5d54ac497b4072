// Normalize stage (docs/design.md section 4): per particle type, colour values and intensities are
// optionally taken to log10 (non-positive values become -38 and do not count in the range) or
// asinh, then mapped from their range [min, max] onto [0, 1]:
//     v -> (clamp(v, min, max) - min) / (max - min),   v -> 1 when max == min.
// The range is the data range of the transformed values over all particles of the type, unless
// the user gave color_min/max or intensity_min/max. Vector colours share one range over all three
// components. The stage is split in two (transform + range, then apply) so that an MPI run can
// reduce the ranges over ranks in between.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/particle_set.h"

namespace splotch {

struct TypeNormalization {
  bool color_log = false, color_asinh = false, intensity_log = false;
  bool vector_colour = false;
  // A map's values (map = column | average | slice): measured, but kept as read.
  bool as_read = false;
  std::optional<float> color_min, color_max, intensity_min, intensity_max;
};

// A value range; empty (min > max) until a value is seen.
struct ValueRange {
  float min = 3.4e38f, max = -3.4e38f;
  bool empty() const { return min > max; }
  void include(float v) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  void merge(const ValueRange& o) {
    if (o.min < min) min = o.min;
    if (o.max > max) max = o.max;
  }
};

struct TypeRanges {
  ValueRange colour, intensity;
};

// Applies log/asinh in place and returns the data range of each type's transformed values.
std::vector<TypeRanges> transform_and_measure(ParticleSet& particles, const std::vector<TypeNormalization>& types);

// Replaces data ranges with the user's bounds where given; returns the ranges that will be used.
std::vector<TypeRanges> choose_ranges(const std::vector<TypeRanges>& data, const std::vector<TypeNormalization>& types);

// Maps every value onto [0, 1] with the chosen ranges.
void apply_ranges(ParticleSet& particles, const std::vector<TypeRanges>& ranges,
                  const std::vector<TypeNormalization>& types);

// What a normalisation found and did, per type: the data ranges (after log/asinh, all processes')
// and the ranges used (the user's bounds where given).
struct NormalizedRanges {
  std::vector<TypeRanges> data, used;
};

// All three steps. `reduce`, when given, turns this process's data ranges into those of all
// processes (an MPI run) before the user's bounds apply.
using RangeReduction = std::function<void(std::vector<TypeRanges>& ranges)>;
NormalizedRanges normalize(ParticleSet& particles, const std::vector<TypeNormalization>& types,
                           const RangeReduction& reduce = {});

// The ranges for a user, as the original's "From data" lines: per type, one line of the report
// ("type 0: colour 0.15 to 6.3 (log10) in the data, used 0.1 to 6; intensity ...") ...
// `type_names[t]`, where given, follows the type's number ("type 1 (file type 4): ...").
std::vector<std::string> range_lines(const NormalizedRanges& ranges, const std::vector<TypeNormalization>& types,
                                     const std::vector<std::string>& type_names = {});
// Why a picture is black that no brightness can help: the types whose every intensity lies at or
// below the bottom of the range used (a given intensity_minN above the data), drawn with intensity
// 0; "" when there are none.
std::string values_below_range(const NormalizedRanges& ranges);
// ... and the keys that fix them, as comments for used.par: a movie whose frames must share one
// colour scale sets color_min0 and the others to these values.
std::string range_comments(const NormalizedRanges& ranges);

}  // namespace splotch
