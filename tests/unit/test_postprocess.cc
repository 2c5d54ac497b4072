// Post-processing: 1 - exp(-S), the colour bar, gamma/contrast/brightness, in the original's order.
#include <doctest/doctest.h>

#include <cmath>

#include "splotch/stages/postprocess.h"

using namespace splotch;

TEST_CASE("postprocess: a_eq_e maps S to 1 - exp(-S); a_eq_e = FALSE leaves the image") {
  Image img(2, 1);
  img.rgb = {0.0f, 1.0f, 2.0f, 1e-8f, 50.0f, 0.5f};
  Image copy = img;
  postprocess(img, PostOptions{});
  CHECK(img.rgb[1] == doctest::Approx(1 - std::exp(-1.0)));
  CHECK(img.rgb[3] == doctest::Approx(1e-8).epsilon(1e-3));
  CHECK(img.rgb[4] == doctest::Approx(1.0));
  PostOptions keep;
  keep.a_eq_e = false;
  postprocess(copy, keep);
  CHECK(copy.rgb == std::vector<float>{0.0f, 1.0f, 2.0f, 1e-8f, 50.0f, 0.5f});
}

TEST_CASE("postprocess: contrast * v^gamma + brightness") {
  Image img(1, 1);
  img.rgb = {0.25f, 0.5f, 1.0f};
  PostOptions o;
  o.a_eq_e = false;
  o.gamma = 2;
  o.contrast = 2;
  o.brightness = 0.1;
  postprocess(img, o);
  CHECK(img.rgb[0] == doctest::Approx(2 * 0.0625 + 0.1));
  CHECK(img.rgb[1] == doctest::Approx(0.6));
  CHECK(img.rgb[2] == doctest::Approx(2.1));
}

TEST_CASE(
    "postprocess: colour bars at the bottom, type 0 lowest, drawn after the adjustment (the palette's own colours)") {
  Palette red("red", {{0, 0, 0}, {1, 0, 0}}), blue("blue", {{0, 0, 0}, {0, 0, 1}});
  Image img(10, 30);
  for (float& v : img.rgb) v = 0.2f;
  PostOptions o;
  o.a_eq_e = false;
  o.colour_bars = {&red, &blue};
  o.contrast = 0.5;
  o.gamma = 2.0;
  o.brightness = 0.05;
  postprocess(img, o);
  CHECK(img.pixel(5, 29)[0] == doctest::Approx(0.5));  // palette(5/10) = 0.5 red, not adjusted
  CHECK(img.pixel(5, 20)[0] == doctest::Approx(0.5));
  CHECK(img.pixel(5, 19)[2] == doctest::Approx(0.5));  // the second bar above the first
  CHECK(img.pixel(5, 19)[0] == 0.0f);
  CHECK(img.pixel(0, 29)[0] == 0.0f);                               // column 0 shows palette(0)
  CHECK(img.pixel(5, 9)[0] == doctest::Approx(0.5 * 0.04 + 0.05));  // the picture above the bars is adjusted
}
