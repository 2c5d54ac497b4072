// The fields a browser chooses to colour and weigh a type by (color_labelN, intensity_labelN,
// issue 42): listed from the snapshot's headers, checked against the list, read when chosen, and
// drawn as bin/splotch draws the same keys. splotch/serve/served_fields.h.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

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
  CHECK(views.held().reads() == 1);        // the snapshot not read again: the field alone
  CHECK(views.held().value_reads() == 1);  // (splotch/load/values_reread.h)
  CHECK(bytes_of(by_u) != bytes_of(first));
  CHECK(bytes_of(by_u) == bin_splotch_picture(dir, par, keys));
  // A reduced picture after the field: the share kept (made at the first reduced picture), its
  // values taken again, as a server's whose first reduced picture is of this field.
  const ViewResult reduced_rho = views.draw(ViewJob{"me", {}, true});
  const ViewResult reduced_u = views.draw(ViewJob{"me", keys, true});
  REQUIRE(reduced_u.status == 200);
  CHECK(views.held().shares_made() == 1);
  CHECK(reduced_u.body != reduced_rho.body);
  {
    ViewServer fresh(ParamFile::read(par), test_options());
    start(fresh);
    CHECK(fresh.draw(ViewJob{"me", keys, true}).body == reduced_u.body);
  }
  CHECK(views.draw(ViewJob{"me", keys, false}).body == by_u.body);
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  CHECK(ParamFile::parse(*record, "record").peek("color_label0") == "U");
  // The page's colour bar names the field of the picture (info keys: the first picture's).
  CHECK(contains_text(views.info_json(), "\"color_label0\":\"RHO\""));
  // Each field listed with its unit (Gadget's defaults: U a specific energy) and, once read, its
  // range as read (U = 100 + i for the 300 gas particles; RHO = (i + 1) / 8).
  INFO(views.info_json("me"));
  const std::size_t u_at = std::size_t(std::find(gas.begin(), gas.end(), "U") - gas.begin());
  REQUIRE(views.field_units().size() == 1);
  REQUIRE(views.field_units()[0].size() == gas.size());
  CHECK(views.field_units()[0][u_at] == "(km/s)^2");
  CHECK(contains_text(views.info_json(), "\"field_units\":[\""));
  CHECK(contains_text(views.info_json(), "\"U\":[100,399]"));
  // (RHO in Msun kpc^-3: Gadget's 1e10 Msun/h per (kpc/h)^3, comoving at a = 0.5 with h = 0.7 by
  // default, is 1e10 h^2 / a^3 Msun kpc^-3, to the 1e-3 of the solar mass's value)
  const std::string info = views.info_json();
  const std::size_t at = info.find("\"RHO\":[");
  REQUIRE(at != std::string::npos);
  char* end = nullptr;
  const double lo = std::strtod(info.c_str() + at + 7, &end), hi = std::strtod(end + 1, nullptr);
  const double per_code = 1e10 * 0.7 * 0.7 / (0.5 * 0.5 * 0.5);
  CHECK(lo == doctest::Approx(0.125 * per_code).epsilon(1e-3));
  CHECK(hi == doctest::Approx(37.5 * per_code).epsilon(1e-3));
}

// The fields read alone are put where a fresh read puts them: among two types, past particles
// dropped (a zero smoothing length), weighed by another field too; and a field with a NaN (a fresh
// read drops its particle) is read with the snapshot.
TEST_CASE("serve fields: a field read alone draws as bin/splotch; one with a NaN reads the snapshot again") {
  TempDir dir;
  const std::string snap = dir.path("snap_010");
  GadgetTestFile file = snapshot({2, false, 4, 4}, 300, 200);
  GadgetTestBlock temp{"TEMP", {}, 4};
  for (int i = 0; i < 300; ++i) temp.values.push_back(1000.0 + 7 * i);
  GadgetTestBlock nan_temp = temp;
  nan_temp.label = "NANT";
  nan_temp.values[123] = std::nan("");
  for (GadgetTestBlock& b : file.blocks)
    if (b.label == "HSML")
      for (int i : {0, 17, 150}) b.values[std::size_t(i)] = 0;  // dropped
  file.blocks.push_back(temp);
  file.blocks.push_back(nan_temp);
  file.write(snap);
  // (the dark matter drawn as a second type)
  std::string text =
      read_file(init_par(dir, snap, "xres = 96\nyres = 80\nptype1 = 1\nsize_fix1 = 2\npalette1 = ice\n"));
  text.replace(text.find("ptypes = 1"), 10, "ptypes = 2");
  const std::string par = dir.write("two.par", text);
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  REQUIRE(views.ptypes() == 2);
  const std::vector<std::string>& gas = views.fields()[0];
  INFO("listed: " << views.info_json());
  REQUIRE(std::find(gas.begin(), gas.end(), "TEMP") != gas.end());
  REQUIRE(std::find(gas.begin(), gas.end(), "NANT") != gas.end());
  REQUIRE(views.held().loaded());
  CHECK(views.held().loaded()->dropped == 3);
  int value_reads = 0;
  for (const KeyValues& q :
       {KeyValues{{"color_label0", "TEMP"}}, KeyValues{{"color_label0", "U"}, {"intensity_label0", "MASS"}},
        KeyValues{{"color_label0", "TEMP"}, {"color_log0", "FALSE"}}}) {
    INFO(q.front().second);
    const KeyValues keys = views.checked_keys(q);
    const ViewResult shown = views.draw(ViewJob{"me", keys, false});
    REQUIRE(shown.status == 200);
    CHECK(views.held().reads() == 1);
    CHECK(views.held().value_reads() == ++value_reads);
    CHECK(bytes_of(shown) == bin_splotch_picture(dir, par, keys));
    // Its reduced picture from the share made once, its values taken again: as a fresh server's.
    const ViewResult reduced = views.draw(ViewJob{"me", keys, true});
    REQUIRE(reduced.status == 200);
    CHECK(views.held().shares_made() == 1);
    ViewServer fresh(ParamFile::read(par), test_options());
    start(fresh);
    CHECK(fresh.draw(ViewJob{"me", keys, true}).body == reduced.body);
  }
  const KeyValues keys = views.checked_keys({{"color_label0", "NANT"}});
  const ViewResult shown = views.draw(ViewJob{"me", keys, false});
  REQUIRE(shown.status == 200);
  CHECK(views.held().reads() == 2);  // (the field's NaN drops a particle: the whole snapshot read)
  CHECK(views.held().value_reads() == value_reads);
  CHECK(views.held().loaded()->dropped == 4);
  CHECK(bytes_of(shown) == bin_splotch_picture(dir, par, keys));
  // And from there, a field alone again.
  const KeyValues back = views.checked_keys({{"color_label0", "TEMP"}});
  const ViewResult again = views.draw(ViewJob{"me", back, false});
  REQUIRE(again.status == 200);
  CHECK(views.held().reads() == 3);  // (the NaN's particle dropped for its value: read whole again)
  CHECK(bytes_of(again) == bin_splotch_picture(dir, par, back));
}
