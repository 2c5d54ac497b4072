// The page's map mode (issue 42): a browser's view with map = column, average or slice is the map
// bin/splotch writes for the same keys (its values, as a .npy), shown through palette0 on the
// figure's scale; its values kept for the page's probe; the picture again when map is left out.
// splotch/serve/map_view.h.
#include <doctest/doctest.h>

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/view_server.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

TEST_CASE("serve map: a map view's values are bin/splotch's map for the same keys; the picture comes back after") {
  TempDir dir;
  const std::string snap = dir.path("snap_010");
  snapshot({2, false, 4, 4}, 300, 200).write(snap);
  const std::string par = init_par(dir, snap, "xres = 64\nyres = 48\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  const ViewResult picture = views.draw(ViewJob{"me", {}, false});
  REQUIRE(picture.status == 200);
  CHECK_FALSE(views.last_map("me"));
  auto keys = [&](const KeyValues& q) { return views.checked_keys(q); };
  for (const KeyValues& q : {KeyValues{{"map", "column"}}, KeyValues{{"map", "slice"}},
                             KeyValues{{"map", "average"}, {"map_quantity0", "U"}, {"map_log", "FALSE"}}}) {
    INFO(q.front().second);
    const KeyValues k = keys(q);
    const ViewResult map = views.draw(ViewJob{"me", k, false});
    INFO(map.body.substr(0, 300));
    REQUIRE(map.status == 200);
    CHECK(map.content_type == "image/png");
    const Image8 shown = decode(dir, map.body);
    CHECK(shown.width == 64);
    CHECK(shown.height == 48);
    CHECK_FALSE(header(map, "X-Splotch-Map-Unit").empty());
    CHECK(contains_text(header(map, "X-Splotch-Map-Scale"), q.size() > 1 ? " linear" : " log"));
    const std::optional<MapFile> values = views.last_map("me");
    REQUIRE(values);
    CHECK(values->xres == 64);
    // bin/splotch's map of the view's record (the camera placed from the data written out), as data.
    const std::optional<std::string> record = views.used_par("me");
    REQUIRE(record);
    CHECK(ParamFile::parse(*record, "record").peek("map") == q.front().second);
    const CommandResult again =
        run_command("bin/splotch --quiet " + dir.write("view.par", *record) + " outfile=" + dir.file("map.npy"));
    INFO(again.err);
    REQUIRE(again.status == 0);
    const std::vector<float> written = read_npy(dir.file("map.npy"));
    REQUIRE(written.size() == values->values.size());
    bool same = true;
    for (std::size_t i = 0; i < written.size(); ++i)
      same &= written[i] == values->values[i] || (written[i] != written[i] && values->values[i] != values->values[i]);
    CHECK(same);
  }
  // (the map's fields read alone each time: the particles held)
  CHECK(views.held().reads() == 1);
  CHECK(views.held().value_reads() == 3);
  // A reduced map: smaller, of every particle (its sum the full one's, within the kernel's
  // sampling of fewer pixels).
  const ViewResult reduced = views.draw(ViewJob{"me", keys({{"map", "column"}}), true});
  REQUIRE(reduced.status == 200);
  CHECK(reduced.content_type == "image/jpeg");
  CHECK(decode(dir, reduced.body).width == 32);
  // Without map: the picture again, byte for byte.
  const ViewResult back = views.draw(ViewJob{"me", {}, false});
  REQUIRE(back.status == 200);
  CHECK(back.body == picture.body);
  CHECK_FALSE(views.last_map("me"));
  // A map mode the server does not know.
  CHECK_THROWS_WITH_AS(keys({{"map", "surface"}}), doctest::Contains("column, average or slice"), BadRequest);
}
