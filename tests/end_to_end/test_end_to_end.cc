// End to end: bin/make_demo writes the particles, bin/splotch renders each case of
// tests/end_to_end/e2e_cases.sh, and the picture must equal the stored reference (testdata/reference/,
// written by tests/make_references.sh) within the stated tolerance: no channel of any pixel
// more than 2 grey levels off. The control image (the first case with fov one degree wider) must
// fail the same comparison; otherwise the comparison could not see a real change.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "cuda/cuda_renderer.h"
#include "io/image_reader.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

const int tolerance_grey_levels = 2;

struct Case {
  std::string name, demo_args;
};

std::vector<Case> cases() {
  std::ifstream in("tests/end_to_end/e2e_cases.sh");
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
  int largest = 0;                 // grey levels
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

// Renders a case into `dir` and returns the image path; `extra` are more key=value arguments.
std::string render_case(const Case& c, const TempDir& dir, const std::string& extra = "", const std::string& par = "") {
  std::string tag = extra;
  for (char& ch : tag)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  const std::string data = dir.file(c.name + ".bin"), image = dir.file(c.name + tag + ".png");
  if (!file_exists(data)) {
    CommandResult made = run_command("bin/make_demo --out " + data + " " + c.demo_args);
    REQUIRE(made.status == 0);
  }
  const std::string par_file = par.empty() ? "testdata/e2e/" + c.name + ".par" : par;
  CommandResult r =
      run_command("bin/splotch --quiet " + par_file + " infile=" + data + " outfile=" + image + " " + extra);
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

TEST_CASE("end to end on the GPU: each case and the demo (both a_eq_e) give the host's picture" *
          doctest::skip(testing::no_gpu())) {
  TempDir dir;
  std::vector<std::pair<Case, std::string>> all;  // case, parameter file
  for (const Case& c : cases()) all.push_back({c, ""});
  all.push_back({{"demo", ""}, "testdata/demo.par"});
  for (const auto& [c, par] : all)
    for (const std::string a_eq_e : {"", "a_eq_e=FALSE"}) {
      if (par.empty() && !a_eq_e.empty()) continue;  // the cases fix a_eq_e themselves
      CAPTURE(c.name);
      CAPTURE(a_eq_e);
      const Image8 host = read_image(render_case(c, dir, "renderer=host " + a_eq_e, par));
      for (const std::string algorithm : {"btile", "fragment"}) {
        CAPTURE(algorithm);
        const Image8 gpu =
            read_image(render_case(c, dir, "renderer=cuda cuda_algorithm=" + algorithm + " " + a_eq_e, par));
        // Within 1e-4 of the maximum in the float image: at most one grey level after rounding.
        CHECK(compare(gpu, host).largest <= 1);
      }
    }
}
