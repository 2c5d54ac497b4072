// What the page shows and sends (issue 36, section 8), on the server's side: a colour or intensity
// range is given whole and not empty; a .par without brightness has its first picture exposed
// automatically, the factor found becoming the page's exposure; a picture's warnings and notes go
// with it. The page itself is tested in headless Chromium (tests/browser/serve_page_test.py).
// The cases that run bin/splotch as a user does: tests/end_to_end/test_serve_page_run.cc.
#include <doctest/doctest.h>
#include <httplib.h>

#include <string>

#include "splotch/serve/browser_keys.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

namespace {

std::string refusal(const KeyValues& keys) {
  try {
    browser_keys(keys, 2, {});
  } catch (const BadRequest& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("serve: a colour or intensity range from a browser is given whole, and not empty") {
  CHECK(refusal({{"color_min0", "2"}, {"color_max0", "9"}, {"intensity_min1", "-1"}, {"intensity_max1", "1"}}) == "");
  CHECK(refusal({{"color_min0", "2"}}) ==
        "'color_min0' without 'color_max0': give a range whole (the page fills the other end with the range used)");
  CHECK(refusal({{"color_max1", "2"}}).find("'color_max1' without 'color_min1'") == 0);
  CHECK(refusal({{"intensity_min0", "2"}}).find("'intensity_min0' without 'intensity_max0'") == 0);
  CHECK(refusal({{"color_min0", "2"}, {"color_max0", "2.0"}}) ==
        "'color_min0' = 2 is not below 'color_max0' = 2.0: an empty range (give a maximum above the minimum)");
  CHECK(refusal({{"color_min0", "3"}, {"color_max0", "2"}}).find("is not below") != std::string::npos);
  // Over HTTP: 400 with the reason, as the page shows it.
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), false);
  httplib::Client client("127.0.0.1", server.port);
  const auto alone = client.Get("/view?token=s3cret&client=a&color_min0=2");
  REQUIRE(alone);
  CHECK(alone->status == 400);
  CHECK(alone->body.find("without 'color_max0'") != std::string::npos);
  CHECK(client.Get("/view?token=s3cret&client=a&color_min0=2&color_max0=2")->status == 400);
  CHECK(client.Get("/view?token=s3cret&client=a&color_min0=2&color_max0=3")->status == 200);
}

TEST_CASE("serve: a picture's warnings go with it, naming the exposure factor the page's field sets") {
  TempDir dir;
  ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"))), test_options());
  start(views);
  // (Darkened by the brightness: with an exposure factor given, the factor the warning names is
  // that many times too large, splotch/frame/picture.cc's to mend.)
  const ViewResult dark = views.draw(ViewJob{"me", {{"brightness0", "1e-4"}}, false});
  REQUIRE(dark.status == 200);
  const std::string warning = header(dark, "X-Splotch-Warnings");
  const std::size_t at = warning.find("exposure = ");
  REQUIRE(at != std::string::npos);
  CHECK(warning.find("nearly black") != std::string::npos);
  // The factor it names, set as the page's button sets it: no warning.
  const std::string factor = warning.substr(at + 11, warning.find(' ', at + 11) - at - 11);
  const ViewResult fixed = views.draw(ViewJob{"me", {{"brightness0", "1e-4"}, {"exposure", factor}}, false});
  INFO(warning << " -> " << header(fixed, "X-Splotch-Warnings"));
  REQUIRE(fixed.status == 200);
  CHECK(header(fixed, "X-Splotch-Warnings").find("nearly black") == std::string::npos);
}
