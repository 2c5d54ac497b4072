// The GPU's map drawer (docs/maps.md): draw_map_host's sums (splotch/render/host_map.h) drawn on a
// GPU from the same splats and the same per-pixel arithmetic (splotch/splat/map_kernel.h).
//
// A warp takes a particle, its lanes the pixels of its support. The sums are 64-bit integers, in
// fixed point at a scale per plane that the splats' weights bound (no pixel can exceed the sum of
// |w| times a splat's largest share of one pixel): integer additions give the same map whatever
// the order the GPU runs them in, and the rounding of each contribution is 2^-63 of that bound,
// far below the float the host adds (tests/gpu/test_map_gpu.cc: within 1e-6 of the host's).
#pragma once

#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"

namespace splotch {

// Adds `splats` to `sums` on GPU `device`. Throws std::runtime_error where the GPU fails, lacks the
// memory, or the weights have no finite bound; the caller draws on the host then.
void draw_map_cuda(const MapSplats& splats, MapMode mode, const MapKernelTables& tables, MapSums& sums, int device);

}  // namespace splotch
