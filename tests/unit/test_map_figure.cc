// A map's figure (splotch/frame/map_figure.h): its colour bar's ticks, its scale bar, its range,
// and the figure drawn with text beside the map.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "io/palette.h"
#include "io/text_draw.h"
#include "splotch/frame/colour_bar_labels.h"
#include "splotch/frame/map_figure.h"
#include "tests/support/test_support.h"

using namespace splotch;

TEST_CASE("map figure: ticks at decades (and 2, 5 where few) or nice linear steps; a nice scale bar") {
  CHECK(colour_bar_ticks({true, 3e2, 4e6}) == std::vector<double>{1e3, 1e4, 1e5, 1e6});
  const std::vector<double> few = colour_bar_ticks({true, 1.5e7, 6e7});
  CHECK(few == std::vector<double>{2e7, 5e7});
  const std::vector<double> linear = colour_bar_ticks({false, 0.246, 0.2525});
  REQUIRE(linear.size() >= 3);
  CHECK(linear.front() == doctest::Approx(0.246));
  CHECK(linear[1] - linear[0] == doctest::Approx(0.002));
  const std::vector<double> narrow = colour_bar_ticks({true, 0.248, 0.253});  // (no decade, no 2 or 5 in it)
  REQUIRE(narrow.size() >= 2);
  CHECK(narrow.front() >= 0.248);
  CHECK(narrow.back() <= 0.253);
  CHECK(colour_bar_ticks({true, 243, 960}).size() >= 3);
  CHECK(scale_bar_length(11826) == 2000);
  CHECK(scale_bar_length(0.9) == doctest::Approx(0.2));
  CHECK(scale_bar_length(100) == 20);
}

TEST_CASE("map figure: the range from the data, or the keys'") {
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i + 1);
  values[3] = 0.0f;  // no log: left out of the range
  const FigureScale log = figure_scale(values, true, std::nan(""), std::nan(""));
  CHECK(log.hi == 1000);
  CHECK(log.lo == doctest::Approx(11).epsilon(0.1));  // the 1st percentile of the values above 0
  const FigureScale given = figure_scale(values, false, 5, 50);
  CHECK(given.lo == 5);
  CHECK(given.hi == 50);
}

// The 1st percentile is found among the values below a bound a sample sets: the same value as
// from all of them, wherever the sample falls (every 64th value the largest, or the smallest).
TEST_CASE("map figure: a log scale's low end is the 1st percentile of the values above 0, exactly") {
  auto percentile = [](const std::vector<float>& values) {
    std::vector<float> shown;
    for (float v : values)
      if (std::isfinite(v) && v > 0) shown.push_back(v);
    std::nth_element(shown.begin(), shown.begin() + std::ptrdiff_t(shown.size() / 100), shown.end());
    return double(shown[shown.size() / 100]);
  };
  std::vector<float> mixed(200000);
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < mixed.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    const float u = float(state >> 8) / float(1 << 24);
    mixed[i] = i % 97 == 0 ? 0.0f : i % 101 == 0 ? NAN : std::exp(20 * u - 10);
  }
  std::vector<float> sample_high(mixed.size()), sample_low(mixed.size());
  for (std::size_t i = 0; i < mixed.size(); ++i) {
    sample_high[i] = i % 64 == 0 ? 1e30f : 1 + float(i % 1000);
    sample_low[i] = i % 128 == 0 ? 1e-30f : 1 + float(i % 1000);  // (fewer than 1%: all are looked at)
  }
  for (const std::vector<float>* v : {&mixed, &sample_high, &sample_low}) {
    const FigureScale s = figure_scale(*v, true, NAN, NAN);
    CHECK(s.lo == percentile(*v));
  }
  // A linear scale from the smallest finite value.
  CHECK(figure_scale({3, NAN, -2, 5}, false, NAN, NAN).lo == -2);
  CHECK(figure_scale({3, NAN, -2, 5}, false, NAN, NAN).hi == 5);
}

TEST_CASE("map figure: the map keeps its pixels, the colour bar and its labels lie beside it") {
  const Font font(default_font_path());  // (fonts-dejavu-core: the README's set-up installs it)
  CHECK(font.width("1e+07", 16) > 20);
  std::vector<float> values(64 * 48);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(1 + i % 64);
  const Palette grey("grey", {{0, 0, 0}, {1, 1, 1}});
  FigureText text{"Msun kpc^-2", "kpc", 2.0, 1.5, 0.4};
  const Image8 figure = map_figure(values, 64, 48, figure_scale(values, false, 1, 64), grey, text);
  CHECK(figure.width > 64);
  CHECK(figure.height == 48);
  // The map's right half (rows away from the text) holds its values: brighter to the right.
  CHECK(figure.pixel(60, 20)[0] > figure.pixel(40, 20)[0]);
  // The panel holds text: some white pixels right of the map.
  int lit = 0;
  for (int y = 0; y < 48; ++y)
    for (int x = 64; x < figure.width; ++x) lit += figure.pixel(x, y)[0] > 200;
  CHECK(lit > 20);
}

TEST_CASE("colorbar = labels: a log bar's ticks at its decades, the text over the original's rows") {
  const Palette grey("grey", {{0, 0, 0}, {1, 1, 1}});
  LabelledBar bar;
  bar.palette = &grey;
  bar.name = "type 0: U";
  bar.lo = 3, bar.hi = 7, bar.log = true;  // log10 of the values, as color_log leaves them
  const std::vector<BarTick> ticks = bar_ticks(bar);
  REQUIRE(ticks.size() == 5);
  for (int i = 0; i < 5; ++i) {
    CHECK(ticks[std::size_t(i)].value == doctest::Approx(std::pow(10.0, 3 + i)));
    CHECK(ticks[std::size_t(i)].position == doctest::Approx(0.25 * i));
  }
  bar.log = false, bar.lo = -1, bar.hi = 1;
  const std::vector<BarTick> linear = bar_ticks(bar);
  REQUIRE(!linear.empty());
  CHECK(linear.front().value >= -1);
  CHECK(linear.back().value <= 1);
  bar.hi = bar.lo;  // one value: no ticks, the name alone
  CHECK(bar_ticks(bar).empty());

  Image image(200, 100);
  bar.lo = 3, bar.hi = 7, bar.log = true;
  draw_labelled_colour_bars(image, {bar});
  // The palette in the bottom 10 rows, as the original's bar; white text in the rows above.
  CHECK(image.pixel(0, 99)[0] == doctest::Approx(0.0f));
  CHECK(image.pixel(199, 95)[0] > 0.98f);
  int lit = 0;
  for (int y = 0; y < 90; ++y)
    for (int x = 0; x < 200; ++x) lit += image.pixel(x, y)[0] > 0.7f;
  CHECK(lit > 30);
}
