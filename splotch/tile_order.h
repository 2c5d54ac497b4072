// Orders the splats by the image tile that holds their centre (tiles of `tile_size` pixels, in
// row-major tile order; centres off the image count for the nearest tile), keeping their order
// within a tile. Afterwards the splats a tile needs lie close together in memory, so rendering a
// tile reads a compact region instead of gathering from arrays much larger than the cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "splotch/splats.h"

namespace splotch {

// The tile (row-major index) holding a splat centre; off-image centres count for the nearest one.
inline int centre_tile(float x, float y, int tile_size, int tiles_x, int tiles_y) {
  const int px = int(std::min(std::max(x, 0.0f), 1.0e9f)), py = int(std::min(std::max(y, 0.0f), 1.0e9f));
  return std::min(py / tile_size, tiles_y - 1) * tiles_x + std::min(px / tile_size, tiles_x - 1);
}

// Returns where each tile's splats start (tiles + 1 entries). `spare`, an array nobody needs any
// more (of any size), serves as scratch space: memory that was touched before costs no page faults.
std::vector<std::size_t> order_by_tile(Splats& splats, int tile_size, int width, int height,
                                       ParticleArray<float> spare = {});

}  // namespace splotch
