// knn_hsml: smoothing lengths from the k nearest neighbours, against an obvious O(N^2) search on
// small sets (uniform, clustered, flat, open and periodic), and the edge cases by hand.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "errors/user_error.h"
#include "splotch/load/knn_hsml.h"

using namespace splotch;

namespace {

struct Particles {
  std::vector<float> x, y, z;
  std::size_t size() const { return x.size(); }
  void add(double px, double py, double pz) {
    x.push_back(float(px));
    y.push_back(float(py));
    z.push_back(float(pz));
  }
};

struct Estimate {
  std::vector<float> hsml;
  std::size_t coincident = 0;
};

Estimate estimate(const Particles& p, int neighbours, double box = 0, const ProgressCallback& progress = {}) {
  Estimate e;
  e.hsml.assign(p.size(), -1.0f);
  e.coincident =
      knn_hsml(p.x.data(), p.y.data(), p.z.data(), p.size(), neighbours, box, e.hsml.data(), progress).coincident;
  return e;
}

// The reference for particle i: all distances (minimum image in a periodic box), in double, and
// the neighbours-th smallest, the particle's own distance 0 included.
double brute_force_hsml(const Particles& p, std::size_t i, int neighbours, double box) {
  const std::size_t n = p.size(), k = std::min(std::size_t(neighbours), n);
  std::vector<double> d(n);
  for (std::size_t j = 0; j < n; ++j) {
    double dx = double(p.x[j]) - p.x[i], dy = double(p.y[j]) - p.y[i], dz = double(p.z[j]) - p.z[i];
    if (box > 0) {
      dx -= box * std::round(dx / box);
      dy -= box * std::round(dy / box);
      dz -= box * std::round(dz / box);
    }
    d[j] = std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(k - 1), d.end());
  return d[k - 1];
}

// Float positions and distances differ from the double reference by rounding only: a few parts in
// 10^7 of the distance, plus a few float steps of the coordinates (the periodic wrap moves those).
// Every `stride`-th particle is checked.
void check_matches_brute_force(const Particles& p, const std::vector<float>& hsml, int neighbours, double box,
                               double coordinate_scale, std::size_t stride = 1) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < p.size(); i += stride) {
    const double expected = brute_force_hsml(p, i, neighbours, box);
    const double tolerance = 2e-6 * expected + 4e-7 * coordinate_scale;
    if (std::fabs(hsml[i] - expected) > tolerance) {
      if (wrong++ < 5) CHECK_MESSAGE(false, "particle ", i, ": hsml ", hsml[i], ", brute force ", expected);
    }
  }
  CHECK(wrong == 0);
}

void check_matches_brute_force(const Particles& p, int neighbours, double box, double coordinate_scale) {
  const Estimate e = estimate(p, neighbours, box);
  CHECK(e.coincident == 0);
  check_matches_brute_force(p, e.hsml, neighbours, box, coordinate_scale);
}

Particles uniform(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  Particles p;
  for (std::size_t i = 0; i < n; ++i) p.add(u(rng), u(rng), u(rng));
  return p;
}

// Gaussian blobs from 10^-3 to 10^-1 of the box wide (density contrasts of 10^6 and more) on a thin
// uniform background, like halos in a cosmological box. Blob centres near the box edges, so that
// blobs straddle them; positions are not wrapped (some lie outside [0, side)).
Particles clustered(std::size_t n, double side, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, side);
  std::normal_distribution<double> gauss(0, 1);
  const double centre[][3] = {{0.5, 0.5, 0.5}, {0.01, 0.99, 0.5}, {0.0, 0.0, 0.0}, {0.3, 0.7, 0.995}, {0.8, 0.2, 0.3}};
  const double width[] = {0.001, 0.01, 0.03, 0.1, 0.004};
  Particles p;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t blob = i % 6;
    if (blob == 5) {
      p.add(u(rng), u(rng), u(rng));
      continue;
    }
    const double w = width[blob] * side;
    p.add(centre[blob][0] * side + w * gauss(rng), centre[blob][1] * side + w * gauss(rng),
          centre[blob][2] * side + w * gauss(rng));
  }
  return p;
}

}  // namespace

