// The colour stage: palette look-up or vector colour, times intensity and brightness.
#include <doctest/doctest.h>

#include "splotch/stages/colour.h"

using namespace splotch;

TEST_CASE("colourize: scalar types use the palette, vector types their own colour, times I and brightness") {
  Palette ramp("ramp", {{0, 0, 0}, {1, 0.5f, 0.25f}});
  Splats s;
  s.x = {0, 0, 0};
  s.colour[0] = {0.5f, 1.0f, 0.2f};
  s.colour[1] = {0.0f, 0.0f, 0.4f};
  s.colour[2] = {0.0f, 0.0f, 0.6f};
  s.intensity = {2.0f, 1.0f, 0.5f};
  s.type = {0, 0, 1};
  colourize(s, {{false, &ramp, 1.0f}, {true, nullptr, 3.0f}});
  CHECK(s.colour[0][0] == doctest::Approx(1.0));  // 0.5 * 2
  CHECK(s.colour[1][0] == doctest::Approx(0.5));
  CHECK(s.colour[2][0] == doctest::Approx(0.25));
  CHECK(s.colour[0][1] == doctest::Approx(1.0));
  CHECK(s.colour[0][2] == doctest::Approx(0.2 * 1.5));
  CHECK(s.colour[1][2] == doctest::Approx(0.4 * 1.5));
  CHECK(s.colour[2][2] == doctest::Approx(0.6 * 1.5));
  CHECK(s.intensity.empty());  // folded into e
}

TEST_CASE("colourize: scalar-only splats get green and blue arrays") {
  Palette grey("grey", {{0, 0, 0}, {1, 1, 1}});
  Splats s;
  s.x = {0, 0};
  s.colour[0] = {0.25f, 0.75f};
  s.intensity = {1.0f, 1.0f};
  colourize(s, {{false, &grey, 2.0f}});
  REQUIRE(s.colour[2].size() == 2);
  CHECK(s.colour[2][1] == doctest::Approx(1.5));
}
