#include "splotch/stages/tile_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "splotch/util/bucket_sort.h"
#include "splotch/util/simd.h"

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

std::vector<std::size_t> order_by_tile(Splats& s, int tile_size, int width, int height, ParticleArray<float>& scratch) {
  const int nx = (width + tile_size - 1) / tile_size, ny = (height + tile_size - 1) / tile_size;
  // Each splat's tile first, in a vector pass (the tile is needed twice, and integer division is
  // slow); the sort then overwrites it with the splat's destination.
  const std::size_t n = s.size();
  ParticleArray<std::uint32_t> destination(n);
  {
    using namespace simd;
    const float inverse = 1.0f / float(tile_size);
    auto tile_of = [&](auto X, auto Y) {
      return centre_tile_along(Y, height, tile_size, inverse, ny) * nx +
             centre_tile_along(X, width, tile_size, inverse, nx);
    };
    const std::size_t groups = n / lanes;
    std::int32_t* key = reinterpret_cast<std::int32_t*>(destination.data());
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < groups; ++k)
      store_int(key + k * lanes, tile_of(load(&s.x[k * lanes]), load(&s.y[k * lanes])));
    for (std::size_t i = groups * lanes; i < n; ++i) key[i] = tile_of(s.x[i], s.y[i]);
  }
  const std::vector<std::size_t> tile_start = bucket_sort(
      n, nx * ny, [&](std::size_t i, auto visit) { visit(int(destination[i])); }, [](std::size_t) {},
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
