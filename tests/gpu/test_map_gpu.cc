// The GPU's map drawer (cuda/map_renderer.h) against the host's (splotch/render/host_map.h): the
// same sums from the same splats, for columns of small and large supports, averages and slices;
// the same map from run to run; a particle's amount kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cuda/map_renderer.h"
#include "splotch/render/host_map.h"
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
      for (int q = 0; q < planes; ++q) {
        double worst = 0;
        for (std::size_t i = 0; i < host.plane[q].size(); ++i)
          worst = std::max(worst, std::fabs(host.plane[q][i] - gpu.plane[q][i]));
        CHECK(worst <= 1e-6 * largest(host.plane[q]));
        CHECK(gpu.plane[q] == again.plane[q]);
      }
    }
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
