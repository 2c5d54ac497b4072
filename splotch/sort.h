// Sort stage (DESIGN.md section 4): with a_eq_e = FALSE particles are composited in order, so the
// order is part of the picture. sort_type 1: ascending z' (farthest first), 2: descending red
// emission, 3: ascending red emission, 4: descending radius, 0: file order. The sort is stable,
// so equal keys keep file order and the picture does not depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "splotch/splats.h"

namespace splotch {

enum class SortOrder { none = 0, depth = 1, red_descending = 2, red_ascending = 3, radius_descending = 4 };

// The order as a permutation: element k of the result is the index of the k-th splat to draw.
std::vector<std::uint32_t> sort_permutation(const Splats& splats, SortOrder order);

// Rearranges the splats into that order (depth is released afterwards: nothing needs it later).
void sort_splats(Splats& splats, SortOrder order);

// Stable ascending order of the keys, by radix sort (exposed for tests).
std::vector<std::uint32_t> stable_order(const std::vector<float>& keys);

}  // namespace splotch
