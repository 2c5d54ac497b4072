// Orders the splats by the image tile that holds their centre (tiles of `tile_size` pixels, in
// row-major tile order; centres off the image count for the nearest tile), keeping their order
// within a tile. Afterwards the splats a tile needs lie close together in memory, so rendering a
// tile reads a compact region instead of gathering from arrays much larger than the cache.
#pragma once

#include "splotch/splats.h"

namespace splotch {

void order_by_tile(Splats& splats, int tile_size, int width, int height);

}  // namespace splotch
