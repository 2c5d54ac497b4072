// The map kernels and their pixel integrals (splotch/splat/map_kernel.h, splotch/render/host_map.h)
// against what they must conserve: a particle's amount over the pixels, at any size and place.
#include <doctest/doctest.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "splotch/render/host_map.h"
#include "splotch/render/map_rows.h"
#include "splotch/splat/map_kernel.h"
#include "tests/support/map_test_splats.h"

using namespace splotch;

namespace {

const MapKernel all_kernels[] = {MapKernel::cubic, MapKernel::quintic, MapKernel::wendland_c2, MapKernel::wendland_c4,
                                 MapKernel::gaussian};

double sum_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// One particle of amount 1 at (x, y) with support `radius` pixels on a side x side map.
MapSums one_particle(const MapKernelTables& t, float x, float y, float radius, int side) {
  const float w = 1.0f;
  MapSplats s;
  s.n = 1;
  s.x = &x;
  s.y = &y;
  s.radius = &radius;
  s.w[0] = &w;
  MapSums sums(side, side, 1);
  draw_map_host(s, MapMode::column, table_view(t), sums);
  return sums;
}

}  // namespace

TEST_CASE("each kernel integrates to one over the ball, its profile over the disc, its marginal to 1") {
  for (MapKernel k : all_kernels) {
    CAPTURE(std::string(kernel_name(k)));
    double ball = 0, disc = 0;
    const int n = 200000;
    const MapKernelTables t = make_kernel_tables(k);
    for (int i = 0; i < n; ++i) {
      const double q = (i + 0.5) / n;
      ball += 4 * 3.14159265358979 * q * q * kernel_value(k, q) / n;
      disc += 2 * 3.14159265358979 * q * double(profile_at(t.column.data(), t.profile_steps, float(q * q))) / n;
    }
    CHECK(ball == doctest::Approx(1).epsilon(1e-6));
    CHECK(disc == doctest::Approx(1).epsilon(2e-5));
    CHECK(t.marginal.front() == 0.0f);
    CHECK(t.marginal.back() == 1.0f);
    CHECK(marginal_at(table_view(t), 0.0f) == doctest::Approx(0.5).epsilon(1e-6));
    CHECK(t.corner.back() == doctest::Approx(0.25).epsilon(1e-7));
    CHECK(corner_at(table_view(t), -2.0f, 3.0f) == doctest::Approx(-0.25).epsilon(1e-7));
  }
}

TEST_CASE("the host's piecewise polynomials of the column and its laplacian follow the profiles") {
  for (MapKernel k : all_kernels) {
    CAPTURE(std::string(kernel_name(k)));
    const MapKernelTables t = make_kernel_tables(k);
    double column_error = 0, laplacian_error = 0, laplacian_size = 0, table_error = 0;
    for (int i = 0; i <= 20000; ++i) {
      const double q = i / 20000.0;
      const float q2 = float(q * q);
      const double F = column_profile(k, q), L = q < 1 ? column_laplacian(k, q) : 0.0;
      column_error = std::max(column_error, std::fabs(double(poly_at(t.column_poly.data(), q2)) - F));
      laplacian_error = std::max(laplacian_error, std::fabs(double(poly_at(t.laplacian_poly.data(), q2)) - L));
      laplacian_size = std::max(laplacian_size, std::fabs(L));
      // the GPU's table, by differences in q^2 (one-sided below q^2 = 1e-3)
      if (q2 > 2e-3f)
        table_error = std::max(table_error, std::fabs(double(profile_at(t.laplacian.data(), t.profile_steps, q2)) - L));
    }
    MESSAGE(std::string(kernel_name(k)), ": column within ", column_error, " of F(0) = ", t.column[0],
            ", laplacian within ", laplacian_error / laplacian_size, " of its largest (the table ",
            table_error / laplacian_size, ")");
    CHECK(column_error < 1e-6 * t.column[0]);
    // lap(F)'s share of a pixel is at most 1/1536 of F's (a support of 8 pixels): 1e-3 of it is
    // below 1e-5 of F(0)
    CHECK(laplacian_error < 1e-3 * laplacian_size);
    CHECK(table_error < 1e-3 * laplacian_size);
    CHECK(poly_at(t.column_poly.data(), 1.0f) == 0.0f);
  }
}

