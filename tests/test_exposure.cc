// Pictures that went wrong say so (splotch/stages/exposure.h): a picture mostly saturated or nearly black
// is a warning naming the exposure that would fix it; exposure = auto chooses it (a_eq_e), writes it
// to used.par, whose re-render gives the same bytes; a given factor multiplies every brightness.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "io/image_reader.h"
#include "splotch/stages/exposure.h"
#include "tests/test_support.h"

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

TEST_CASE("bin/splotch: a dark or saturated picture is a warning; exposure = auto and a given factor") {
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 20000 --out " + dir.path("demo.bin")).status == 0);
  const std::string base = "testdata/demo.par infile=" + dir.path("demo.bin") + " xres=200 colorbar=TRUE ";
  auto run = [&](const std::string& args, const std::string& image) {
    return run_command("bin/splotch " + base + args + " outfile=" + dir.path(image));
  };
  // The demo's own brightness: a good picture, no word.
  CommandResult good = run("", "good.png");
  REQUIRE(good.status == 0);
  CHECK(good.err.find("picture") == std::string::npos);
  // Far too dim and far too bright: each says so, with the factor.
  CommandResult dim = run("brightness0=0.0005", "dim.png");
  CHECK(dim.status == 0);
  CHECK(dim.err.find("the picture is nearly black (its brightest value is ") != std::string::npos);
  CHECK(dim.err.find("or exposure = auto, would put its brightest 0.5% just below white") != std::string::npos);
  CommandResult bright = run("brightness0=5000", "bright.png");
  CHECK(bright.err.find("% of the picture is saturated (white in some colour): exposure = ") != std::string::npos);
  // exposure = auto rescues both to the same picture, and writes its factor down.
  for (const char* image : {"dim_auto.png", "bright_auto.png"}) {
    CommandResult a = run(
        std::string(image) == "dim_auto.png" ? "brightness0=0.0005 exposure=auto" : "brightness0=5000 exposure=auto",
        image);
    CHECK(a.status == 0);
    CHECK(a.err.find("picture") == std::string::npos);
    CHECK(a.out.find("note: exposure = auto: every brightness times ") != std::string::npos);
    CHECK(read_file(dir.path(std::string(image) + ".used.par")).find("  # auto: the 99.5th percentile") !=
          std::string::npos);
  }
  const Image8 from_dim = read_image(dir.path("dim_auto.png")), from_bright = read_image(dir.path("bright_auto.png"));
  int worst = 0;
  for (std::size_t i = 0; i < from_dim.rgb.size(); ++i)
    worst = std::max(worst, std::abs(int(from_dim.rgb[i]) - int(from_bright.rgb[i])));
  CHECK(worst <= 1);
  // The record renders the same bytes (the factor, not auto, is in it).
  const std::string first = read_file(dir.path("dim_auto.png"));
  CHECK(run_command("bin/splotch " + dir.path("dim_auto.png.used.par")).status == 0);
  CHECK(read_file(dir.path("dim_auto.png")) == first);
  // With an exposure given, the warning names the exposure that fixes the picture (not that times
  // the one given): the one exposure = auto chose.
  auto number_after = [](const std::string& text, const std::string& what) {
    const std::size_t at = text.find(what);
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + what.size()));
  };
  CommandResult given = run("brightness0=0.0005 exposure=0.01", "given.png");
  const double named = number_after(given.err, "exposure = ");
  const double chosen = number_after(read_file(dir.path("dim_auto.png.used.par")), "\nexposure = ");
  CHECK(chosen > 0);
  CHECK(named == doctest::Approx(chosen).epsilon(0.05));
  // A given factor is every brightness times it, for a_eq_e = FALSE too.
  CHECK(run("a_eq_e=FALSE brightness0=2 exposure=3", "f3.png").status == 0);
  CHECK(run("a_eq_e=FALSE brightness0=6", "b6.png").status == 0);
  CHECK(read_file(dir.path("f3.png")) == read_file(dir.path("b6.png")));
  // auto needs a_eq_e; nonsense is an error.
  CommandResult no = run("a_eq_e=FALSE exposure=auto", "no.png");
  CHECK(no.status == 1);
  CHECK(no.err.find("exposure = auto needs a_eq_e = TRUE") != std::string::npos);
  CHECK(run("exposure=-2", "neg.png").err.find("exposure = -2 is not auto, FALSE or a positive factor") !=
        std::string::npos);
}