TEST_CASE("knn_hsml: equals a brute-force search on uniform particles") {
  const Particles p = uniform(3000, 0, 1, 1);
  for (double box : {0.0, 1.0})
    for (int k : {2, 8, 32}) {
      CAPTURE(box);
      CAPTURE(k);
      check_matches_brute_force(p, k, box, 1);
    }
}

TEST_CASE("knn_hsml: equals a brute-force search on clustered particles") {
  // Periodic: blobs across the edges, particles outside the box.
  const Particles p = clustered(4000, 50, 2);
  for (double box : {0.0, 50.0})
    for (int k : {2, 5, 32, 64}) {
      CAPTURE(box);
      CAPTURE(k);
      check_matches_brute_force(p, k, box, 50);
    }
}

TEST_CASE("knn_hsml: equals a brute-force search near and beyond the edges of a periodic box") {
  // A thin layer on every face of a box of side 8, up to 2% of the side outside and inside it:
  // the nearest neighbours of most particles lie across the boundary.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 8), edge(-0.16, 0.16);
  Particles p;
  for (int i = 0; i < 2000; ++i) {
    const double e = edge(rng);
    const double across[] = {e, 8 + e, e < 0 ? 8 + e : e};  // near 0, near 8 (either side), inside
    const double at = across[i % 3];
    switch (i % 5 % 3) {
      case 0: p.add(at, u(rng), u(rng)); break;
      case 1: p.add(u(rng), at, u(rng)); break;
      default: p.add(u(rng), u(rng), at); break;
    }
  }
  for (int k : {2, 32}) {
    CAPTURE(k);
    check_matches_brute_force(p, k, 8, 8);
  }
}

TEST_CASE("knn_hsml: equals a brute-force search with fewer particles than neighbours, or barely more") {
  const Particles p = uniform(20, 0, 1, 9);
  for (int k : {19, 20, 21, 32}) {
    CAPTURE(k);
    check_matches_brute_force(p, k, 0, 1);
    check_matches_brute_force(p, k, 1, 1);
  }
}

TEST_CASE("knn_hsml: equals a brute-force search on flat and on extremely dense sets") {
  SUBCASE("all particles in one plane (z = 0)") {
    Particles p = uniform(2000, 0, 1, 4);
    std::fill(p.z.begin(), p.z.end(), 0.0f);
    check_matches_brute_force(p, 16, 0, 1);
  }
  SUBCASE("a clump 10^-8 across, finer than the Morton grid, in a unit box") {
    // Its particles share one key: the tree splits them at their medians instead.
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0, 1), tiny(0, 1e-8);
    Particles p;
    for (int i = 0; i < 1500; ++i) p.add(1e-3 + tiny(rng), 1e-3 + tiny(rng), 1e-3 + tiny(rng));
    for (int i = 0; i < 500; ++i) p.add(u(rng), u(rng), u(rng));
    check_matches_brute_force(p, 32, 0, 1e-3);
  }
}

TEST_CASE("knn_hsml: k = 2 gives the nearest-neighbour distance, fewer particles than k the farthest") {
  Particles line;  // at x = 0, 1, 3
  line.add(0, 0, 0);
  line.add(1, 0, 0);
  line.add(3, 0, 0);
  CHECK(estimate(line, 2).hsml == std::vector<float>{1, 1, 2});
  CHECK(estimate(line, 3).hsml == std::vector<float>{3, 2, 3});
  CHECK(estimate(line, 32).hsml == std::vector<float>{3, 2, 3});
  // In a periodic box of side 4, 0 and 3 are 1 apart.
  CHECK(estimate(line, 2, 4).hsml == std::vector<float>{1, 1, 1});
  CHECK(estimate(line, 32, 4).hsml == std::vector<float>{1, 2, 2});
  Particles two;
  two.add(1, 2, 3);
  two.add(1, 2, 5);
  CHECK(estimate(two, 2).hsml == std::vector<float>{2, 2});
  CHECK(estimate(two, 100).hsml == std::vector<float>{2, 2});
}