TEST_CASE("the host's modes of the corner table give it back") {
  for (MapKernel k : all_kernels) {
    CAPTURE(std::string(kernel_name(k)));
    const MapKernelTables t = make_kernel_tables(k);
    const int m = t.corner_steps, K = map_corner_modes;
    double worst = 0, at_one = 0;
    for (int j = 0; j <= m; ++j)
      for (int i = 0; i <= m; ++i) {
        double q = 0;
        for (int c = 0; c < K; ++c)
          q += double(t.corner_weights[c]) * t.corner_modes[std::size_t(i) * K + c] *
               t.corner_modes[std::size_t(j) * K + c];
        worst = std::max(worst, std::fabs(q - t.corner[std::size_t(j) * (m + 1) + i]));
        if (i == m && j == m) at_one = q;
      }
    MESSAGE(std::string(kernel_name(k)), ": ", K, " modes give the corner table to ", worst);
    CHECK(worst < 2e-7);
    CHECK(at_one == doctest::Approx(0.25).epsilon(1e-7));
  }
}

TEST_CASE("a particle's pixels sum to its amount at 100 places and supports from 0.01 to 100 pixels") {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> offset(0.0f, 1.0f);
  for (MapKernel k : all_kernels) {
    const MapKernelTables t = make_kernel_tables(k);
    for (float radius : {0.01f, 0.1f, 0.5f, 1.0f, 2.5f, 7.9f, 8.1f, 20.0f, 100.0f}) {
      double worst = 0;
      for (int place = 0; place < 100; ++place) {
        const MapSums sums = one_particle(t, 110 + offset(random), 110 + offset(random), radius, 220);
        worst = std::max(worst, std::fabs(sum_of(sums.plane[0]) - 1));
      }
      CAPTURE(std::string(kernel_name(k)));
      CAPTURE(radius);
      CHECK(worst < 1e-5);
    }
  }
}

TEST_CASE("a particle's pixel integrals match the kernel's integral over each pixel") {
  // The integral over a pixel by brute force (a 200 x 200 midpoint grid of the profile).
  const MapKernelTables t = make_kernel_tables(MapKernel::cubic);
  for (float radius : {0.7f, 3.0f, 12.0f}) {
    const float x = 20.3f, y = 19.8f;
    const MapSums sums = one_particle(t, x, y, radius, 40);
    double worst = 0, peak = 0;
    for (int j = 14; j < 26; ++j)
      for (int i = 14; i < 26; ++i) {
        double exact = 0;
        const int n = 200;
        for (int b = 0; b < n; ++b)
          for (int a = 0; a < n; ++a) {
            const double dx = (i + (a + 0.5) / n - x) / radius, dy = (j + (b + 0.5) / n - y) / radius;
            exact += double(profile_at(t.column.data(), t.profile_steps, float(dx * dx + dy * dy))) / (n * n);
          }
        exact /= double(radius) * radius;
        peak = std::max(peak, exact);
        worst = std::max(worst, std::fabs(sums.plane[0][std::size_t(j) * 40 + std::size_t(i)] - exact));
      }
    CAPTURE(radius);
    CHECK(worst < 2e-3 * peak);
  }
}

TEST_CASE("a uniform lattice of particles gives a flat column") {
  const MapKernelTables t = make_kernel_tables(MapKernel::wendland_c2);
  for (float spacing : {0.3f, 1.0f, 2.7f}) {
    std::vector<float> x, y, r, w;
    for (float py = -10; py < 74; py += spacing)
      for (float px = -10; px < 74; px += spacing) {
        x.push_back(px);
        y.push_back(py);
        r.push_back(4.0f * spacing);
        w.push_back(spacing * spacing);  // amount per particle: a surface density of 1 per pixel
      }
    MapSums sums(64, 64, 1);
    draw_map_host(testing::MapArrays{x, y, r, w, {}, {}}.view(), MapMode::column, table_view(t), sums);
    CAPTURE(spacing);
    for (double v : sums.plane[0]) REQUIRE(v == doctest::Approx(1).epsilon(2e-3));
  }
}

