#include "splotch/host_renderer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <omp.h>
#include <vector>

#include "splotch/fast_exp.h"
#include "splotch/geometry.h"
#include "splotch/host_render_config.h"

namespace splotch {
namespace {

const float h2sigma = float(0.5 * std::pow(3.14159265358979323846, -1.0 / 6.0));
constexpr int T = host_tile_size;

struct TileGrid {
  int xres, yres, nx, ny;
  TileGrid(int w, int h) : xres(w), yres(h), nx((w + T - 1) / T), ny((h + T - 1) / T) {}
  int count() const { return nx * ny; }
};

// The tiles a splat touches: its footprint's bounding box in tile units.
struct TileSpan {
  int tx0, tx1, ty0, ty1;  // inclusive
};
inline TileSpan tile_span(const Footprint& f) { return {f.x_lo / T, (f.x_hi - 1) / T, f.y_lo / T, (f.y_hi - 1) / T}; }

// For each tile, the indices of the splats touching it, in splat order.
struct TileLists {
  std::vector<std::size_t> start;  // [tile] .. [tile + 1] in items
  std::vector<std::uint32_t> items;
};

// Calls visit(tile) for every tile of splat i; returns false for a splat off the image.
template <class Visit>
inline void for_each_tile(const SplatView& s, std::size_t i, const TileGrid& g, Visit visit) {
  const Footprint f = footprint(s.x[i], s.y[i], s.radius[i], g.xres, g.yres);
  if (f.empty()) return;
  const TileSpan t = tile_span(f);
  for (int ty = t.ty0; ty <= t.ty1; ++ty)
    for (int tx = t.tx0; tx <= t.tx1; ++tx) visit(ty * g.nx + tx);
}

TileLists bin_splats(const SplatView& s, const TileGrid& g) {
  const int ntiles = g.count();
  const int nthreads = omp_get_max_threads();
  // counts[thread][tile]; each thread takes one contiguous share of the splats, so concatenating
  // the threads' lists of a tile keeps the splat order.
  std::vector<std::size_t> counts(std::size_t(nthreads) * std::size_t(ntiles), 0);
  auto share = [&](int t, std::size_t& lo, std::size_t& hi) {
    lo = s.n * std::size_t(t) / std::size_t(nthreads);
    hi = s.n * std::size_t(t + 1) / std::size_t(nthreads);
  };
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    share(t, lo, hi);
    std::size_t* mine = &counts[std::size_t(t) * std::size_t(ntiles)];
    for (std::size_t i = lo; i < hi; ++i) for_each_tile(s, i, g, [&](int tile) { ++mine[tile]; });
  }
  TileLists lists;
  lists.start.assign(std::size_t(ntiles) + 1, 0);
  std::size_t total = 0;
  for (int tile = 0; tile < ntiles; ++tile) {
    lists.start[std::size_t(tile)] = total;
    for (int t = 0; t < nthreads; ++t) {
      std::size_t& c = counts[std::size_t(t) * std::size_t(ntiles) + std::size_t(tile)];
      std::size_t here = c;
      c = total;  // becomes this thread's write position in the tile's list
      total += here;
    }
  }
  lists.start[std::size_t(ntiles)] = total;
  lists.items.resize(total);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    share(t, lo, hi);
    std::size_t* next = &counts[std::size_t(t) * std::size_t(ntiles)];
    for (std::size_t i = lo; i < hi; ++i)
      for_each_tile(s, i, g, [&](int tile) { lists.items[next[tile]++] = std::uint32_t(i); });
  }
  return lists;
}

