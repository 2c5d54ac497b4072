// The host's map drawer: each particle's kernel integrated over the pixels it covers (column,
// average; splotch/splat/map_kernel.h: the corner table where a pixel is wider than H/8, the
// midpoint rule where narrower) or sampled at their centres (slice), added into the map's sums.
//
// The map is cut into strips of rows; each particle is listed in the strips its support touches,
// and a thread takes a whole strip, so no two threads add to one pixel and the sums do not depend
// on the number of threads (each pixel adds its particles in their order).
#pragma once

#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"

namespace splotch {

void draw_map_host(const MapSplats& splats, MapMode mode, const KernelTableView& kernel, MapSums& sums);

}  // namespace splotch
