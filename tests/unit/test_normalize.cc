// The normalize stage on hand-computed cases (docs/design.md section 4, "Normalize").
#include <doctest/doctest.h>

#include <cmath>

#include "splotch/stages/normalize.h"

using namespace splotch;

namespace {

ParticleSet with_values(std::vector<float> colour, std::vector<float> intensity) {
  ParticleSet p;
  p.colour[0].assign(colour.begin(), colour.end());
  p.intensity.assign(intensity.begin(), intensity.end());
  p.x.assign(p.intensity.size(), 0.0f);
  return p;
}

}  // namespace

TEST_CASE("normalize: linear ranges map the data range onto [0, 1]") {
  ParticleSet p = with_values({2, 4, 6}, {10, 30, 20});
  auto ranges = normalize(p, {TypeNormalization{}}).used;
  CHECK(p.colour[0] == std::vector<float>{0.0f, 0.5f, 1.0f});
  CHECK(p.intensity == std::vector<float>{0.0f, 1.0f, 0.5f});
  CHECK(ranges[0].colour.min == 2.0f);
  CHECK(ranges[0].colour.max == 6.0f);
}

TEST_CASE("normalize: log10, with non-positive values at -38 and out of the range") {
  TypeNormalization t;
  t.color_log = t.intensity_log = true;
  ParticleSet p = with_values({10, 1000, 0, -5, 100}, {1, 1, 1, 1, 1});
  auto ranges = normalize(p, {t}).used;
  CHECK(ranges[0].colour.min == doctest::Approx(1.0));
  CHECK(ranges[0].colour.max == doctest::Approx(3.0));
  CHECK(p.colour[0][0] == doctest::Approx(0.0));
  CHECK(p.colour[0][1] == doctest::Approx(1.0));
  CHECK(p.colour[0][2] == 0.0f);  // -38 clamps to the minimum
  CHECK(p.colour[0][3] == 0.0f);
  CHECK(p.colour[0][4] == doctest::Approx(0.5));
  CHECK(p.intensity == std::vector<float>(5, 1.0f));  // max == min -> 1
}

TEST_CASE("normalize: asinh and user bounds") {
  TypeNormalization t;
  t.color_asinh = true;
  t.color_min = 0.0f;
  t.color_max = float(std::asinh(10.0));
  t.intensity_min = 0.0f;  // only the minimum given: the maximum comes from the data
  ParticleSet p = with_values({0, 10, 100, -3}, {2, 4, 8, 6});
  normalize(p, {t});
  CHECK(p.colour[0][0] == doctest::Approx(0.0));
  CHECK(p.colour[0][1] == doctest::Approx(1.0));
  CHECK(p.colour[0][2] == 1.0f);  // clamped
  CHECK(p.colour[0][3] == 0.0f);
  CHECK(p.intensity[0] == doctest::Approx(0.25));
  CHECK(p.intensity[2] == doctest::Approx(1.0));
}

TEST_CASE("normalize: vector colours share one range over the three components") {
  TypeNormalization t;
  t.vector_colour = true;
  ParticleSet p = with_values({0, 1}, {1, 1});
  p.colour[1] = {2, 3};
  p.colour[2] = {4, 8};
  normalize(p, {t});
  CHECK(p.colour[0] == std::vector<float>{0.0f, 0.125f});
  CHECK(p.colour[1] == std::vector<float>{0.25f, 0.375f});
  CHECK(p.colour[2] == std::vector<float>{0.5f, 1.0f});
}

TEST_CASE("normalize: each type has its own range and settings") {
  TypeNormalization scalar, logged;
  logged.color_log = true;
  ParticleSet p = with_values({1, 3, 10, 1000}, {1, 2, 3, 4});
  p.type = {0, 0, 1, 1};
  auto ranges = normalize(p, {scalar, logged}).used;
  CHECK(p.colour[0] == std::vector<float>{0.0f, 1.0f, 0.0f, 1.0f});
  CHECK(p.intensity == std::vector<float>{0.0f, 1.0f, 0.0f, 1.0f});
  CHECK(ranges[1].colour.max == doctest::Approx(3.0));
}

TEST_CASE("normalize: the split steps give the same result as the whole, and reduce like MPI would") {
  ParticleSet a = with_values({1, 5}, {1, 2}), b = with_values({3, 9}, {0, 4});
  auto ra = transform_and_measure(a, {TypeNormalization{}});
  auto rb = transform_and_measure(b, {TypeNormalization{}});
  ra[0].colour.merge(rb[0].colour);
  ra[0].intensity.merge(rb[0].intensity);
  auto chosen = choose_ranges(ra, {TypeNormalization{}});
  apply_ranges(a, chosen, {TypeNormalization{}});
  apply_ranges(b, chosen, {TypeNormalization{}});
  CHECK(a.colour[0] == std::vector<float>{0.0f, 0.5f});
  CHECK(b.colour[0] == std::vector<float>{0.25f, 1.0f});
  CHECK(b.intensity == std::vector<float>{0.0f, 1.0f});
}