// A tile's accumulation buffer: three planes, column-major (pixel (lx, ly) at lx * T + ly), so
// that the rows of one column of a footprint are contiguous and the inner loop vectorises.
struct TileBuffer {
  int x0, y0, w, h;
  std::vector<float> plane[3];
  std::vector<float> row_weight;  // exp(-(y - Y)^2 / sigma^2) for the rows of the current splat
  TileBuffer() {
    for (auto& p : plane) p.resize(T * T);
    row_weight.resize(T);
  }
  void load(const Image& image, int tx, int ty) {
    x0 = tx * T;
    y0 = ty * T;
    w = std::min(T, image.width - x0);
    h = std::min(T, image.height - y0);
    for (int ly = 0; ly < h; ++ly)
      for (int lx = 0; lx < w; ++lx) {
        const float* px = image.pixel(x0 + lx, y0 + ly);
        for (int c = 0; c < 3; ++c) plane[c][lx * T + ly] = px[c];
      }
  }
  void store(Image& image) const {
    for (int ly = 0; ly < h; ++ly)
      for (int lx = 0; lx < w; ++lx) {
        float* px = image.pixel(x0 + lx, y0 + ly);
        for (int c = 0; c < 3; ++c) px[c] = plane[c][lx * T + ly];
      }
  }
};

// The part of a splat's footprint inside the tile, with the quantities every column needs.
struct ClippedSplat {
  float X, Y, R2, inv_sigma2;
  int x_lo, x_hi, y_lo, y_hi;
};

inline bool clip(const SplatView& s, std::size_t i, const TileBuffer& b, ClippedSplat& c) {
  c.X = s.x[i];
  c.Y = s.y[i];
  const float r = s.radius[i];
  const Footprint f = footprint(c.X, c.Y, r, b.x0 + b.w, b.y0 + b.h);
  c.x_lo = std::max(f.x_lo, b.x0);
  c.x_hi = f.x_hi;
  c.y_lo = std::max(f.y_lo, b.y0);
  c.y_hi = f.y_hi;
  if (c.x_lo >= c.x_hi || c.y_lo >= c.y_hi) return false;
  const float R = 0.75f * r, sigma = h2sigma * r;
  c.R2 = R * R;
  c.inv_sigma2 = 1.0f / (sigma * sigma);
  return true;
}

// The rows [lo, hi) of column x inside the splat's disc.
inline void column_rows(const ClippedSplat& c, float dx2, int& lo, int& hi) {
  const float dy = std::sqrt(std::max(c.R2 - dx2, 0.0f));
  lo = std::max(c.y_lo, truncate_to_int(c.Y - dy + 1.0f));
  hi = std::min(c.y_hi, truncate_to_int(c.Y + dy + 1.0f));
}

inline void fill_row_weights(const ClippedSplat& c, float* weight) {
  const int n = c.y_hi - c.y_lo;
  const float y0 = float(c.y_lo) - c.Y;
#pragma omp simd
  for (int k = 0; k < n; ++k) {
    const float dy = y0 + float(k);
    weight[k] = fast_exp(-dy * dy * c.inv_sigma2);
  }
}

void add_splat(const SplatView& s, std::size_t i, TileBuffer& b) {
  ClippedSplat c;
  if (!clip(s, i, b, c)) return;
  fill_row_weights(c, b.row_weight.data());
  const float e0 = s.e[0][i], e1 = s.e[1][i], e2 = s.e[2][i];
  for (int x = c.x_lo; x < c.x_hi; ++x) {
    const float dx = float(x) - c.X, dx2 = dx * dx;
    int lo, hi;
    column_rows(c, dx2, lo, hi);
    if (lo >= hi) continue;
    const float wx = fast_exp(-dx2 * c.inv_sigma2);
    const float a0 = wx * e0, a1 = wx * e1, a2 = wx * e2;
    const std::ptrdiff_t col = std::ptrdiff_t(x - b.x0) * T - b.y0;
    float* p0 = b.plane[0].data() + col;
    float* p1 = b.plane[1].data() + col;
    float* p2 = b.plane[2].data() + col;
    const float* wy = b.row_weight.data() - c.y_lo;
#pragma omp simd
    for (int y = lo; y < hi; ++y) {
      p0[y] += wy[y] * a0;
      p1[y] += wy[y] * a1;
      p2[y] += wy[y] * a2;
    }
  }
}

inline float absorption_colour(float e, float gray) {
  const float d = e + gray;
  return d != 0.0f ? e / d : 0.0f;
}

