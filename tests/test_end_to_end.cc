// End to end: bin/make_demo writes the particles, bin/splotch renders each case of
// tests/e2e_cases.sh, and the picture must equal the stored reference (testdata/reference/,
// written by tests/make_references.sh) within the stated tolerance: no channel of any pixel
// more than 2 grey levels off. The control image (the first case with fov one degree wider) must
// fail the same comparison; otherwise the comparison could not see a real change.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "io/image_reader.h"
#include "tests/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

const int tolerance_grey_levels = 2;

struct Case {
  std::string name, demo_args;
};

std::vector<Case> cases() {
  std::ifstream in("tests/e2e_cases.sh");
  std::vector<Case> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Case c;
    words >> c.name;
    std::getline(words, c.demo_args);
    out.push_back(c);
  }
  return out;
}

struct Difference {
  int largest = 0;            // grey levels
  std::size_t over_tolerance = 0;  // channel values beyond the tolerance
};

Difference compare(const Image8& a, const Image8& b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  Difference d;
  for (std::size_t i = 0; i < a.rgb.size(); ++i) {
    const int diff = std::abs(int(a.rgb[i]) - int(b.rgb[i]));
    d.largest = std::max(d.largest, diff);
    d.over_tolerance += diff > tolerance_grey_levels;
  }
  return d;
}

// Renders a case into `dir` and returns the image path.
std::string render_case(const Case& c, const TempDir& dir) {
  const std::string data = dir.file(c.name + ".bin"), image = dir.file(c.name + ".png");
  CommandResult made = run_command("bin/make_demo --out " + data + " " + c.demo_args);
  REQUIRE(made.status == 0);
  CommandResult r = run_command("bin/splotch --quiet testdata/e2e/" + c.name + ".par infile=" + data + " outfile=" + image);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return image;
}

}  // namespace

TEST_CASE("end to end: each case equals its stored reference image") {
  TempDir dir;
  const std::vector<Case> all = cases();
  REQUIRE(all.size() == 3);
  for (const Case& c : all) {
    CAPTURE(c.name);
    const Image8 rendered = read_image(render_case(c, dir));
    const Image8 reference = read_image("testdata/reference/" + c.name + ".png");
    const Difference d = compare(rendered, reference);
    CHECK(d.largest <= tolerance_grey_levels);
    // The references are not black: a broken renderer drawing nothing cannot pass.
    int brightest = 0;
    for (auto v : reference.rgb) brightest = std::max(brightest, int(v));
    CAPTURE(brightest);
    CHECK(brightest > 60);
  }
}

TEST_CASE("end to end: the control image (fov one degree wider) fails the comparison") {
  TempDir dir;
  const Image8 rendered = read_image(render_case(cases().front(), dir));
  const Image8 control = read_image("testdata/reference/control_scalar_colorbar_fov56.png");
  const Difference d = compare(rendered, control);
  CHECK(d.largest > tolerance_grey_levels);
  CHECK(d.over_tolerance > 1000);
}
