// Tuning constants of the host renderer, each with the reason for its value.
#pragma once

namespace splotch {

// Side of a square image tile in pixels. A tile's three float planes (3 * 64 * 64 * 4 bytes =
// 48 KiB) stay in a core's L2 cache while the tile's splats are accumulated; smaller tiles put a
// medium-sized splat into more tile lists, larger ones leave too few tiles to balance 16 threads
// on an 800 x 800 image.
constexpr int host_tile_size = 64;

// How many splats ahead the render loop prefetches. The splats of a tile are scattered over the
// particle arrays (file order or sort order), so each one is a cache miss; this many in flight
// hides the memory latency behind the arithmetic of the current ones.
constexpr int host_prefetch_distance = 16;

}  // namespace splotch
