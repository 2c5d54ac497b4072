// The snapshots a server steps through (issue 42, the page's time slider): the series beside the
// file served or named by fidx (splotch/serve/served_series.h), fidx as a browser key, each snapshot
// read when chosen and drawn as bin/splotch draws its record.
#include <doctest/doctest.h>

#include <algorithm>

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/scene/camera_path.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/recorded_path.h"
#include "splotch/serve/served_series.h"
#include "splotch/serve/view_server.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

TEST_CASE("serve series: the snapshots beside the file served, or of its fidx; fidx checked against them") {
  TempDir dir;
  // Three snapshots of a run (different particles, so that their pictures differ), and another file.
  snapshot({2, false, 4, 4}, 300, 200).write(dir.path("snap_000"));
  snapshot({2, false, 4, 4}, 200, 100, 50, 0).write(dir.path("snap_002"));
  snapshot({2, false, 4, 4}, 100, 100, 150, 0).write(dir.path("snap_005"));
  snapshot({2, false, 4, 4}, 10, 10).write(dir.path("other"));
  auto par = [&](const std::string& more) {
    return ParamFile::parse("simtype = 2\nptypes = 1\nptype0 = 0\n" + more, dir.file("p.par"));
  };
  const ServedSeries given = served_series(par("infile = " + dir.path("snap_") + "\nfidx = 2\n"));
  CHECK(given.fidx == std::vector<int>{0, 2, 5});
  CHECK(given.stem.empty());
  CHECK(given.first == 2);
  const ServedSeries beside = served_series(par("infile = " + dir.path("snap_005") + "\n"));
  CHECK(beside.fidx == std::vector<int>{0, 2, 5});
  CHECK(beside.stem == dir.path("snap_"));
  CHECK(beside.first == 5);
  CHECK(served_series(par("infile = " + dir.path("other") + "\n")).fidx.empty());
  // One file named with fidx given: found for every fidx, no series.
  CHECK(served_series(par("infile = " + dir.path("snap_005") + "\nfidx = 2\n")).fidx.empty());
  CHECK(served_series(par("infile = " + dir.path("snap_") + "\nfidx = 2.5\n")).fidx.empty());
  CHECK(served_series(ParamFile::parse("simtype = 0\ninfile = " + dir.path("snap_005") + "\n", "raw")).fidx.empty());

  const std::vector<int> series = {0, 2, 5};
  CHECK(browser_keys({{"fidx", "5"}}, 1, {}, {}, {}, "", series) == KeyValues{{"fidx", "5"}});
  CHECK(browser_keys({{"fidx", "2.0"}}, 1, {}, {}, {}, "", series) == KeyValues{{"fidx", "2"}});
  auto refused = [&](const std::string& value, const std::vector<int>& s, const std::string& says) {
    try {
      browser_keys({{"fidx", value}}, 1, {}, {}, {}, "", s);
      FAIL("accepted");
    } catch (const BadRequest& e) {
      INFO(e.what());
      CHECK(contains_text(e.what(), says));
    }
  };
  refused("3", series, "not a snapshot of the series served (0, 2, 5)");
  refused("2.5", series, "between two, the movie is bin/splotch's");
  refused("x", series, "not a snapshot of the series");
  refused("0", {4}, "the server holds one snapshot");
  // Between two of an evenly numbered series: a time the slider draws.
  CHECK(browser_keys({{"fidx", "0.25"}}, 1, {}, {}, {}, "", {0, 1, 2}, {}, 1) == KeyValues{{"fidx", "0.25"}});
  CHECK(browser_keys({{"fidx", "1"}}, 1, {}, {}, {}, "", {0, 1, 2}, {}, 1) == KeyValues{{"fidx", "1"}});
  CHECK_THROWS_WITH_AS(browser_keys({{"fidx", "2.5"}}, 1, {}, {}, {}, "", {0, 1, 2}, {}, 1),
                       doctest::Contains("nor a time between two of them"), BadRequest);
  // A whole number between two of a series of step 2; a time that the record would round to a
  // snapshot is that snapshot.
  CHECK(browser_keys({{"fidx", "1"}}, 1, {}, {}, {}, "", {0, 2, 4}, {}, 2) == KeyValues{{"fidx", "1"}});
  CHECK(browser_keys({{"fidx", "0.99999999999"}}, 1, {}, {}, {}, "", {0, 1, 2}, {}, 1) == KeyValues{{"fidx", "1"}});
  std::string why;
  CHECK(series_step({0, 2, 4}, why) == 2);
  CHECK(series_step({0, 2, 5}, why) == 0);
  CHECK(contains_text(why, "not evenly numbered"));
  CHECK(series_step({1, 3}, why) == 0);
  CHECK(contains_text(why, "multiples of their step 2"));
}

