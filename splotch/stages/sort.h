// Sort stage (docs/design.md section 4): with a_eq_e = FALSE particles are composited in order, so the
// order is part of the picture. Each splat gets a draw key; splats are drawn in ascending key
// order: sort_type 1 ascending z' (farthest first), 2 descending red emission, 3 ascending red
// emission, 4 descending radius, 0 file order.
//
// The stage does not move the particles: the renderer orders each image tile's splats by key
// (as tile-based Gaussian splatting does), which for every pixel gives the same order as one
// global sort, at a fraction of the cost and with the particles kept in tile order for the
// cache. Splats with equal keys are drawn in the order of the arrays, the same in every tile, so
// the picture does not depend on the thread count. (The original sorts with std::sort, which
// leaves equal keys in no particular order.)
#pragma once

#include <cstdint>
#include <vector>

#include "splotch/splat/draw_key.h"
#include "splotch/stages/splats.h"

namespace splotch {

// Fills splats.draw_key (for a_eq_e = FALSE) and releases the depth array, which nothing needs
// afterwards. SortOrder::none keys by file position.
void assign_draw_keys(Splats& splats, SortOrder order);

}  // namespace splotch
