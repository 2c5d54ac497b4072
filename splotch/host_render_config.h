// Tuning constants of the host renderer, each with the reason for its value.
#pragma once

namespace splotch {

// Side of a square image tile in pixels. A tile's buffer (3 channels x 128 columns x 136 rows x 4
// bytes = 209 KiB) stays in a core's L2 cache while the tile's splats are accumulated. Splats
// reaching into a neighbouring tile are set up once per tile they touch, so larger tiles mean
// less set-up: at 1e7 particles on 2048 x 2048, 128 measured about 10% faster than 64 (and 32 was
// slower still). An 800 x 800 image still has 49 tiles to share among the threads.
constexpr int host_tile_size = 128;

// How many splats ahead the render loop prefetches. The splats of a tile are scattered over the
// particle arrays (file order or sort order), so each one is a cache miss; this many in flight
// hides the memory latency behind the arithmetic of the current ones.
constexpr int host_prefetch_distance = 16;

}  // namespace splotch
