// What the page shows and sends (issue 36, section 8), on the server's side: a colour or intensity
// range is given whole and not empty; a .par without brightness has its first picture exposed
// automatically, the factor found becoming the page's exposure; a picture's warnings and notes go
// with it. The page itself is tested in headless Chromium (tests/browser/serve_page_test.py).
// Here the cases that run bin/splotch as a user does; the others: tests/unit/test_serve_page.cc.
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

// The clumps' .par without its brightness.
std::string par_without_brightness(const TempDir& dir) {
  const std::string par = clumps_par(dir, dir.file("served.png"));
  std::string text = read_file(par);
  text.erase(text.find("brightness0 = 2\n"), 16);
  return dir.write("plain.par", text);
}

}  // namespace

TEST_CASE(
    "serve: a .par without brightness or exposure has its first picture exposed automatically; the page gets the "
    "factor, and the saved .par renders that picture (compared with bin/splotch)") {
  TempDir dir;
  const std::string par = par_without_brightness(dir);
  ViewServer views(ParamFile::read(par), test_options());
  const ViewResult first = views.draw(ViewJob{"", {}, false});
  REQUIRE(first.status == 200);
  CHECK(header(first, "X-Splotch-Notes").find("exposure = auto: every brightness times") != std::string::npos);
  const std::string info = views.info_json();
  const std::size_t at = info.find("\"exposure\":\"");
  REQUIRE(at != std::string::npos);
  const std::string factor = info.substr(at + 12, info.find('"', at + 12) - at - 12);
  CHECK(std::stod(factor) > 1);  // a number the page's field shows and sends
  // The first picture's record renders it with bin/splotch.
  const CommandResult again = run_command("bin/splotch --quiet " + dir.write("first.par", *views.used_par("")) +
                                          " outfile=" + dir.file("a.png"));
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(read_file(dir.file("a.png")) == first.body);
  // A browser's view with the page's keys is bin/splotch's picture for them.
  const KeyValues keys = {{"exposure", factor}, {"camera_x", "40"}};
  CHECK(views.draw(ViewJob{"me", keys, false}).body == bin_splotch_picture(dir, par, keys));
  // A .par with a brightness (or an exposure, or a_eq_e = FALSE) is drawn as it says.
  for (const std::string& own : {std::string(""), std::string("exposure = FALSE\n"), std::string("a_eq_e = FALSE\n")}) {
    INFO(own);
    TempDir other;
    const std::string with = own.empty() ? clumps_par(other, other.file("s.png"))
                                         : other.write("p.par", read_file(par_without_brightness(other)) + own);
    ViewServer plain(ParamFile::read(with), test_options());
    const ViewResult r = plain.draw(ViewJob{"", {}, false});
    REQUIRE(r.status == 200);
    CHECK(header(r, "X-Splotch-Notes").find("exposure = auto") == std::string::npos);
  }
}