// The time slider dragged between two snapshots: both held with their IDs, each step drawn from
// them (the picture bin/splotch draws from the step's record, interpolated), a reduced step from
// their shares; the next pair reads the one snapshot new to it; let go at a snapshot, the pair's.
TEST_CASE("serve series: a time between two snapshots is drawn from the two held, as bin/splotch draws its record") {
  TempDir dir;
  for (int k = 0; k < 3; ++k)
    snapshot({2, false, 4, 4}, 300, 0, 40 * k, 0).write(dir.path("snap_00" + std::to_string(k)));
  const std::string par = init_par(dir, dir.path("snap_000"), "xres = 64\nyres = 48\nbrightness0 = 3\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  REQUIRE(views.series() == std::vector<int>{0, 1, 2});
  CHECK(contains_text(views.info_json(), "\"series_step\":1"));
  auto draw = [&](const std::string& fidx, bool reduced) {
    const ViewResult r = views.draw(ViewJob{"me", views.checked_keys({{"fidx", fidx}}), reduced});
    INFO(r.body.substr(0, 300));
    REQUIRE(r.status == 200);
    return r;
  };
  auto drawn_by_bin_splotch = [&](const ViewResult& shown) {
    const std::optional<std::string> record = views.used_par("me");
    REQUIRE(record);
    const ParamFile used = ParamFile::parse(*record, "record");
    CHECK(used.peek("interpolation_mode") == "1");
    CHECK(used.peek("snapshot_spacing") == "1");
    const CommandResult again =
        run_command("bin/splotch --quiet " + dir.write("view.par", *record) + " outfile=" + dir.file("again.png"));
    INFO(again.err);
    REQUIRE(again.status == 0);
    CHECK(read_file(dir.file("again.png")) == shown.body);
  };
  const ViewResult quarter = draw("0.25", false);
  CHECK(views.held().pair_reads() == 2);
  // (snapshot 1 holds particles 40 to 339 of snapshot 0's sequence)
  CHECK(header(quarter, "X-Splotch-Between") ==
        "snapshots 0 to 1 at 25%: 260 particles matched, 40 only in 0, 40 only in 1");
  drawn_by_bin_splotch(quarter);
  const ViewResult reduced = draw("0.5", true);
  CHECK(reduced.content_type == "image/jpeg");
  const ViewResult half = draw("0.5", false);
  CHECK(views.held().pair_reads() == 2);  // (the steps draw from the two held)
  CHECK(half.body != quarter.body);
  drawn_by_bin_splotch(half);
  // The next pair: snapshot 1 kept, 2 read.
  const ViewResult later = draw("1.75", false);
  CHECK(views.held().pair_reads() == 3);
  drawn_by_bin_splotch(later);
  // Let go at snapshot 2: the pair's, not read again; drawn as bin/splotch draws snapshot 2.
  const int reads = views.held().reads();
  const ViewResult two = draw("2", false);
  CHECK(views.held().reads() == reads);
  CHECK(views.held().pair_reads() == 3);
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  CHECK(ParamFile::parse(*record, "record").peek("fidx") == "2");
  CHECK(ParamFile::parse(*record, "record").peek("interpolation_mode") == "0");
  const CommandResult again =
      run_command("bin/splotch --quiet " + dir.write("two.par", *record) + " outfile=" + dir.file("two.png"));
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(read_file(dir.file("two.png")) == two.body);
  // And back between 1 and 2: snapshot 2 from the one shown, 1 from the pair.
  draw("1.5", false);
  CHECK(views.held().pair_reads() == 3);
}

// A picture between two snapshots that fails (or is cancelled) between their reads keeps the one
// read: the next step reads only what it lacks.
TEST_CASE("serve series: a step whose second snapshot fails to read keeps the first") {
  TempDir dir;
  for (int k = 0; k < 2; ++k)
    snapshot({2, false, 4, 4}, 300, 0, 40 * k, 0).write(dir.path("snap_00" + std::to_string(k)));
  // (snapshot 2 without IDs: its read for a time between fails)
  GadgetTestFile no_ids = snapshot({2, false, 4, 4}, 300, 0, 80, 0);
  no_ids.blocks.erase(std::remove_if(no_ids.blocks.begin(), no_ids.blocks.end(),
                                     [](const GadgetTestBlock& b) { return b.label == "ID"; }),
                      no_ids.blocks.end());
  no_ids.write(dir.path("snap_002"));
  const std::string par = init_par(dir, dir.path("snap_000"), "xres = 64\nyres = 48\nbrightness0 = 3\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  REQUIRE(views.series() == std::vector<int>{0, 1, 2});
  const ViewResult bad = views.draw(ViewJob{"me", views.checked_keys({{"fidx", "1.5"}}), false});
  INFO(bad.body);
  CHECK(bad.status == 400);
  CHECK(views.held().pair_reads() == 1);  // (snapshot 1, read before 2 failed)
  const ViewResult good = views.draw(ViewJob{"me", views.checked_keys({{"fidx", "0.5"}}), false});
  INFO(good.body.substr(0, 300));
  CHECK(good.status == 200);
  CHECK(views.held().pair_reads() == 2);  // (snapshot 0 alone: 1 was kept)
}

TEST_CASE("serve series: a view at another fidx reads that snapshot and draws it as bin/splotch draws its record") {
  TempDir dir;
  snapshot({2, false, 4, 4}, 300, 200).write(dir.path("snap_000"));
  snapshot({2, false, 4, 4}, 100, 100, 150, 0).write(dir.path("snap_001"));
  const std::string par = init_par(dir, dir.path("snap_001"), "xres = 64\nyres = 48\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  CHECK(views.series() == std::vector<int>{0, 1});
  CHECK(contains_text(views.info_json(), "\"series\":[0,1],\"series_step\":1,\"fidx\":1"));
  const ViewResult one = views.draw(ViewJob{"me", {}, false});
  REQUIRE(one.status == 200);
  CHECK(header(one, "X-Splotch-Time") == "0.5");  // (the test snapshots' header time)
  const KeyValues keys = views.checked_keys({{"fidx", "0"}});
  const ViewResult zero = views.draw(ViewJob{"me", keys, false});
  REQUIRE(zero.status == 200);
  CHECK(views.held().reads() == 2);
  CHECK(zero.body != one.body);
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  CHECK(ParamFile::parse(*record, "record").peek("fidx") == "0");
  const CommandResult again =
      run_command("bin/splotch --quiet " + dir.write("view.par", *record) + " outfile=" + dir.file("again.png"));
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(read_file(dir.file("again.png")) == zero.body);
}

TEST_CASE("serve series: a path through time: keyframes with fidx, frames between snapshots in its scene file") {
  // The path's time from key to key, and what a browser's keyframes may say.
  const std::vector<CameraKey> keys = browser_keyframes("0,-50,0,0,0,0,0,0,1,0;10,-50,0,10,0,0,0,0,1,4");
  REQUIRE(keys.size() == 2);
  REQUIRE(keys[1].fidx);
  CHECK(*keys[1].fidx == 4);
  const std::vector<CameraKey> path = keyframe_path(keys, 5);
  REQUIRE(path.size() == 5);
  CHECK(*path.front().fidx == 0);
  CHECK(*path.back().fidx == doctest::Approx(4));
  for (std::size_t f = 1; f < path.size(); ++f) CHECK(*path[f].fidx > *path[f - 1].fidx);
  CHECK_THROWS_AS(browser_keyframes("0,-50,0,0,0,0,0,0,1,0;10,-50,0,10,0,0,0,0,1"), BadRequest);
  CHECK_THROWS_AS(keyframe_path({keys[0], CameraKey{{5, -50, 0}, {5, 0, 0}, {0, 0, 1}, std::nullopt}}, 3), UserError);
  const std::string scene = path_scene_text(path, {0, 2, 4});
  CHECK(scene.substr(0, scene.find('\n')) ==
        "camera_x camera_y camera_z lookat_x lookat_y lookat_z sky_x sky_y sky_z fidx interpolation_mode "
        "snapshot_spacing");
  CHECK(contains_text(scene, " 4 1 2\n"));  // (the last frame: fidx 4, mode 1, spacing 2)
  CHECK_THROWS_WITH_AS(path_scene_text(path, {0, 1, 4}), doctest::Contains("not evenly numbered (0, 1, 4)"),
                       BadRequest);
  CHECK_THROWS_WITH_AS(path_scene_text(path, {0, 2}), doctest::Contains("outside the series"), BadRequest);
  CHECK_THROWS_WITH_AS(path_scene_text(path, {1, 3, 5}), doctest::Contains("multiples of their step 2"), BadRequest);
  // A path at one snapshot: through space alone, its scene without fidx (any series).
  std::vector<CameraKey> still = path;
  for (CameraKey& f : still) f.fidx = 5;
  CHECK(path_scene_text(still, {0, 1, 5}).find("fidx") == std::string::npos);
  CHECK_THROWS_WITH_AS(path_scene_text(path, {0, 2, 4}, "with snapdir the view's record"),
                       doctest::Contains("with snapdir"), BadRequest);
  CHECK(contains_text(
      served_series(ParamFile::parse("simtype = 2\ninfile = snap_\nsnapdir = snapdir_\nfidx = 0\n", "p")).scene_note,
      "snapdir"));
  CHECK_FALSE(frames_at_snapshots(path, {0, 2, 4}));
  CHECK(frames_at_snapshots({path.front(), path.back()}, {0, 2, 4}));
  // A movie's frames take their fidx.
  const std::vector<KeyValues> frames = movie_frames({path.front()}, {{"fidx", "4"}, {"brightness0", "2"}});
  CHECK(std::count(frames[0].begin(), frames[0].end(), std::make_pair(std::string("fidx"), std::string("0"))) == 1);
  CHECK(std::count_if(frames[0].begin(), frames[0].end(), [](const auto& kv) { return kv.first == "fidx"; }) == 1);
}

TEST_CASE("serve series: bin/splotch draws a path's scene through time from the view's record, its ends the views") {
  TempDir dir;
  snapshot({2, false, 4, 4}, 300, 0).write(dir.path("snap_000"));
  // (snapshot 1 holds particles 40 to 339 of the same sequence, each with its ID and place: between
  // the two, the first 40 fade out and 40 new ones fade in)
  snapshot({2, false, 4, 4}, 300, 0, 40, 0).write(dir.path("snap_001"));
  const std::string par = init_par(dir, dir.path("snap_001"), "xres = 64\nyres = 48\nbrightness0 = 3\n");
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  auto keys = [&](const KeyValues& q) { return views.checked_keys(q); };
  const ViewResult at0 = views.draw(ViewJob{"me", keys({{"fidx", "0"}}), false});
  REQUIRE(at0.status == 200);
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  const ViewResult at1 = views.draw(ViewJob{"me", keys({{"fidx", "1"}}), false});
  REQUIRE(at1.status == 200);
  const ParamFile r = ParamFile::parse(*record, "record");
  std::string key;
  for (const char* k :
       {"camera_x", "camera_y", "camera_z", "lookat_x", "lookat_y", "lookat_z", "sky_x", "sky_y", "sky_z"})
    key += r.peek(k) + ",";
  const std::string scene =
      path_scene_text(keyframe_path(browser_keyframes(key + "0;" + key + "1"), 3), views.series());
  const CommandResult movie = run_command("bin/splotch --quiet " + dir.write("view.par", *record) + " scene_file=" +
                                          dir.write("path.txt", scene) + " outfile=" + dir.file("m.png"));
  INFO(movie.err);
  REQUIRE(movie.status == 0);
  CHECK(read_file(dir.file("m0000.png")) == at0.body);
  CHECK(read_file(dir.file("m0002.png")) == at1.body);
  const std::string between = read_file(dir.file("m0001.png"));
  CHECK(between != at0.body);
  CHECK(between != at1.body);
  // The server draws the frame between as the scene does: as a view (the time slider at 0.5), and
  // as its own movie's frame.
  const ViewResult half = views.draw(ViewJob{"me", keys({{"fidx", "0.5"}}), false});
  REQUIRE(half.status == 200);
  CHECK(half.body == between);
  const std::vector<KeyValues> frames =
      movie_frames(keyframe_path(browser_keyframes(key + "0;" + key + "1"), 3), keys({}));
  REQUIRE(frames.size() == 3);
  const ViewResult written = views.draw(ViewJob{"me", frames[1], false, 1, dir.file("served.png")});
  INFO(written.body);
  REQUIRE(written.status == 200);
  CHECK(read_file(dir.file("served0001.png")) == between);
}
