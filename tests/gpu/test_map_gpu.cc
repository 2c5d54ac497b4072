// The GPU's map drawer (cuda/map_renderer.h) against the host's (splotch/render/host_map.h): the
// same sums (to the bounds) from the same splats, for columns of small and large supports, averages and slices;
// the same map from run to run; a particle's amount kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "cuda/device_particles.h"
#include "cuda/map_renderer.h"
#include "splotch/render/host_map.h"
#include "splotch/stages/map_splats.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/map_test_splats.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

using Arrays = MapArrays;

// `n` splats over a side x side map and beyond it, supports from `small` to `large` pixels.
Arrays random_arrays(std::size_t n, int side, float small, float large, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> place(-10.0f, float(side) + 10.0f), unit(0.0f, 1.0f);
  Arrays a;
  for (std::size_t i = 0; i < n; ++i) {
    a.x.push_back(place(random));
    a.y.push_back(place(random));
    a.r.push_back(small * std::pow(large / small, unit(random)));
    a.w0.push_back(0.5f + unit(random));
    a.w1.push_back(a.w0.back() * (unit(random) - 0.3f));  // some negative: an average of a signed quantity
    a.z.push_back((unit(random) - 0.5f) * a.r.back());
  }
  return a;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// How far the GPU's plane lies from the host's: the largest difference, the largest relative one
// over the host's pixels above 1e-3 of its largest, and the difference of the totals, each as a
// share (of the largest pixel, of the pixel, of the sum of |pixel|).
struct Agreement {
  double top = 0, worst = 0, relative = 0, total = 0;
};
Agreement agreement(const std::vector<double>& host, const std::vector<double>& gpu) {
  Agreement a;
  a.top = largest(host);
  double host_total = 0, gpu_total = 0, size = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    const double h = host[i], g = gpu[i];
    a.worst = std::max(a.worst, std::fabs(h - g));
    if (std::fabs(h) > 1e-3 * a.top) a.relative = std::max(a.relative, std::fabs(g - h) / std::fabs(h));
    host_total += h, gpu_total += g, size += std::fabs(h);
  }
  a.worst /= a.top > 0 ? a.top : 1;
  a.total = std::fabs(gpu_total - host_total) / (size > 0 ? size : 1);
  return a;
}

}  // namespace

TEST_CASE("gpu map: the host's sums for columns, averages and slices, and the same from run to run" *
          doctest::skip(no_gpu())) {
  const MapKernelTables tables = make_kernel_tables(MapKernel::cubic);
  const int side = 200;
  for (MapMode mode : {MapMode::column, MapMode::average, MapMode::slice}) {
    for (auto [small, large] : {std::pair{0.05f, 6.0f}, std::pair{6.0f, 80.0f}}) {
      const Arrays a = random_arrays(3000, side, small, large, 11);
      const int planes = mode == MapMode::average ? 2 : 1;
      MapSums host(side, side, planes), gpu(side, side, planes), again(side, side, planes);
      draw_map_host(a.view(mode), mode, table_view(tables), host);
      draw_map_cuda(a.view(mode), mode, tables, gpu, 0);
      draw_map_cuda(a.view(mode), mode, tables, again, 0);
      CAPTURE(int(mode));
      CAPTURE(small);
      // The host evaluates the kernel's tables as polynomials and modes, the GPU reads them
      // (docs/maps.md): the bounds, pixels above 1e-3 of the largest within 1e-4 of the
      // host's and the totals within 1e-5; and every pixel within 5e-5 of the largest (the two
      // forms of the tables differ by about 1e-5 of it where supports of 6 to 8 pixels overlap).
      for (int q = 0; q < planes; ++q) {
        const Agreement d = agreement(host.plane[q], gpu.plane[q]);
        MESSAGE("mode ", int(mode), ", supports from ", small, ": GPU - host within ", d.worst,
                " of the largest pixel, ", d.relative, " of each above 1e-3 of it");
        // (an average's second plane has weights of either sign: its pixels cancel, and only the
        // bound against the largest means anything there)
        if (q == 0) CHECK(d.relative <= 1e-4);
        CHECK(d.worst <= 5e-5);
        CHECK(d.total <= 1e-5);
        CHECK(gpu.plane[q] == again.plane[q]);
      }
    }
  }
}

