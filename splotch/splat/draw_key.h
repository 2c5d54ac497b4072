// The draw order of a_eq_e = FALSE (docs/design.md section 4, "Order"): which value orders the splats,
// and the key that orders them, written once for the host's sort stage (splotch/stages/sort.h)
// and the GPU's geometry (cuda/device_particles.h).
#pragma once

#include <cstdint>
#include <cstring>

#include "splotch/splat/splat_maths.h"

namespace splotch {

// sort_type 1 ascending z' (farthest first), 2 descending red emission, 3 ascending red emission,
// 4 descending radius, 0 file order.
enum class SortOrder { none = 0, depth = 1, red_descending = 2, red_ascending = 3, radius_descending = 4 };

// A float as an unsigned integer of the same order (-0 and +0 equal).
SPLOTCH_HOST_DEVICE inline std::uint32_t order_bits(float v) {
  v += 0.0f;  // -0 becomes +0: the two are equal keys
#ifdef __CUDA_ARCH__
  const std::uint32_t b = __float_as_uint(v);
#else
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
#endif
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

// The key of a splat with z' `depth`, red emission `red` and radius `radius` (not for
// SortOrder::none, whose key is the splat's place among those in view).
SPLOTCH_HOST_DEVICE inline std::uint32_t draw_key(SortOrder order, float depth, float red, float radius) {
  switch (order) {
    case SortOrder::depth: return order_bits(depth);
    case SortOrder::red_descending: return order_bits(-red);
    case SortOrder::red_ascending: return order_bits(red);
    default: return order_bits(-radius);
  }
}

}  // namespace splotch
