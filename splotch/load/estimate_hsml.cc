#include "splotch/load/estimate_hsml.h"

#include <algorithm>

#include "params/user_error.h"
#include "splotch/load/knn_hsml.h"

namespace splotch {

bool needs_hsml_estimate(const SnapshotRequest& input) {
  if (!has_particle_types(input.format)) return false;
  return std::any_of(input.typed.types.begin(), input.typed.types.end(),
                     [](const RenderTypeRequest& r) { return r.size_estimate == SizeEstimate::knn; });
}

void estimate_smoothing_lengths(ParticleSet& p, const SnapshotRequest& input, Console& console) {
  const double box = input.periodic ? p.box_size : 0.0;
  for (std::size_t n = 0; n < input.typed.types.size(); ++n) {
    const RenderTypeRequest& r = input.typed.types[n];
    if (r.size_estimate != SizeEstimate::knn) continue;
    // This type's particles: [lo, hi).
    std::size_t lo = 0, hi = p.size();
    if (!p.type.empty()) {
      const auto begin = p.type.begin(), end = p.type.end();
      lo = std::size_t(std::find(begin, end, std::uint8_t(n)) - begin);
      hi = std::size_t(std::find_if(begin + std::ptrdiff_t(lo), end, [n](std::uint8_t t) { return t != n; }) - begin);
    }
    const std::size_t count = hi - lo;
    if (count < 2)
      throw UserError("size_estimate" + std::to_string(n) + " = knn needs at least 2 particles of render type " +
                      std::to_string(n) + "; '" + input.path + "' gives " + std::to_string(count) + ": give size_fix" +
                      std::to_string(n) + " instead");
    const KnnHsmlResult result = knn_hsml(p.x.data() + lo, p.y.data() + lo, p.z.data() + lo, count, r.neighbours, box,
                                          p.hsml.data() + lo, console.progress("hsml " + std::to_string(n)));
    console.end_progress();
    const float factor = r.size.factor;
    if (factor != 1.0f)
      for (std::size_t i = lo; i < hi; ++i) p.hsml[i] *= factor;
    if (result.coincident > 0)
      console.warning(std::to_string(result.coincident) + " particles of render type " + std::to_string(n) +
                      " share their position with " + std::to_string(r.neighbours - 1) +
                      " or more others; they get the smallest non-zero smoothing length of the type");
  }
}

}  // namespace splotch
