// Orders the splats by the image tile that holds their centre (tiles of `tile_size` pixels, in
// row-major tile order; centres off the image count for the nearest tile), keeping their order
// within a tile. Afterwards the splats a tile needs lie close together in memory, so rendering a
// tile reads a compact region instead of gathering from arrays much larger than the cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "splotch/splat/splat_maths.h"
#include "splotch/stages/splats.h"
#include "splotch/util/simd.h"

namespace splotch {

// The tile (row-major index) holding a splat centre; off-image centres count for the nearest one.
inline int centre_tile(float x, float y, int tile_size, int tiles_x, int tiles_y) {
  const int px = int(std::min(std::max(x, 0.0f), coordinate_limit)),
            py = int(std::min(std::max(y, 0.0f), coordinate_limit));
  return std::min(py / tile_size, tiles_y - 1) * tiles_x + std::min(px / tile_size, tiles_x - 1);
}

// The same for one coordinate (one float or a vector of lanes): the tile column (of x, with the
// image width and the tile width) or row holding it, without an integer division. The pixel is
// clamped to the image first, which changes no tile and keeps it small enough for
// simd::divide(). `inverse_tile` is 1.0f / tile.
template <class F>
auto centre_tile_along(F v, int resolution, int tile, float inverse_tile, int tiles) {
  using namespace simd;
  const auto pixel = clamp(truncate(min(max(v, F{}), F{} + coordinate_limit)), 0, resolution - 1);
  return clamp(divide(pixel, tile, inverse_tile), 0, tiles - 1);
}

// Returns where each tile's splats start (tiles + 1 entries). `scratch` serves as scratch space
// (pass an array nobody needs any more, of any size: memory touched before costs no page faults)
// and holds one of the same kind afterwards, for the next stage to reuse.
std::vector<std::size_t> order_by_tile(Splats& splats, int tile_size, int width, int height,
                                       ParticleArray<float>& scratch);
inline std::vector<std::size_t> order_by_tile(Splats& splats, int tile_size, int width, int height) {
  ParticleArray<float> scratch;
  return order_by_tile(splats, tile_size, width, height, scratch);
}

}  // namespace splotch