// The drawers' shares are never below 0: a pixel that kernels reach only at their edges (where the
// tables round) holds an average within the range of the values averaged, and a column of positive
// amounts is nowhere negative; on the host and the GPU.
TEST_CASE("gpu map: an average stays within the range of its values at every pixel; no column pixel below 0") {
  const MapKernelTables tables = make_kernel_tables(MapKernel::cubic);
  const int side = 64;
  std::mt19937 random(5);
  std::uniform_real_distribution<float> place(0.0f, float(side)), unit(0.0f, 1.0f);
  Arrays a;  // supports of 1 to 4 pixels (the corner tables), sparse: many pixels at kernels' edges
  for (int i = 0; i < 300; ++i) {
    a.x.push_back(place(random));
    a.y.push_back(place(random));
    a.r.push_back(1.0f + 3.0f * unit(random));
    a.w0.push_back(1.0f + unit(random));
    a.w1.push_back(a.w0.back() * (100.0f + 300.0f * unit(random)));
    a.z.push_back(0.0f);
  }
  const bool gpu = !no_gpu();
  if (!gpu) MESSAGE("the GPU's drawer is not run here: no GPU (the host's is)");
  for (int drawer = 0; drawer < (gpu ? 2 : 1); ++drawer) {
    CAPTURE(drawer);
    MapSums average(side, side, 2), column(side, side, 1);
    if (drawer == 0) {
      draw_map_host(a.view(MapMode::average), MapMode::average, table_view(tables), average);
      draw_map_host(a.view(MapMode::column), MapMode::column, table_view(tables), column);
    } else {
      draw_map_cuda(a.view(MapMode::average), MapMode::average, tables, average, 0);
      draw_map_cuda(a.view(MapMode::column), MapMode::column, tables, column, 0);
    }
    int drawn = 0;
    for (std::size_t i = 0; i < average.plane[0].size(); ++i) {
      CHECK(column.plane[0][i] >= 0);
      if (average.plane[0][i] == 0) continue;
      ++drawn;
      const double v = average.plane[1][i] / average.plane[0][i];
      CAPTURE(i);
      CHECK(v >= 100 * (1 - 1e-5));
      CHECK(v <= 400 * (1 + 1e-5));
    }
    CHECK(drawn > 1000);
  }
}

TEST_CASE("gpu map: a particle's pixels sum to its amount, small or large" * doctest::skip(no_gpu())) {
  const MapKernelTables tables = make_kernel_tables(MapKernel::wendland_c2);
  for (float radius : {0.02f, 0.7f, 5.0f, 30.0f, 90.0f}) {
    Arrays a;
    a.x = {100.37f};
    a.y = {99.81f};
    a.r = {radius};
    a.w0 = {2.5f};
    MapSums sums(200, 200, 1);
    draw_map_cuda(a.view(MapMode::column), MapMode::column, tables, sums, 0);
    double total = 0;
    for (double v : sums.plane[0]) total += v;
    CAPTURE(radius);
    CHECK(std::fabs(total / 2.5 - 1) < 1e-5);
  }
}

TEST_CASE("gpu map: from the particles kept on the GPU, the host's map stage and drawer's map" *
          doctest::skip(no_gpu())) {
  // Particles in a periodic box of 10: views along an axis (the map wraps), rotated (images across
  // the faces), with a depth cut, for columns, averages and slices.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pos(0.0f, 10.0f), h(0.05f, 1.5f), in(0.5f, 1.5f), c(-0.5f, 2.0f);
  ParticleSet p;
  for (int i = 0; i < 20000; ++i) {
    p.x.push_back(pos(rng)), p.y.push_back(pos(rng)), p.z.push_back(pos(rng));
    p.hsml.push_back(h(rng)), p.intensity.push_back(in(rng)), p.colour[0].push_back(c(rng));
  }
  p.box_size = 10;
  CudaSession session;
  const std::unique_ptr<DeviceParticles> kept = DeviceParticles::upload(p, session);
  REQUIRE(kept);
  const MapKernelTables tables = make_kernel_tables(MapKernel::cubic);
  struct View {
    Vec3 x, y, z;
    double width;
    std::optional<double> depth;
  };
  const double s = std::sqrt(0.5);
  const View views[] = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 10.0, std::nullopt},
                        {{s, s, 0}, {0, 0, 1}, {s, -s, 0}, 8.0, std::nullopt},
                        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 6.0, 3.0}};
  for (MapMode mode : {MapMode::column, MapMode::average, MapMode::slice})
    for (const View& v : views) {
      MapGeometry g;
      g.mode = mode;
      g.lookat = {5, 5, 5};
      g.x_axis = v.x, g.y_axis = v.y, g.z_axis = v.z;
      g.camera_distance = 20;
      g.width = g.height = v.width;
      g.xres = g.yres = 128;
      g.depth = v.depth;
      g.support_factor = {1.0};
      g.box = 10;
      const int planes = mode == MapMode::average ? 2 : 1;
      MapSums host(128, 128, planes), gpu(128, 128, planes), again(128, 128, planes);
      const MapParticles splats = map_particles(p, g, table_view(tables));
      draw_map_host(splats.view(), mode, table_view(tables), host);
      draw_map_cuda_kept(kept->fields(), map_projection(g), 1.0, tables, gpu);
      draw_map_cuda_kept(kept->fields(), map_projection(g), 1.0, tables, again);
      CAPTURE(int(mode));
      CAPTURE(v.width);
      for (int q = 0; q < planes; ++q) {
        const Agreement a = agreement(host.plane[q], gpu.plane[q]);
        MESSAGE("kept, mode ", int(mode), ", width ", v.width, ": within ", a.worst, " of the largest, ", a.relative,
                " of each pixel above 1e-3 of it");
        CHECK(a.top > 0);
        CHECK(a.relative <= 1e-4);
        CHECK(a.worst <= 1e-5);
        CHECK(a.total <= 1e-5);
        CHECK(gpu.plane[q] == again.plane[q]);
      }
    }
}
