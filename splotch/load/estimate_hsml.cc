#include "splotch/load/estimate_hsml.h"

#include <algorithm>

#include "errors/user_error.h"
#include "params/number_text.h"
#include "splotch/load/knn_hsml.h"
#include "splotch/stages/camera_placement.h"

namespace splotch {
namespace {

// Render type n's particles: [first, second).
std::pair<std::size_t, std::size_t> type_range(const ParticleSet& p, std::size_t n) {
  if (p.type.empty()) return {0, n == 0 ? p.size() : 0};
  const auto begin = p.type.begin(), end = p.type.end();
  const std::size_t lo = std::size_t(std::find(begin, end, std::uint8_t(n)) - begin);
  const std::size_t hi =
      std::size_t(std::find_if(begin + std::ptrdiff_t(lo), end, [n](std::uint8_t t) { return t != n; }) - begin);
  return {lo, hi};
}

// Whether every value of [lo, hi) equals the first (threads share the work).
bool one_value(const float* v, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return false;
  const float first = v[lo];
  std::size_t other = 0;
#pragma omp parallel for schedule(static) reduction(+ : other)
  for (std::size_t i = lo; i < hi; ++i) other += v[i] != first;
  return other == 0;
}

}  // namespace

std::vector<bool> types_to_estimate(ParticleSet& p, const SnapshotRequest& input, bool alone,
                                    std::vector<std::string>& notes, std::vector<std::string>& warnings) {
  std::vector<bool> which(input.typed.types.size(), false);
  if (!has_particle_types(input.format)) return which;
  for (std::size_t n = 0; n < which.size(); ++n) {
    const RenderTypeRequest& r = input.typed.types[n];
    which[n] = r.size_estimate == SizeEstimate::knn;
    if (!r.estimate_if_constant) continue;
    const auto [lo, hi] = type_range(p, n);
    if (!one_value(p.hsml.data(), lo, hi)) continue;
    const std::string N = std::to_string(n), value = float_text(p.hsml[lo] / r.size.factor);
    // (a share's own count: the processes' shares differ, and one of them says it)
    const std::string what = "the file's " + r.size.label + " of type " + N + " is one value for all " +
                             std::to_string(hi - lo) +
                             (alone ? " particles of this process's share (" : " particles (") + value +
                             "): a softening or a placeholder, not SPH smoothing lengths";
    if (alone && !(p.hsml[lo] > 0))  // kept, every particle would be dropped as invalid
      throw UserError(what + ", and none is above 0; the estimate from neighbours needs one process: give size_fix" +
                      N + " for one length for all, or run it with one process");
    if (alone) {
      warnings.push_back(what +
                         "; they are drawn with it, as the estimate from neighbours needs one process (give "
                         "size_fix" +
                         N + " for another length, or size_label" + N + " = " + r.size.label +
                         " to keep this one without this warning)");
      continue;
    }
    std::fill(p.hsml.begin() + std::ptrdiff_t(lo), p.hsml.begin() + std::ptrdiff_t(hi), 1.0f);
    which[n] = true;
    notes.push_back(what + ", so they are estimated from the " + std::to_string(r.neighbours) +
                    " nearest neighbours instead (size_label" + N + " = " + r.size.label + " with size_estimate" + N +
                    " = none keeps the file's)");
  }
  return which;
}

void estimate_smoothing_lengths(ParticleSet& p, const SnapshotRequest& input, const std::vector<bool>& which,
                                std::vector<std::string>& notes, Console& console) {
  const double box = input.periodic ? p.box_size : 0.0;
  own(p.hsml);  // (a caller's array is left as it is)
  for (std::size_t n = 0; n < which.size(); ++n) {
    if (!which[n]) continue;
    const RenderTypeRequest& r = input.typed.types[n];
    const auto [lo, hi] = type_range(p, n);
    const std::size_t count = hi - lo;
    const float factor = r.size.factor;
    if (count == 0) continue;  // a type the snapshot has none of (warned about) or all dropped
    if (count == 1) {
      const BoundingBox all = bounding_box(p);
      const double extent = std::max({all.hi.x - all.lo.x, all.hi.y - all.lo.y, all.hi.z - all.lo.z});
      p.hsml[lo] = factor * float(extent > 0 ? extent / 100 : 1.0);
      notes.push_back("render type " + std::to_string(n) +
                      " has one particle, which has no neighbours: its smoothing " +
                      "length is 1/100 of the extent of all the particles, " + number_text(p.hsml[lo]) +
                      " (give size_fix" + std::to_string(n) + " for another)");
      continue;
    }
    const KnnHsmlResult result = knn_hsml(p.x.data() + lo, p.y.data() + lo, p.z.data() + lo, count, r.neighbours, box,
                                          p.hsml.data() + lo, console.progress("hsml " + std::to_string(n)));
    console.end_progress();
    if (factor != 1.0f)
      for (std::size_t i = lo; i < hi; ++i) p.hsml[i] *= factor;
    if (result.coincident > 0)
      console.warning(std::to_string(result.coincident) + " particles of render type " + std::to_string(n) +
                      " share their position with " + std::to_string(r.neighbours - 1) +
                      " or more others; they get the smallest non-zero smoothing length of the type");
  }
}

}  // namespace splotch