TEST_CASE("knn_hsml: particles at one point get the smallest positive hsml of the set") {
  Particles p;
  for (int i = 0; i < 3; ++i) p.add(0, 0, 0);
  p.add(1, 0, 0);
  p.add(0, 2, 0);
  const Estimate nearest = estimate(p, 2);
  CHECK(nearest.hsml == std::vector<float>{1, 1, 1, 1, 2});
  CHECK(nearest.coincident == 3);
  // With four neighbours the three have another particle in their sphere.
  const Estimate four = estimate(p, 4);
  CHECK(four.hsml == std::vector<float>{1, 1, 1, 1, 2});
  CHECK(four.coincident == 0);
  CHECK(estimate(p, 3).coincident == 3);  // the two others at distance 0 fill the sphere
}

TEST_CASE("knn_hsml: errors the user can act on") {
  Particles one;
  one.add(0, 0, 0);
  CHECK_THROWS_WITH_AS(estimate(one, 32), doctest::Contains("need at least 2 particles, got 1"), UserError);
  CHECK_THROWS_WITH_AS(estimate(Particles{}, 32), doctest::Contains("got 0"), UserError);
  Particles p = uniform(10, 0, 1, 6);
  CHECK_THROWS_WITH_AS(estimate(p, 1), doctest::Contains("neighbour count must be at least 2"), UserError);
  CHECK_THROWS_WITH_AS(estimate(p, 32, -1),
                       doctest::Contains("periodic box size must be positive (or 0 for open boundaries), got -1"),
                       UserError);
  p.x[7] = 0.5f;
  p.z[7] = 2.0f;
  p.y[7] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(estimate(p, 4), doctest::Contains("particle 7 has a position that is not finite (0.5, nan, 2)"),
                       UserError);
  p.y[7] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH_AS(estimate(p, 4, 1), doctest::Contains("particle 7"), UserError);
  Particles stack;
  for (int i = 0; i < 40; ++i) stack.add(2, 2, 2);
  CHECK_THROWS_WITH_AS(estimate(stack, 32), doctest::Contains("shares its position with at least 31 others"),
                       UserError);
}

TEST_CASE("knn_hsml: the result does not depend on the number of threads, and is right in parallel too") {
  // Enough particles for the parallel sort, tree and search (small sets are done in one thread).
  const Particles p = clustered(60000, 100, 7);
  for (double box : {0.0, 100.0}) {
    CAPTURE(box);
    const int before = omp_get_max_threads();
    omp_set_num_threads(1);
    const Estimate one = estimate(p, 32, box);
    omp_set_num_threads(2);
    const Estimate two = estimate(p, 32, box);
    omp_set_num_threads(3);
    const Estimate three = estimate(p, 32, box);
    omp_set_num_threads(before);
    CHECK(one.hsml == two.hsml);
    CHECK(one.hsml == three.hsml);
    check_matches_brute_force(p, two.hsml, 32, box, 100, 97);
  }
}

TEST_CASE("knn_hsml: progress rises from the calling thread to 1") {
  const Particles p = clustered(50000, 10, 8);
  std::vector<double> seen;
  bool other_thread = false;
  estimate(p, 32, 0, [&](double f) {
    if (omp_get_thread_num() != 0) other_thread = true;
    seen.push_back(f);
  });
  CHECK_FALSE(other_thread);
  REQUIRE(seen.size() > 3);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.front() >= 0);
  CHECK(seen.back() == 1.0);
}
