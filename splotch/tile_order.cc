#include "splotch/tile_order.h"

#include <algorithm>
#include <cstdint>

#include "splotch/bucket_sort.h"

namespace splotch {
namespace {

template <class T>
void scatter(std::vector<T>& v, const std::vector<std::uint32_t>& destination) {
  if (v.empty()) return;
  std::vector<T> out(v.size());
  const std::size_t n = v.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[destination[i]] = v[i];
  v.swap(out);
}

}  // namespace

void order_by_tile(Splats& s, int tile_size, int width, int height) {
  const int nx = (width + tile_size - 1) / tile_size, ny = (height + tile_size - 1) / tile_size;
  auto tile_of = [&](std::size_t i) {
    const int tx = std::min(int(std::min(std::max(s.x[i], 0.0f), 1.0e9f)) / tile_size, nx - 1);
    const int ty = std::min(int(std::min(std::max(s.y[i], 0.0f), 1.0e9f)) / tile_size, ny - 1);
    return ty * nx + tx;
  };
  std::vector<std::uint32_t> destination;
  bucket_sort(
      s.size(), nx * ny, [&](std::size_t i, auto visit) { visit(tile_of(i)); },
      [&](std::size_t total) { destination.resize(total); },
      [&](std::size_t i, std::size_t position) { destination[i] = std::uint32_t(position); });
  for (auto* v : {&s.x, &s.y, &s.depth, &s.radius, &s.intensity, &s.colour[0], &s.colour[1], &s.colour[2]})
    scatter(*v, destination);
  scatter(s.draw_key, destination);
  scatter(s.type, destination);
}

}  // namespace splotch
