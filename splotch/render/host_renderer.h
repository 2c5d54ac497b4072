// The host renderer (docs/design.md section 4, "Render"): every splat adds a Gaussian
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

#include "io/image.h"
#include "io/progress.h"
#include "splotch/splat/splat_view.h"
#include "splotch/stages/splats.h"

namespace splotch {

// The splats as plain arrays, for a renderer (splotch/splat/splat_view.h).
SplatView view_of(const Splats& splats);

// Renders into `image`: with a_eq_e the splats are added to what it holds; otherwise they are
// composited over it, in order.
void render_host(const SplatView& splats, const RenderOptions& options, Image& image,
                 const ProgressCallback& progress = {});

}  // namespace splotch