void composite_splat(const SplatView& s, std::size_t i, TileBuffer& b, float gray) {
  ClippedSplat c;
  if (!clip(s, i, b, c)) return;
  fill_row_weights(c, b.row_weight.data());
  const float e0 = s.e[0][i], e1 = s.e[1][i], e2 = s.e[2][i];
  const float q0 = absorption_colour(e0, gray), q1 = absorption_colour(e1, gray), q2 = absorption_colour(e2, gray);
  for (int x = c.x_lo; x < c.x_hi; ++x) {
    const float dx = float(x) - c.X, dx2 = dx * dx;
    int lo, hi;
    column_rows(c, dx2, lo, hi);
    if (lo >= hi) continue;
    const float wx = fast_exp(-dx2 * c.inv_sigma2);
    const float a0 = wx * e0, a1 = wx * e1, a2 = wx * e2;
    const std::ptrdiff_t col = std::ptrdiff_t(x - b.x0) * T - b.y0;
    float* p0 = b.plane[0].data() + col;
    float* p1 = b.plane[1].data() + col;
    float* p2 = b.plane[2].data() + col;
    const float* wy = b.row_weight.data() - c.y_lo;
#pragma omp simd
    for (int y = lo; y < hi; ++y) {
      // P <- P exp(-w e) + q (1 - exp(-w e)), written as q + (P - q) exp(-w e)
      p0[y] = q0 + (p0[y] - q0) * fast_exp(-wy[y] * a0);
      p1[y] = q1 + (p1[y] - q1) * fast_exp(-wy[y] * a1);
      p2[y] = q2 + (p2[y] - q2) * fast_exp(-wy[y] * a2);
    }
  }
}

inline void prefetch_splat(const SplatView& s, std::uint32_t i) {
  __builtin_prefetch(s.x + i);
  __builtin_prefetch(s.y + i);
  __builtin_prefetch(s.radius + i);
  __builtin_prefetch(s.e[0] + i);
  __builtin_prefetch(s.e[1] + i);
  __builtin_prefetch(s.e[2] + i);
}

void render_tile(const SplatView& s, const RenderOptions& o, const TileLists& lists, int tile, TileBuffer& b) {
  const std::uint32_t* items = lists.items.data() + lists.start[std::size_t(tile)];
  const std::size_t count = lists.start[std::size_t(tile) + 1] - lists.start[std::size_t(tile)];
  for (std::size_t k = 0; k < count; ++k) {
    if (k + host_prefetch_distance < count) prefetch_splat(s, items[k + host_prefetch_distance]);
    if (o.a_eq_e)
      add_splat(s, items[k], b);
    else
      composite_splat(s, items[k], b, o.gray_absorption);
  }
}

}  // namespace

SplatView view_of(const Splats& s) {
  SplatView v;
  v.n = s.size();
  v.x = s.x.data();
  v.y = s.y.data();
  v.radius = s.radius.data();
  for (int c = 0; c < 3; ++c) v.e[c] = s.colour[c].data();
  return v;
}

void render_host(const SplatView& s, const RenderOptions& o, Image& image, const ProgressCallback& progress) {
  if (s.n == 0 || image.width <= 0 || image.height <= 0) return;
  const TileGrid grid(image.width, image.height);
  const TileLists lists = bin_splats(s, grid);
  // The busiest tiles first, so that no thread is left with a heavy one at the end.
  std::vector<int> order(std::size_t(grid.count()));
  std::iota(order.begin(), order.end(), 0);
  auto work = [&](int tile) { return lists.start[std::size_t(tile) + 1] - lists.start[std::size_t(tile)]; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return work(a) > work(b); });
  std::atomic<int> done{0};
  const int ntiles = grid.count();
#pragma omp parallel
  {
    TileBuffer buffer;
#pragma omp for schedule(dynamic, 1)
    for (int k = 0; k < ntiles; ++k) {
      const int tile = order[std::size_t(k)];
      buffer.load(image, tile % grid.nx, tile / grid.nx);
      render_tile(s, o, lists, tile, buffer);
      buffer.store(image);
      const int now = ++done;
      if (progress && omp_get_thread_num() == 0) progress(double(now) / ntiles);
    }
  }
}

}  // namespace splotch
