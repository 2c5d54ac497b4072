// Palette: reading `.pal` files (shipped ones and malformed ones written to a temporary
// directory) and the interpolation the colour stage relies on.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/palette.h"
#include "tests/support/test_support.h"

using splotch::Palette;
using splotch::Rgb;
using splotch::UserError;

using splotch::testing::TempDir;

namespace {

void check_rgb(Rgb actual, Rgb expected) {
  CHECK(actual.r == doctest::Approx(expected.r).epsilon(1e-6));
  CHECK(actual.g == doctest::Approx(expected.g).epsilon(1e-6));
  CHECK(actual.b == doctest::Approx(expected.b).epsilon(1e-6));
}

float luminance(Rgb c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

// black, red, white: entries at 0, 0.5 and 1
Palette three_entries() { return Palette("three", {{0, 0, 0}, {1, 0, 0}, {1, 1, 1}}); }

const char* const kShipped[] = {"fire", "ice", "bluered", "grey", "temperature"};

}  // namespace

TEST_CASE("Palette::read shipped palettes") {
  for (const char* name : kShipped) {
    CAPTURE(name);
    const Palette palette = Palette::read(std::string("testdata/palettes/") + name + ".pal");
    CHECK(palette.name() == name);
    CHECK(palette.size() >= 16);
    CHECK(palette.size() <= 256);
    for (int i = 0; i < palette.size(); ++i) {
      const Rgb c = palette.entry(i);
      CHECK((c.r >= 0 && c.r <= 1 && c.g >= 0 && c.g <= 1 && c.b >= 0 && c.b <= 1));
    }
  }
}

TEST_CASE("Palette::read shipped sequential palettes start dark") {
  // Empty space has colour value 0; it must stay dark in a density or temperature render.
  for (const char* name : {"fire", "ice", "grey", "temperature"}) {
    CAPTURE(name);
    const Palette palette = Palette::read(std::string("testdata/palettes/") + name + ".pal");
    CHECK(luminance(palette.at(0.0f)) < 0.02f);
    CHECK(luminance(palette.at(0.5f)) > 0.1f);
  }
}

TEST_CASE("Palette::read shipped grey is the identity and bluered is white in the middle") {
  const Palette grey = Palette::read("testdata/palettes/grey.pal");
  for (float v : {0.0f, 0.1f, 0.3337f, 0.5f, 0.9f, 1.0f}) check_rgb(grey.at(v), {v, v, v});

  const Palette bluered = Palette::read("testdata/palettes/bluered.pal");
  const Rgb mid = bluered.at(0.5f);
  CHECK(mid.r > 0.9f);
  CHECK(mid.g > 0.9f);
  CHECK(mid.b > 0.9f);
  CHECK(bluered.at(0.0f).b > bluered.at(0.0f).r);
  CHECK(bluered.at(1.0f).r > bluered.at(1.0f).b);
}

TEST_CASE("Palette::at") {
  const Palette palette = three_entries();

  SUBCASE("at the entries") {
    check_rgb(palette.at(0.0f), {0, 0, 0});
    check_rgb(palette.at(0.5f), {1, 0, 0});
    check_rgb(palette.at(1.0f), {1, 1, 1});
  }
  SUBCASE("between entries") {
    check_rgb(palette.at(0.25f), {0.5f, 0, 0});
    check_rgb(palette.at(0.75f), {1, 0.5f, 0.5f});
    check_rgb(palette.at(0.125f), {0.25f, 0, 0});
  }
  SUBCASE("clamped outside [0, 1]") {
    check_rgb(palette.at(-0.5f), {0, 0, 0});
    check_rgb(palette.at(1.5f), {1, 1, 1});
    check_rgb(palette.at(-std::numeric_limits<float>::infinity()), {0, 0, 0});
    check_rgb(palette.at(std::numeric_limits<float>::infinity()), {1, 1, 1});
  }
  SUBCASE("NaN counts as 0") { check_rgb(palette.at(std::numeric_limits<float>::quiet_NaN()), {0, 0, 0}); }
  SUBCASE("just below 1 stays between the last two entries") {
    const Rgb c = palette.at(std::nextafter(1.0f, 0.0f));
    CHECK(c.r == doctest::Approx(1.0f));
    CHECK(c.g <= 1.0f);
    CHECK(c.g > 0.99f);
  }
}

TEST_CASE("Palette::at with a single entry gives that colour everywhere") {
  const Palette palette("one", {{0.2f, 0.4f, 0.6f}});
  CHECK(palette.size() == 1);
  for (float v : {-1.0f, 0.0f, 0.3f, 1.0f, 2.0f}) check_rgb(palette.at(v), {0.2f, 0.4f, 0.6f});
}

TEST_CASE("Palette::Palette rejects an empty list") { CHECK_THROWS_AS(Palette("empty", {}), std::invalid_argument); }

TEST_CASE("Palette::read formats the original accepts") {
  const TempDir dir;

  SUBCASE("the value 256 gives 256/255") {
    const Palette palette = Palette::read(dir.write("p.pal", "x\n0100\n2\n0 0 0\n256 255 128\n"));
    check_rgb(palette.entry(1), {256.0f / 255.0f, 1.0f, 128.0f / 255.0f});
    CHECK(palette.at(1.0f).r == doctest::Approx(256.0f / 255.0f));
  }
  SUBCASE("a single entry, CRLF line ends, blank trailing lines, float values") {
    const Palette palette = Palette::read(dir.write("p.pal", "JASC-PAL\r\n0100\r\n1\r\n12.75 0 255\r\n\r\n\n  \n"));
    CHECK(palette.name() == "JASC-PAL");
    CHECK(palette.size() == 1);
    check_rgb(palette.at(0.7f), {12.75f / 255.0f, 0, 1});
  }
  SUBCASE("a name with spaces, extra spaces and tabs between numbers, no final newline") {
    const Palette palette = Palette::read(dir.write("p.pal", "my map \n0100\n 2 \n0\t0  0\n 255 0 0"));
    CHECK(palette.name() == "my map");
    check_rgb(palette.at(0.5f), {0.5f, 0, 0});
  }
}

TEST_CASE("Palette::read errors") {
  const TempDir dir;
  auto read_file = [&](const std::string& text) { return Palette::read(dir.write("x.pal", text)); };

  SUBCASE("missing file") {
    CHECK_THROWS_WITH_AS(
        Palette::read(dir.path("x.pal")),
        doctest::Contains(("cannot open palette '" + dir.path("x.pal") + "': No such file or directory").c_str()),
        UserError);
  }
  SUBCASE("a directory") {
    CHECK_THROWS_WITH_AS(Palette::read(dir.path("")), doctest::Contains("': Is a directory"), UserError);
  }
  SUBCASE("empty file") {
    CHECK_THROWS_WITH_AS(read_file(""), doctest::Contains("x.pal': the file is empty"), UserError);
  }
  SUBCASE("file ends in the header") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n"),
                         doctest::Contains("x.pal': the file ends after line 2; expected the number "
                                           "of colours on line 3"),
                         UserError);
  }
  SUBCASE("count is not a positive integer") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\nabc\n0 0 0\n"),
                         doctest::Contains("x.pal' line 3: the count 'abc' is not a positive integer"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n0\n"),
                         doctest::Contains("line 3: the count '0' is not a positive integer"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n-2\n0 0 0\n"),
                         doctest::Contains("line 3: the count '-2' is not a positive integer"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n2.5\n0 0 0\n"),
                         doctest::Contains("line 3: the count '2.5' is not a positive integer"), UserError);
  }
  SUBCASE("fewer colours than the count") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n3\n0 0 0\n1 1 1\n"),
                         doctest::Contains("x.pal': the header says 3 colours but the file has 2"), UserError);
  }
  SUBCASE("more colours than the count") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n0 0 0\n1 1 1\n\n"),
                         doctest::Contains("x.pal': the header says 1 colours but the file has 2"), UserError);
  }
  SUBCASE("an entry with two numbers") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n4\n0 0 0\n1 1 1\n2 2 2\n12 40\r\n"),
                         doctest::Contains("x.pal' line 7: expected three numbers R G B, got '12 40'"), UserError);
  }
  SUBCASE("an entry with four numbers or a word") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n1 2 3 4\n"),
                         doctest::Contains("line 4: expected three numbers R G B, got '1 2 3 4'"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n1 red 3\n"),
                         doctest::Contains("line 4: expected three numbers R G B, got '1 red 3'"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n1 nan 3\n"),
                         doctest::Contains("line 4: expected three numbers R G B, got '1 nan 3'"), UserError);
  }
  SUBCASE("values outside [0, 256]") {
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n2\n0 0 0\n0 300 0\n"),
                         doctest::Contains("x.pal' line 5: the value '300' is outside 0..256"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n-1 0 0\n"),
                         doctest::Contains("line 4: the value '-1' is outside 0..256"), UserError);
    CHECK_THROWS_WITH_AS(read_file("fire\n0100\n1\n0 0 256.5\n"),
                         doctest::Contains("line 4: the value '256.5' is outside 0..256"), UserError);
  }
}
