#include "splotch/render/host_map.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "splotch/render/map_rows.h"

namespace splotch {
namespace {

// The rows [lo, hi) of the map a particle's support touches, unclipped.
struct Rows {
  long lo, hi;
};
Rows rows_of(float y, float radius) { return {long(std::floor(y - radius)), long(std::floor(y + radius)) + 1}; }

// Pixel [i, i + 1) x [j, j + 1) of a strip: the particle's columns [x_lo, x_hi), rows [y_lo, y_hi)
// clipped to the map and the strip.
struct Block {
  int x_lo, x_hi, y_lo, y_hi;
};
Block block_of(float x, float y, float radius, int xres, int row_lo, int row_hi) {
  const Rows r = rows_of(y, radius), c = rows_of(x, radius);
  return {int(std::max(c.lo, 0L)), int(std::min(c.hi, long(xres))), int(std::max(r.lo, long(row_lo))),
          int(std::min(r.hi, long(row_hi)))};
}

// Adds share[i] * w to row[i] for the pixels of one row, in each plane (a loop the compiler
// vectorises).
void add_row(const float* share, const double* w, int planes, std::vector<double>* plane, std::size_t at, int count) {
  for (int p = 0; p < planes; ++p) {
    double* row = plane[p].data() + at;
    const double weight = w[p];
    for (int i = 0; i < count; ++i) row[i] += double(share[i]) * weight;
  }
}

// The kernel's integral over each pixel of a particle's block from the corner table's modes
// (splotch/splat/map_kernel.h): the pixel [x0, x1] x [y0, y1] holds
// sum_k w_k (U_k(x1) - U_k(x0)) (U_k(y1) - U_k(y0)). The 8 modes are one vector and a row's pixels
// another of 8, 16 or 32 lanes (GCC's vector extension: AVX where the build targets it, SSE pieces
// elsewhere), in fixed arrays: a particle drawn so (its support below 8 pixels, so at most 18
// pixels wide) costs a few vector operations per pixel edge and per row (per pixel touched, 2
// threads of the test machine's CPU, particles of one size: 4.9 ns at 1 pixel, 2.4 at 3, 1.3 at
// 7.9; the corner table's four lookups a corner took 8.6, 6.3 and 4.6).
using Modes8 = float __attribute__((vector_size(32)));
using Row16 = float __attribute__((vector_size(64)));
using Row32 = float __attribute__((vector_size(128)));
static_assert(map_corner_modes == 8, "one vector of the 8 modes");

inline Modes8 modes_at(const KernelTableView& t, float a) {
  const float size = std::fabs(a);
  const float u = (size < 1.0f ? size : 1.0f) * float(t.corner_steps);
  const int at = int(u);
  const float f = u - float(at), sign = a < 0.0f ? -1.0f : 1.0f;
  Modes8 lo, hi;
  std::memcpy(&lo, t.corner_modes + std::size_t(at) * map_corner_modes, sizeof lo);
  std::memcpy(&hi, t.corner_modes + std::size_t(at + 1) * map_corner_modes, sizeof hi);
  return sign * (lo + f * (hi - lo));
}

template <class Row>
void add_by_modes_small(const KernelTableView& k, float x, float y, float radius, const double* w, int planes,
                        const Block& b, int xres, std::vector<double>* plane) {
  const int width = b.x_hi - b.x_lo, height = b.y_hi - b.y_lo;
  const float inverse = 1.0f / radius;
  Row across[map_corner_modes];  // mode m's difference across pixel i of the row: across[m][i]
  for (Row& a : across) a = Row{};
  Modes8 before = modes_at(k, (float(b.x_lo) - x) * inverse);
  for (int i = 0; i < width; ++i) {
    const Modes8 after = modes_at(k, (float(b.x_lo + i + 1) - x) * inverse), d = after - before;
    for (int m = 0; m < map_corner_modes; ++m) across[m][i] = d[m];
    before = after;
  }
  Modes8 weights;
  std::memcpy(&weights, k.corner_weights, sizeof weights);
  Modes8 below = modes_at(k, (float(b.y_lo) - y) * inverse);
  for (int j = 0; j < height; ++j) {
    const Modes8 above = modes_at(k, (float(b.y_lo + j + 1) - y) * inverse);
    const Modes8 c = (above - below) * weights;
    below = above;
    Row share = c[0] * across[0];
    for (int m = 1; m < map_corner_modes; ++m) share += c[m] * across[m];
    // (a share is never below 0, but the differences of the corners round: a pixel that kernels
    // touch only at their edges would weigh an average with shares of either sign)
    share = share > Row{} ? share : Row{};
    const std::size_t at = std::size_t(b.y_lo + j) * std::size_t(xres) + std::size_t(b.x_lo);
    for (int p = 0; p < planes; ++p) {
      double* row = plane[p].data() + at;
      for (int i = 0; i < width; ++i) row[i] += double(share[i]) * w[p];
    }
  }
}

void add_by_corners(const KernelTableView& k, float x, float y, float radius, const double* w, int planes,
                    const Block& b, int xres, std::vector<double>* plane) {
  const int width = b.x_hi - b.x_lo;
  if (width <= 8)
    add_by_modes_small<Modes8>(k, x, y, radius, w, planes, b, xres, plane);
  else if (width <= 16)
    add_by_modes_small<Row16>(k, x, y, radius, w, planes, b, xres, plane);
  else  // (at most 2 H + 2 < 32 pixels: H < 8 here)
    add_by_modes_small<Row32>(k, x, y, radius, w, planes, b, xres, plane);
}

// One row's pixel centres [from, to) of a slice, q^2 = ((i + 1/2 - x) / H)^2 + row2: W(q) (0 from
// q^2 = 1 on), the same arithmetic as profile_at without a branch (the table ends in a spare 0:
// q^2 is clamped to 1).
void slice_row(const float* __restrict profile, int steps, float x, float row2, float inverse2, int from, int to,
               float* __restrict out) {
  for (int i = from; i < to; ++i) {
    const float dx = float(i) + 0.5f - x;
    const float q2 = dx * dx * inverse2 + row2;
    const float u = (q2 < 1.0f ? q2 : 1.0f) * float(steps);  // not fminf, which does not vectorise
    const int at = int(u);
    const float f = u - float(at);
    out[i - from] = (profile[at] + f * (profile[at + 1] - profile[at])) * float(q2 < 1.0f);
  }
}

// The kernel's profile at each pixel's centre within the support: the column's (F(q) + lap(F)(q) /
// (24 H^2)) / H^2 (the midpoint rule and its correction for the pixel's integral), or the slice's
// W(q) / H^3 with the particle `dz` from the plane (`column` false).
void add_by_centres(const KernelTableView& k, bool column, float x, float y, float radius, float dz, const double* w,
                    int planes, const Block& b, int xres, std::vector<double>* plane, std::vector<float>& scratch) {
  const float inverse2 = 1.0f / (radius * radius);
  const double scale = 1.0 / std::pow(double(radius), column ? 2.0 : 3.0);
  const double weight[2] = {scale * w[0], scale * w[1]};
  const float dz2 = dz * dz * inverse2;
  const RowPolynomial poly = column ? row_polynomial(k, inverse2 * (1.0f / 24.0f)) : RowPolynomial{};
  scratch.resize(std::size_t(b.x_hi - b.x_lo) + 1);
  for (int j = b.y_lo; j < b.y_hi; ++j) {
    const float dy = float(j) + 0.5f - y;
    const float row2 = dy * dy * inverse2 + dz2;
    if (!(row2 < 1.0f)) continue;
    // Only the columns whose centres may lie within the support (one spare on either side: the
    // test of q^2 < 1 in the row decides).
    const float half = std::sqrt(1.0f - row2) * radius;
    const int from = std::max(b.x_lo, int(std::floor(x - half - 0.5f)) - 1);
    const int to = std::min(b.x_hi, int(std::floor(x + half - 0.5f)) + 2);
    if (from >= to) continue;
    const std::size_t at = std::size_t(j) * std::size_t(xres);
    if (column) {
      double* const rows[2] = {plane[0].data() + at, planes > 1 ? plane[1].data() + at : nullptr};
      add_centre_row(poly, CentreRow{x, row2, inverse2, from, to}, weight, planes, rows);
    } else {
      slice_row(k.volume, k.profile_steps, x, row2, inverse2, from, to, scratch.data());
      add_row(scratch.data(), weight, planes, plane, at + std::size_t(from), to - from);
    }
  }
}

// The particles of each strip of rows, copied in strip order (x, y, radius, w0[, w1][, z] per
// record), so that a strip's thread reads them in sequence, not scattered over the splats' arrays.
struct StripLists {
  int strips = 1, strip_rows = 1, fields = 4;
  std::vector<std::size_t> start;  // strip t's records are [start[t], start[t + 1])
  std::vector<float> records;
};

StripLists list_by_strip(const MapSplats& s, int yres, int strips) {
  StripLists l;
  l.strips = strips;
  l.strip_rows = (yres + strips - 1) / strips;
  l.fields = 4 + (s.w[1] ? 1 : 0) + (s.z ? 1 : 0);
  auto range = [&](std::size_t i, int& first, int& last) {
    const Rows r = rows_of(s.y[i], s.radius[i]);
    const long lo = std::max(r.lo, 0L), hi = std::min(r.hi, long(yres));
    first = int(lo / l.strip_rows);
    last = hi > lo ? int((hi - 1) / l.strip_rows) : first - 1;
  };
  // Counted per chunk of particles, then placed: within a strip the chunks in order, so that a
  // strip holds its particles in their order whatever the number of threads.
  const int chunks = omp_get_max_threads();
  std::vector<std::size_t> count(std::size_t(chunks) * std::size_t(strips), 0);
  // Calls visit(strip, place of the chunk's counts or fills) for each strip each particle touches,
  // a chunk of particles per thread.
  auto each_touch = [&](std::vector<std::size_t>& per_chunk, auto&& visit) {
#pragma omp parallel for schedule(static, 1)
    for (int c = 0; c < chunks; ++c) {
      std::size_t* mine = per_chunk.data() + std::size_t(c) * std::size_t(strips);
      for (std::size_t i = s.n * std::size_t(c) / std::size_t(chunks);
           i < s.n * std::size_t(c + 1) / std::size_t(chunks); ++i) {
        int first, last;
        range(i, first, last);
        for (int t = first; t <= last; ++t) visit(i, mine[t]);
      }
    }
  };
  each_touch(count, [](std::size_t, std::size_t& n) { ++n; });
  l.start.assign(std::size_t(strips) + 1, 0);
  std::vector<std::size_t> fill(count.size());
  std::size_t at = 0;
  for (int t = 0; t < strips; ++t) {
    l.start[std::size_t(t)] = at;
    for (int c = 0; c < chunks; ++c) {
      fill[std::size_t(c) * std::size_t(strips) + std::size_t(t)] = at;
      at += count[std::size_t(c) * std::size_t(strips) + std::size_t(t)];
    }
  }
  l.start.back() = at;
  l.records.resize(at * std::size_t(l.fields));
  each_touch(fill, [&](std::size_t i, std::size_t& place) {
    float* r = l.records.data() + (place++) * std::size_t(l.fields);
    r[0] = s.x[i], r[1] = s.y[i], r[2] = s.radius[i], r[3] = s.w[0][i];
    int f = 4;
    if (s.w[1]) r[f++] = s.w[1][i];
    if (s.z) r[f] = s.z[i];
  });
  return l;
}

}  // namespace

void draw_map_host(const MapSplats& s, MapMode mode, const KernelTableView& k, MapSums& sums) {
  const int xres = sums.xres, yres = sums.yres, planes = sums.planes();
  const StripLists l = list_by_strip(s, yres, std::max(1, std::min(yres, 8 * omp_get_max_threads())));
  std::vector<double>* plane = sums.plane;
#pragma omp parallel
  {
    std::vector<float> scratch;
#pragma omp for schedule(dynamic, 1)
    for (int t = 0; t < l.strips; ++t) {
      const int row_lo = t * l.strip_rows, row_hi = std::min(yres, row_lo + l.strip_rows);
      for (std::size_t e = l.start[std::size_t(t)]; e < l.start[std::size_t(t) + 1]; ++e) {
        const float* r = l.records.data() + e * std::size_t(l.fields);
        const float x = r[0], y = r[1], radius = r[2];
        const double w[2] = {double(r[3]), planes > 1 ? double(r[4]) : 0.0};
        const Block b = block_of(x, y, radius, xres, row_lo, row_hi);
        if (b.x_lo >= b.x_hi || b.y_lo >= b.y_hi) continue;
        if (mode == MapMode::slice)
          add_by_centres(k, false, x, y, radius, r[l.fields - 1], w, planes, b, xres, plane, scratch);
        else if (radius * midpoint_pixel_fraction < 1.0f)
          add_by_corners(k, x, y, radius, w, planes, b, xres, plane);
        else
          add_by_centres(k, true, x, y, radius, 0.0f, w, planes, b, xres, plane, scratch);
      }
    }
  }
}

}  // namespace splotch
