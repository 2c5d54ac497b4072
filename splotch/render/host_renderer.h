// The host renderer (DESIGN.md section 4, "Render"): every splat adds a Gaussian
//   w(x, y) = exp(-((x - X)^2 + (y - Y)^2) / sigma^2),  sigma = 0.5 pi^(-1/6) r,
// over its footprint (R = 0.75 r; for each column x, the rows within sqrt(R^2 - (x - X)^2) of Y).
//   a_eq_e:  S += w e per channel (order-independent; 1 - exp(-S) comes in post-processing).
//   else:    P <- P exp(-w e) + q (1 - exp(-w e)),  q = e / (e + gray_absorption), in splat order.
//
// The image is cut into tiles; each splat is listed in the tiles its footprint touches (in splat
// order, then sorted by key where there are keys), and threads take whole tiles, accumulating in
// a private tile buffer that fits in cache. So no two threads write the same pixel, memory does
// not grow with the thread count, and the result does not depend on the number of threads. The
// splats are best ordered by tile first (splotch/stages/tile_order.h): a tile then reads a compact part
// of the arrays.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/image.h"
#include "io/progress.h"
#include "splotch/stages/splats.h"

namespace splotch {

// The splats as plain arrays (what the GPU path receives too).
struct SplatView {
  std::size_t n = 0;
  const float* x = nullptr;
  const float* y = nullptr;
  const float* radius = nullptr;
  const float* e[3] = {nullptr, nullptr, nullptr};
  // a_eq_e = FALSE: splats are composited in ascending key order, equal keys in array order;
  // null: in array order.
  const std::uint32_t* key = nullptr;
  // When the splats are ordered by the tile of their centre (order_by_tile with the tile size the
  // render uses and this image's size): where each tile's splats start. The renderer then lists
  // only the splats that reach beyond their own tile. Null: any order.
  const std::size_t* tile_start = nullptr;
};
SplatView view_of(const Splats& splats);

struct RenderOptions {
  bool a_eq_e = true;
  float gray_absorption = 0.2f;
  int tile_size = 0;  // pixels; 0: host_tile_size() of the image and thread count
};

// Renders into `image`: with a_eq_e the splats are added to what it holds; otherwise they are
// composited over it, in order.
void render_host(const SplatView& splats, const RenderOptions& options, Image& image,
                 const ProgressCallback& progress = {});

}  // namespace splotch
