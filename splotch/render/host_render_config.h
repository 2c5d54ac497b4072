// Tuning constants of the host renderer, each with the reason for its value.
#pragma once

namespace splotch {

// Side of a square image tile in pixels: the largest of 64, 128, 256 that still leaves every
// thread at least host_tiles_per_thread tiles. Splats reaching into a neighbouring tile are set up
// once per tile they touch, so larger tiles mean less set-up (at 1e7 particles on 2048 x 2048 with
// two threads, 128 measured about 10% faster than 64 and 256 faster again), while enough tiles
// keep the threads evenly loaded (an 800 x 800 image in 16 tiles of 256 was slower). A tile's
// buffer, 3 channels x side x (side + 8) floats, is 0.8 MiB at 256: within a core's L2 cache.
constexpr int host_min_tile_size = 64, host_max_tile_size = 256;
constexpr int host_tiles_per_thread = 16;
inline int host_tile_size(int width, int height, int threads) {
  int side = host_max_tile_size;
  auto tiles = [&](int s) { return long((width + s - 1) / s) * long((height + s - 1) / s); };
  while (side > host_min_tile_size && tiles(side) < long(host_tiles_per_thread) * threads) side /= 2;
  return side;
}

// How many splats ahead the render loop prefetches. The splats of a tile are scattered over the
// particle arrays (file order or sort order), so each one is a cache miss; this many in flight
// hides the memory latency behind the arithmetic of the current ones.
constexpr int host_prefetch_distance = 16;

}  // namespace splotch