TEST_CASE("a slice through a uniform lattice gives its density") {
  const MapKernelTables t = make_kernel_tables(MapKernel::cubic);
  std::vector<float> x, y, z, r, w;
  const float spacing = 1.5f, radius = 2.6f * spacing;
  for (float pz = -6; pz < 6; pz += spacing)
    for (float py = -8; py < 40; py += spacing)
      for (float px = -8; px < 40; px += spacing) {
        x.push_back(px);
        y.push_back(py);
        z.push_back(pz + 0.37f);
        r.push_back(radius);
        w.push_back(spacing * spacing * spacing * 2.0f);  // volume times a density of 2
      }
  MapSums sums(32, 32, 1);
  draw_map_host(testing::MapArrays{x, y, r, w, {}, z}.view(MapMode::slice), MapMode::slice, table_view(t), sums);
  for (double v : sums.plane[0]) REQUIRE(v == doctest::Approx(2).epsilon(5e-3));
}

TEST_CASE("the map's sums do not depend on the number of threads") {
  const MapKernelTables t = make_kernel_tables(MapKernel::cubic);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> place(-5.0f, 70.0f), size(0.2f, 30.0f);
  std::vector<float> x(5000), y(5000), r(5000), w(5000, 1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = place(random), y[i] = place(random), r[i] = size(random);
  const testing::MapArrays arrays{x, y, r, w, {}, {}};
  const MapSplats s = arrays.view();
  std::vector<std::vector<double>> maps;
  for (int threads : {1, 3}) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    MapSums sums(64, 64, 1);
    draw_map_host(s, MapMode::column, table_view(t), sums);
    omp_set_num_threads(before);
    maps.push_back(sums.plane[0]);
  }
  CHECK(maps[0] == maps[1]);
}

TEST_CASE("the vector units' rows of a large particle are the portable rows' to rounding") {
#if !defined(__AVX512F__) && !(defined(__AVX2__) && defined(__FMA__))
  MESSAGE(
      "built without AVX-512 or AVX2 (ARCH): add_centre_row is the portable row, the comparison is of it with "
      "itself");
#endif
  const MapKernelTables t = make_kernel_tables(MapKernel::wendland_c4);
  const KernelTableView k = table_view(t);
  std::mt19937 random(11);
  std::uniform_real_distribution<float> place(0.0f, 60.0f), size(8.0f, 40.0f), across(-1.0f, 1.0f);
  for (int trial = 0; trial < 200; ++trial) {
    const float radius = size(random), x = place(random), dy = across(random) * radius;
    const float inverse2 = 1.0f / (radius * radius);
    const RowPolynomial p = row_polynomial(k, inverse2 / 24.0f);
    // rows of 0 .. 40 pixels at any start: the vectors' masked ends
    const int from = int(place(random)), to = from + trial % 41;
    const CentreRow r{x, dy * dy * inverse2, inverse2, from, to};
    const double weight[2] = {1.5, -0.25};
    std::vector<double> a0(128, 1.0), a1(128, 2.0), b0 = a0, b1 = a1;
    double* const a[2] = {a0.data(), a1.data()};
    double* const b[2] = {b0.data(), b1.data()};
    add_centre_row(p, r, weight, 2, a);
    add_centre_row_portable(p, r, weight, 2, b);
    for (int i = 0; i < 128; ++i) {
      CAPTURE(i);
      CHECK(a0[std::size_t(i)] == doctest::Approx(b0[std::size_t(i)]).epsilon(1e-6));
      CHECK(a1[std::size_t(i)] == doctest::Approx(b1[std::size_t(i)]).epsilon(1e-6));
      if (i < from || i >= to) CHECK((a0[std::size_t(i)] == 1.0 && a1[std::size_t(i)] == 2.0));
    }
  }
}
