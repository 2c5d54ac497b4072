#include "splotch/tile_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "splotch/bucket_sort.h"

namespace splotch {
namespace {

// Moves v[i] to v[destination[i]] through `scratch` (room for v.size() elements of type T), and
// copies back: one buffer for every array, never zero-filled, instead of a fresh array each.
template <class T>
void scatter(std::vector<T>& v, const std::vector<std::uint32_t>& destination, unsigned char* scratch) {
  if (v.empty()) return;
  const std::size_t n = v.size();
  T* out = reinterpret_cast<T*>(scratch);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[destination[i]] = v[i];
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) v[i] = out[i];
}

}  // namespace

std::vector<std::size_t> order_by_tile(Splats& s, int tile_size, int width, int height) {
  const int nx = (width + tile_size - 1) / tile_size, ny = (height + tile_size - 1) / tile_size;
  std::vector<std::uint32_t> destination;
  const std::vector<std::size_t> tile_start = bucket_sort(
      s.size(), nx * ny, [&](std::size_t i, auto visit) { visit(centre_tile(s.x[i], s.y[i], tile_size, nx, ny)); },
      [&](std::size_t total) { destination.resize(total); },
      [&](std::size_t i, std::size_t position) { destination[i] = std::uint32_t(position); });
  std::unique_ptr<unsigned char[]> scratch(new unsigned char[s.size() * 4]);
  for (auto* v : {&s.x, &s.y, &s.depth, &s.radius, &s.intensity, &s.colour[0], &s.colour[1], &s.colour[2]})
    scatter(*v, destination, scratch.get());
  scatter(s.draw_key, destination, scratch.get());
  scatter(s.type, destination, scratch.get());
  return tile_start;
}

}  // namespace splotch
