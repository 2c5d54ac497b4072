#include "splotch/tile_order.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

namespace splotch {
namespace {

// Where the splats go: the tile of each, and for each thread (which takes one contiguous share of
// the splats, as below) the position of its first splat in each tile. Positions follow
// (tile, thread, index), so the splats keep their order within a tile whatever the thread count.
struct Placement {
  int threads = 1, tiles = 1;
  ParticleArray<std::uint32_t> tile;   // [splat]
  std::vector<std::size_t> first;      // [thread][tile]
  std::vector<std::size_t> tile_start; // [tile + 1]

  void share(int thread, std::size_t n, std::size_t& lo, std::size_t& hi) const {
    lo = n * std::size_t(thread) / std::size_t(threads);
    hi = n * std::size_t(thread + 1) / std::size_t(threads);
  }
};

Placement place(const Splats& s, int tile_size, int nx, int ny) {
  Placement p;
  p.threads = omp_get_max_threads();
  p.tiles = nx * ny;
  const std::size_t n = s.size(), tiles = std::size_t(p.tiles);
  p.tile.resize(n);
  p.first.assign(std::size_t(p.threads) * tiles, 0);
#pragma omp parallel num_threads(p.threads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    p.share(t, n, lo, hi);
    std::size_t* count = &p.first[std::size_t(t) * tiles];
    for (std::size_t i = lo; i < hi; ++i) {
      const int tile = centre_tile(s.x[i], s.y[i], tile_size, nx, ny);
      p.tile[i] = std::uint32_t(tile);
      ++count[tile];
    }
  }
  p.tile_start.assign(tiles + 1, 0);
  std::size_t total = 0;
  for (std::size_t tile = 0; tile < tiles; ++tile) {
    p.tile_start[tile] = total;
    for (int t = 0; t < p.threads; ++t) {
      std::size_t& c = p.first[std::size_t(t) * tiles + tile];
      const std::size_t here = c;
      c = total;
      total += here;
    }
  }
  p.tile_start[tiles] = total;
  return p;
}

// Moves every element of v to its place in `scratch`, then swaps the two: the old array becomes
// the scratch space of the next one, so the whole reordering allocates one extra array. Each
// thread gathers its elements per tile in a cache line's worth of buffer and writes whole runs:
// scattered single writes into a thousand places at once would each miss the cache.
template <class T>
void scatter(ParticleArray<T>& v, const Placement& p, ParticleArray<T>& scratch) {
  if (v.empty()) return;
  constexpr int run = 64 / int(sizeof(T));
  const std::size_t n = v.size(), tiles = std::size_t(p.tiles);
  scratch.resize(n);
  T* out = scratch.data();
#pragma omp parallel num_threads(p.threads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    p.share(t, n, lo, hi);
    std::vector<std::size_t> next(p.first.begin() + std::ptrdiff_t(std::size_t(t) * tiles),
                                  p.first.begin() + std::ptrdiff_t(std::size_t(t + 1) * tiles));
    std::unique_ptr<T[]> buffer(new T[tiles * std::size_t(run)]);
    std::vector<std::uint8_t> filled(tiles, 0);
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint32_t tile = p.tile[i];
      T* b = buffer.get() + std::size_t(tile) * std::size_t(run);
      b[filled[tile]++] = v[i];
      if (filled[tile] == run) {
        std::memcpy(out + next[tile], b, sizeof(T) * std::size_t(run));
        next[tile] += std::size_t(run);
        filled[tile] = 0;
      }
    }
    for (std::size_t tile = 0; tile < tiles; ++tile)
      std::memcpy(out + next[tile], buffer.get() + tile * std::size_t(run), sizeof(T) * filled[tile]);
  }
  v.swap(scratch);
}

}  // namespace

std::vector<std::size_t> order_by_tile(Splats& s, int tile_size, int width, int height,
                                       ParticleArray<float>& scratch) {
  const int nx = (width + tile_size - 1) / tile_size, ny = (height + tile_size - 1) / tile_size;
  Placement placement = place(s, tile_size, nx, ny);
  for (auto* v : {&s.x, &s.y, &s.depth, &s.radius, &s.intensity, &s.colour[0], &s.colour[1], &s.colour[2]})
    scatter(*v, placement, scratch);
  ParticleArray<std::uint32_t> key_scratch;
  scatter(s.draw_key, placement, key_scratch);
  ParticleArray<std::uint8_t> type_scratch;
  scatter(s.type, placement, type_scratch);
  return std::move(placement.tile_start);
}

}  // namespace splotch
