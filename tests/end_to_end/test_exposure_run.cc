// Pictures that went wrong say so (splotch/stages/exposure.h): a picture mostly saturated or nearly black
// is a warning naming the exposure that would fix it; exposure = auto chooses it (a_eq_e), writes it
// to used.par, whose re-render gives the same bytes; a given factor multiplies every brightness.
// Here the cases that run bin/splotch as a user does; the others: tests/unit/test_exposure.cc.
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
