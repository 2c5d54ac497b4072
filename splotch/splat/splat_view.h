// The splat room: what every renderer (the host's, splotch/render/; the GPU's, cuda/) takes and
// shares. This header is the renderer contract: the splats as plain arrays and the rules of a
// render, nothing else (no stage, no Settings), so that a renderer depends on no room above it.
// splat_maths.h holds the arithmetic both must do alike; draw_order_chunks.h cuts the splats for
// a renderer that composites chunk after chunk.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace splotch {

// The splats as plain arrays.
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

struct RenderOptions {
  bool a_eq_e = true;
  float gray_absorption = 0.2f;
  int tile_size = 0;  // pixels, the host renderer's tiles; 0: host_tile_size() of the image and thread count
  // Set while drawing: the picture is no longer wanted (a browser's view superseded, its browser
  // gone); the host renderer leaves the tiles it has not begun, and the caller drops the picture.
  const std::atomic<bool>* stop = nullptr;
};

}  // namespace splotch
