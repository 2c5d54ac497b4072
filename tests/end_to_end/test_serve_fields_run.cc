// The fields a browser chooses to colour and weigh a type by (color_labelN, intensity_labelN,
// issue 42): listed from the snapshot's headers, checked against the list, read when chosen, and
// drawn as bin/splotch draws the same keys. splotch/serve/served_fields.h.
#include <doctest/doctest.h>

#include <algorithm>

#include "params/param_file.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/view_server.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

TEST_CASE("serve fields: a browser chooses a type's colour field from those the server lists") {
  const TypeFields fields = {{"Density", "InternalEnergy"}, {}};
  const KeyValues ok =
      browser_keys({{"color_label0", "InternalEnergy"}, {"intensity_label0", "Density"}}, 2, {}, {}, fields);
  CHECK(ok == KeyValues{{"color_label0", "InternalEnergy"}, {"intensity_label0", "Density"}});
  auto refused = [&](const KeyValues& q, const std::string& note, const std::string& says) {
    try {
      browser_keys(q, 2, {}, {}, fields, note);
      FAIL("accepted");
    } catch (const BadRequest& e) {
      INFO(e.what());
      CHECK(contains_text(e.what(), says));
    }
  };
  refused({{"color_label0", "Temperature"}}, "",
          "not a field of type 0 in the snapshot (its fields: Density, InternalEnergy)");
  refused({{"color_label0", "../x"}}, "", "not a field of type 0");
  refused({{"color_label1", "Density"}}, "", "the server lists no fields of type 1: give it in the .par");
  refused({{"intensity_label1", "Density"}}, "the fields of RAMSES are not listed",
          "the fields of RAMSES are not listed");
  refused({{"color_label2", "Density"}}, "", "has 2 types");
  // The first picture's own value (XXXX: one colour for all; a vector's VEL; a field of a format
  // not listed) comes back from the page as it went: taken.
  refused({{"color_label0", "XXXX"}}, "", "not a field of type 0");
  CHECK(browser_keys({{"color_label0", "XXXX"}, {"color_label1", "VEL"}}, 2, {}, {}, fields, "", {},
                     {{"color_label0", "XXXX"}, {"color_label1", "VEL"}})
            .size() == 2);
}

TEST_CASE("serve fields: a Gadget snapshot's fields listed; one chosen is read and drawn as bin/splotch draws it") {
  TempDir dir;
  const std::string snap = dir.path("snap_010");
  snapshot({2, false, 4, 4}, 300, 200).write(snap);
  const std::string par = init_par(dir, snap, "xres = 96\nyres = 80\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  REQUIRE(views.fields().size() == std::size_t(views.ptypes()));
  const std::vector<std::string>& gas = views.fields()[0];
  INFO("listed: " << views.info_json());
  for (const char* f : {"U", "RHO", "HSML"}) CHECK(std::find(gas.begin(), gas.end(), f) != gas.end());
  CHECK(std::find(gas.begin(), gas.end(), "POS") == gas.end());  // (a vector: not a colour)
  CHECK(std::find(gas.begin(), gas.end(), "ID") == gas.end());   // (integers)
  CHECK(views.fields_note().empty());
  CHECK(contains_text(views.info_json(), "\"fields\":[\""));
  const ViewResult first = views.draw(ViewJob{"me", {}, false});
  REQUIRE(first.status == 200);

  const KeyValues keys = views.checked_keys({{"color_label0", "U"}});
  const ViewResult by_u = views.draw(ViewJob{"me", keys, false});
  REQUIRE(by_u.status == 200);
  CHECK(views.held().reads() == 2);  // the snapshot read again with the field
  CHECK(bytes_of(by_u) != bytes_of(first));
  CHECK(bytes_of(by_u) == bin_splotch_picture(dir, par, keys));
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  CHECK(ParamFile::parse(*record, "record").peek("color_label0") == "U");
  // The page's colour bar names the field of the picture (info keys: the first picture's).
  CHECK(contains_text(views.info_json(), "\"color_label0\":\"RHO\""));
}
