#include "splotch/render/host_map.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

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

// The kernel's integral over each pixel of the block, from the corner table: a row of corners
// (x edges i = x_lo .. x_hi) at the row's lower edge, then at its upper, differences of the two.
void add_by_corners(const KernelTableView& k, float x, float y, float radius, const float* w, int planes,
                    const Block& b, int xres, std::vector<double>* plane, std::vector<float>& low,
                    std::vector<float>& high) {
  const int width = b.x_hi - b.x_lo;
  const float inverse = 1.0f / radius;
  low.resize(std::size_t(width) + 1);
  high.resize(std::size_t(width) + 1);
  auto corners = [&](std::vector<float>& row, int j) {
    const float v = (float(j) - y) * inverse;
    for (int i = 0; i <= width; ++i) row[std::size_t(i)] = corner_at(k, (float(b.x_lo + i) - x) * inverse, v);
  };
  corners(low, b.y_lo);
  for (int j = b.y_lo; j < b.y_hi; ++j) {
    corners(high, j + 1);
    const std::size_t at = std::size_t(j) * std::size_t(xres) + std::size_t(b.x_lo);
    for (int i = 0; i < width; ++i) {
      const double share =
          double((high[std::size_t(i) + 1] - high[std::size_t(i)]) - (low[std::size_t(i) + 1] - low[std::size_t(i)]));
      for (int p = 0; p < planes; ++p) plane[p][at + std::size_t(i)] += share * double(w[p]);
    }
    std::swap(low, high);
  }
}

// The kernel's profile at each pixel's centre within the support: the column's (F(q) + lap(F)(q) /
// (24 H^2)) / H^2 (the midpoint rule and its correction for the pixel's integral), or the slice's
// W(q) / H^3 with the particle `dz` from the plane (`column` false).
void add_by_centres(const KernelTableView& k, bool column, float x, float y, float radius, float dz, float power,
                    const float* w, int planes, const Block& b, int xres, std::vector<double>* plane) {
  const float inverse2 = 1.0f / (radius * radius);
  const double scale = 1.0 / std::pow(double(radius), double(power));
  const double weight[2] = {scale * double(w[0]), planes > 1 ? scale * double(w[1]) : 0.0};
  const float dz2 = dz * dz * inverse2;
  for (int j = b.y_lo; j < b.y_hi; ++j) {
    const float dy = float(j) + 0.5f - y;
    const float row2 = dy * dy * inverse2 + dz2;
    if (!(row2 < 1.0f)) continue;
    // Only the columns whose centres may lie within the support (one spare on either side: the
    // test below decides, in the arithmetic the GPU does).
    const float half = std::sqrt(1.0f - row2) * radius;
    const int from = std::max(b.x_lo, int(std::floor(x - half - 0.5f)) - 1);
    const int to = std::min(b.x_hi, int(std::floor(x + half - 0.5f)) + 2);
    double* row[2] = {plane[0].data() + std::size_t(j) * std::size_t(xres),
                      planes > 1 ? plane[1].data() + std::size_t(j) * std::size_t(xres) : nullptr};
    for (int i = from; i < to; ++i) {
      const float dx = float(i) + 0.5f - x;
      const float q2 = dx * dx * inverse2 + row2;
      if (!(q2 < 1.0f)) continue;
      const double value = double(column ? centre_share(k, q2, inverse2) : profile_at(k.volume, k.profile_steps, q2));
      row[0][i] += value * weight[0];
      if (planes > 1) row[1][i] += value * weight[1];
    }
  }
}

}  // namespace

void draw_map_host(const MapSplats& s, MapMode mode, const KernelTableView& k, MapSums& sums) {
  const int xres = sums.xres, yres = sums.yres, planes = sums.planes();
  const int threads = omp_get_max_threads();
  const int strips = std::max(1, std::min(yres, 8 * threads));
  const int strip_rows = (yres + strips - 1) / strips;
  // Each particle listed in the strips it touches: counted, then placed (a counting sort).
  std::vector<std::size_t> start(std::size_t(strips) + 1, 0);
  auto strip_range = [&](std::size_t i, int& first, int& last) {
    const Rows r = rows_of(s.y[i], s.radius[i]);
    const long lo = std::max(r.lo, 0L), hi = std::min(r.hi, long(yres));
    first = int(lo / strip_rows);
    last = hi > lo ? int((hi - 1) / strip_rows) : first - 1;
  };
  for (std::size_t i = 0; i < s.n; ++i) {
    int first, last;
    strip_range(i, first, last);
    for (int t = first; t <= last; ++t) ++start[std::size_t(t) + 1];
  }
  for (int t = 0; t < strips; ++t) start[std::size_t(t) + 1] += start[std::size_t(t)];
  std::vector<std::size_t> listed(start.back()), fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < s.n; ++i) {
    int first, last;
    strip_range(i, first, last);
    for (int t = first; t <= last; ++t) listed[fill[std::size_t(t)]++] = i;
  }
  std::vector<double>* plane = sums.plane;
#pragma omp parallel
  {
    std::vector<float> low, high;
#pragma omp for schedule(dynamic, 1)
    for (int t = 0; t < strips; ++t) {
      const int row_lo = t * strip_rows, row_hi = std::min(yres, row_lo + strip_rows);
      for (std::size_t e = start[std::size_t(t)]; e < start[std::size_t(t) + 1]; ++e) {
        const std::size_t i = listed[e];
        const float x = s.x[i], y = s.y[i], radius = s.radius[i];
        const float w[2] = {s.w[0][i], planes > 1 ? s.w[1][i] : 0.0f};
        const Block b = block_of(x, y, radius, xres, row_lo, row_hi);
        if (b.x_lo >= b.x_hi || b.y_lo >= b.y_hi) continue;
        if (mode == MapMode::slice)
          add_by_centres(k, false, x, y, radius, s.z[i], 3, w, planes, b, xres, plane);
        else if (radius * midpoint_pixel_fraction < 1.0f)
          add_by_corners(k, x, y, radius, w, planes, b, xres, plane, low, high);
        else
          add_by_centres(k, true, x, y, radius, 0.0f, 2, w, planes, b, xres, plane);
      }
    }
  }
}

}  // namespace splotch
