#include "splotch/tile_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "splotch/bucket_sort.h"

namespace splotch {
namespace {

// Moves v[i] to position destination[i] of `scratch`, then swaps the two: the old array becomes
// the scratch space of the next one, so the whole reordering allocates one extra array.
template <class T>
void scatter(ParticleArray<T>& v, const ParticleArray<std::uint32_t>& destination, ParticleArray<T>& scratch) {
  if (v.empty()) return;
  const std::size_t n = v.size();
  scratch.resize(n);
  T* out = scratch.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[destination[i]] = v[i];
  v.swap(scratch);
}

}  // namespace

std::vector<std::size_t> order_by_tile(Splats& s, int tile_size, int width, int height,
                                       ParticleArray<float>& scratch) {
  const int nx = (width + tile_size - 1) / tile_size, ny = (height + tile_size - 1) / tile_size;
  ParticleArray<std::uint32_t> destination;
  const std::vector<std::size_t> tile_start = bucket_sort(
      s.size(), nx * ny, [&](std::size_t i, auto visit) { visit(centre_tile(s.x[i], s.y[i], tile_size, nx, ny)); },
      [&](std::size_t total) { destination.resize(total); },
      [&](std::size_t i, std::size_t position) { destination[i] = std::uint32_t(position); });
  for (auto* v : {&s.x, &s.y, &s.depth, &s.radius, &s.intensity, &s.colour[0], &s.colour[1], &s.colour[2]})
    scatter(*v, destination, scratch);
  ParticleArray<std::uint32_t> key_scratch;
  scatter(s.draw_key, destination, key_scratch);
  ParticleArray<std::uint8_t> type_scratch;
  scatter(s.type, destination, type_scratch);
  return tile_start;
}

}  // namespace splotch
