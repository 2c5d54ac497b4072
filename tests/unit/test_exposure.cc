// Pictures that went wrong say so (splotch/stages/exposure.h): a picture mostly saturated or nearly black
// is a warning naming the exposure that would fix it; exposure = auto chooses it (a_eq_e), writes it
// to used.par, whose re-render gives the same bytes; a given factor multiplies every brightness.
// The cases that run bin/splotch as a user does: tests/end_to_end/test_exposure_run.cc.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "io/image_reader.h"
#include "splotch/stages/exposure.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

// The percentile is found from a histogram on all threads: it must be the value that a selection
// over all lit values finds, ties, unlit, negative and non-finite pixels and a stride included.
TEST_CASE("exposure: the 99.5th percentile found on all threads is the one std::nth_element finds") {
  std::mt19937 rng(5);
  std::lognormal_distribution<float> bright(0.0f, 3.0f);
  for (int width : {1, 7, 300, 1500}) {
    Image sums(width, 700);
    const std::size_t pixels = std::size_t(width) * 700;
    for (std::size_t p = 0; p < pixels; ++p) {
      const unsigned kind = rng() % 10;
      const float v = kind == 0                  ? 0.0f
                      : kind == 1                ? -bright(rng)
                      : kind == 2                ? 3.25f  // many ties
                      : kind == 3 && p % 97 == 0 ? std::numeric_limits<float>::infinity()
                                                 : bright(rng);
      sums.rgb[3 * p + rng() % 3] = v;
    }
    for (std::size_t stride : {std::size_t(1), std::size_t(3), std::size_t(64)}) {
      std::vector<float> lit;
      for (std::size_t p = 0; p < pixels; p += stride) {
        const float m = std::max({sums.rgb[3 * p], sums.rgb[3 * p + 1], sums.rgb[3 * p + 2]});
        if (m > 0 && std::isfinite(m)) lit.push_back(m);
      }
      REQUIRE(!lit.empty());
      const std::size_t k = std::min(lit.size() - 1, std::size_t(0.995 * double(lit.size())));
      std::nth_element(lit.begin(), lit.begin() + std::ptrdiff_t(k), lit.end());
      INFO(width << " wide, stride " << stride);
      CHECK(automatic_exposure(sums, stride) == std::log(10.0) / double(lit[k]));
    }
  }
}

TEST_CASE("exposure: the 99.5th percentile of the lit pixels goes to 0.9; levels of a picture") {
  Image sums(100, 10);  // 1000 pixels: 200 lit with brightest channels 1, 2, ..., 200
  for (int k = 0; k < 200; ++k) sums.rgb[3 * std::size_t(k) + std::size_t(k % 3)] = float(k + 1);
  // The 99.5th percentile of 200 values (index 199 * ... = 199): 200.
  CHECK(automatic_exposure(sums) == doctest::Approx(std::log(10.0) / 200.0));
  CHECK(automatic_exposure(Image(4, 4)) == 0.0);
  scale(sums, 0.5);
  CHECK(sums.rgb[3 * 199 + 1] == 100.0f);

  Image picture(10, 10);
  for (int p = 0; p < 40; ++p) picture.rgb[3 * std::size_t(p)] = 1.0f;  // 40 of 100 pixels white in red
  picture.rgb[3 * 50 + 2] = 0.5f;
  PictureLevels l = measure_levels(picture);
  CHECK(l.saturated_fraction == doctest::Approx(0.4));
  CHECK(l.brightest == 255);
  CHECK(level_warning(l, 0.25, true, 0.2f) ==
        "40% of the picture is saturated (white in some colour): exposure = 0.25 (every brightness times that), or "
        "exposure = auto, would put its brightest 0.5% just below white");
  CHECK(level_warning(l, 0, false, 0.2f) ==
        "40% of the picture is saturated (white in some colour): lower the "
        "brightnesses (brightnessN)");
  Image dark(10, 10);
  dark.rgb[7] = 0.04f;  // 10 of 255
  l = measure_levels(dark);
  CHECK(l.brightest == 10);
  CHECK(l.saturated_fraction == 0.0);
  CHECK(level_warning(l, 20, true, 0.2f)
            .rfind("the picture is nearly black (its brightest value is 10 of 255): "
                   "exposure = 20 ",
                   0) == 0);
  CHECK(level_warning(l, 0, false, 0.2f).find("lower gray_absorption") != std::string::npos);
  // a_eq_e = FALSE has no factor to suggest: how much to raise the brightnesses, as a start.
  CHECK(level_warning(l, 0, false, 0.2f).find("raise the brightnesses (brightnessN), about 23 times as a start") !=
        std::string::npos);
  Image black(10, 10);
  CHECK(level_warning(measure_levels(black), 0, false, 0.2f).find("a hundredfold or more as a start") !=
        std::string::npos);
  // Neither: no word.
  dark.rgb[7] = 0.5f;
  CHECK(level_warning(measure_levels(dark), 1, true, 0.2f).empty());
}

TEST_CASE("exposure: nearly black is judged by how much of the picture is lit, not by its brightest pixel alone") {
  // 100 x 100: one white dot of 4 pixels (0.04%), the rest black.
  Image dot(100, 100);
  for (int p : {0, 1, 100, 101}) dot.rgb[3 * std::size_t(p)] = 1.0f;
  PictureLevels l = measure_levels(dot);
  CHECK(l.brightest == 255);
  CHECK(l.lit_fraction == doctest::Approx(0.0004));
  CHECK(l.touched_fraction == doctest::Approx(0.0004));
  CHECK(level_warning(l, 0, true, 0.2f)
            .rfind("the picture is nearly black: only 0.04% of its pixels are lit (5% of "
                   "white or more): the particles cover a speck of the view; bring the "
                   "camera closer",
                   0) == 0);
  // Many pixels touched, few lit: the brightness is short, and the exposure that fixes it is named.
  for (std::size_t p = 0; p < 5000; ++p) dot.rgb[3 * p + 1] = 0.02f;  // 5 of 255
  l = measure_levels(dot);
  CHECK(l.touched_fraction == doctest::Approx(0.5));
  CHECK(level_warning(l, 8, true, 0.2f).find(": exposure = 8 (every brightness times that)") != std::string::npos);
  // Intensities all below the range's bottom: said instead, since no brightness helps.
  CHECK(level_warning(measure_levels(Image(10, 10)), 8, true, 0.2f, "every intensity of type 0 lies below") ==
        "the picture is nearly black (its brightest value is 0 of 255): every intensity of type 0 lies below");
  // A tenth of the picture lit: no word.
  Image tenth(100, 100);
  for (std::size_t p = 0; p < 1000; ++p) tenth.rgb[3 * p] = 0.5f;
  CHECK(level_warning(measure_levels(tenth), 1, true, 0.2f).empty());
}
