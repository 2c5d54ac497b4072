// The server (bin/splotch --serve): which keys a browser may set, the coalescing of views, the
// pictures (the same as bin/splotch's for the same keys, and the saved .par rendering them again),
// and the HTTP side (the token, refused requests, a burst of views), and the program itself
// started, asked and stopped. splotch/serve/.
// The cases that run bin/splotch as a user does: tests/end_to_end/test_serve_run.cc.
#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/image_reader.h"
#include "params/param_file.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/http_server.h"
#include "splotch/serve/movie_run.h"
#include "splotch/serve/recorded_path.h"
#include "splotch/serve/request_rate.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

namespace {

const std::vector<PaletteChoice> two_palettes = {{"fire", "/p/fire.pal"}, {"grey", "/p/grey.pal"}};

}  // namespace

TEST_CASE("serve: a browser may set rendering keys only, each value of its kind") {
  const KeyValues ok = {{"camera_x", "1.5"},     {"lookat_z", "-3e2"},   {"xres", "640"},      {"a_eq_e", "FALSE"},
                        {"brightness1", "0.25"}, {"color_log0", "TRUE"}, {"palette1", "grey"}, {"exposure", "auto"}};
  const KeyValues checked = browser_keys(ok, 2, two_palettes);
  REQUIRE(checked.size() == ok.size());
  CHECK(checked[0] == std::make_pair(std::string("camera_x"), std::string("1.5")));
  CHECK(checked[6].second == "/p/grey.pal");  // a palette by name becomes its path

  auto refused = [&](const KeyValues& q, const std::string& says) {
    INFO(q.front().first << " = " << q.front().second);
    try {
      browser_keys(q, 2, two_palettes);
      FAIL("accepted");
    } catch (const BadRequest& e) { CHECK(std::string(e.what()).find(says) != std::string::npos); }
  };
  // Paths to read or write, and keys that are not rendering keys.
  refused({{"infile", "/etc/passwd"}}, "not a key the browser may set");
  refused({{"outfile", "/tmp/x.png"}}, "not a key the browser may set");
  refused({{"scene_file", "x"}}, "not a key the browser may set");
  refused({{"palette0", "/etc/passwd"}}, "not one of the palettes offered (fire, grey)");
  refused({{"palette0", "../testdata/palettes/fire"}}, "not one of the palettes offered");
  refused({{"brightness2", "1"}}, "has 2 types");
  refused({{"brightnessx", "1"}}, "not a key the browser may set");
  // Values not of their kind.
  refused({{"camera_x", "nan"}}, "a finite number");
  refused({{"camera_x", "inf"}}, "a finite number");
  refused({{"camera_x", "1e999"}}, "a finite number");
  refused({{"camera_x", "12abc"}}, "a finite number");
  refused({{"camera_x", ""}}, "a finite number");
  refused({{"xres", "0"}}, "from 1 to 4096");
  refused({{"xres", "100000"}}, "from 1 to 4096");
  refused({{"yres", "12.5"}}, "from 1 to 4096");
  refused({{"a_eq_e", "maybe"}}, "TRUE or FALSE");
  refused({{"exposure", "bright"}}, "auto, FALSE or a factor");
  refused({{"fov", "1"}, {"fov", "2"}}, "given twice");
  refused({{"camera_x", " 55"}}, "a space");
  refused({{"camera_x", "\n55"}}, "a control character");
  refused({{"brightness00", "1"}}, "not a key the browser may set");
  refused({{"minrad_pix", "100"}}, "at most 64");
  refused({{"smooth_factor0", "65"}}, "at most 64");
  // Booleans as a .par may write them, and shown as TRUE or FALSE.
  CHECK(browser_keys({{"a_eq_e", "y"}, {"colorbar", ".true."}}, 1, two_palettes).size() == 2);
  CHECK(canonical_value("a_eq_e", "y") == "TRUE");
  CHECK(canonical_value("color_log0", ".false.") == "FALSE");
  CHECK(canonical_value("fov", "30") == "30");
  refused({{"fov", std::string(101, '1')}}, "at most 100");
  KeyValues many;
  for (int i = 0; i < 257; ++i) many.push_back({"fov", "1"});
  refused(many, "at most 256");
}

TEST_CASE("serve: the palettes offered are the .par's and the directory's, each name once") {
  const std::vector<PaletteChoice> p = palette_choices("testdata/palettes", {"/data/mine/fire.pal", "/x/own.pal"});
  REQUIRE(p.size() >= 3);
  CHECK(p[0].name == "fire");
  CHECK(p[0].path == "/data/mine/fire.pal");  // the .par's own, before the directory's of that name
  CHECK(p[1].name == "own");
  bool grey = false;
  for (const PaletteChoice& c : p) grey |= c.name == "grey" && c.path == "testdata/palettes/grey.pal";
  CHECK(grey);
  CHECK(palette_choices("/no/such/directory", {}).empty());
  // Two files of one name: the later one is named with its directory.
  const std::vector<PaletteChoice> twins = palette_choices("/no/such", {"/a/mine/fire.pal", "/b/yours/fire.pal"});
  REQUIRE(twins.size() == 2);
  CHECK(twins[0].name == "fire");
  CHECK(twins[1].name == "fire (yours)");
  CHECK(twins[1].path == "/b/yours/fire.pal");
}

TEST_CASE("serve: of one browser's views waiting, only the newest is drawn; browsers take turns") {
  Gate gate(false);
  std::vector<std::string> drawn;  // (by the queue's thread alone)
  ViewQueue queue([&](const ViewJob& job) {
    gate.pass();
    drawn.push_back(job.client + ":" + job.keys.at(0).second);
    return ViewResult{200, "text/plain", job.keys.at(0).second, {}, nullptr};
  });
  // The first view is drawn (and held there) while a burst of 50 more comes, one after another.
  std::vector<std::optional<ViewResult>> results(51);
  std::vector<std::thread> threads;
  threads.emplace_back([&] { results[0] = queue.submit(ViewJob{"a", {{"n", "0"}}, false}); });
  gate.wait_entered(1);
  for (int k = 1; k <= 50; ++k) {
    threads.emplace_back([&, k] { results[k] = queue.submit(ViewJob{"a", {{"n", std::to_string(k)}}, false}); });
    if (k == 1)
      wait_until([&] { return queue.waiting() == 1; });
    else
      wait_until([&] { return queue.superseded() == std::size_t(k - 1); });
  }
  // Another browser's view, after the burst: it waits its turn behind a's newest.
  std::optional<ViewResult> other;
  std::thread b([&] { other = queue.submit(ViewJob{"b", {{"n", "b"}}, false}); });
  wait_until([&] { return queue.waiting() == 2; });
  gate.set(true);
  for (std::thread& t : threads) t.join();
  b.join();
  CHECK(queue.drawn() == 3);  // the first, a's newest, b's
  CHECK(queue.superseded() == 49);
  REQUIRE(results[0]);
  CHECK(results[0]->body == "0");
  for (int k = 1; k < 50; ++k) CHECK_FALSE(results[k]);
  REQUIRE(results[50]);
  CHECK(results[50]->body == "50");  // the last view is the one shown
  REQUIRE(other);
  CHECK(other->body == "b");
  CHECK(drawn == std::vector<std::string>{"a:0", "a:50", "b:b"});
}

TEST_CASE("serve: a view refused for a full queue (503) leaves its browser's picture being drawn as it was") {
  Gate gate(false);
  ViewQueue queue(
      [&](const ViewJob& job) {
        gate.pass();
        const bool cancelled = job.cancelled && *job.cancelled;
        return ViewResult{200, "text/plain", cancelled ? "cancelled" : "drawn", {}, nullptr};
      },
      1);  // one browser may wait
  std::optional<ViewResult> a, b;
  std::thread first([&] { a = queue.submit(ViewJob{"a", {{"n", "0"}}, false}); });
  gate.wait_entered(1);  // a's picture is being drawn
  std::thread second([&] { b = queue.submit(ViewJob{"b", {{"n", "1"}}, false}); });
  wait_until([&] { return queue.waiting() == 1; });
  // a's newer view finds the queue full: refused, and a's picture is still wanted.
  const std::optional<ViewResult> refused = queue.submit(ViewJob{"a", {{"n", "2"}}, false});
  REQUIRE(refused);
  CHECK(refused->status == 503);
  gate.set(true);
  first.join();
  second.join();
  REQUIRE(a);
  CHECK(a->body == "drawn");
  REQUIRE(b);
  CHECK(b->body == "drawn");
}

TEST_CASE("serve: stopping the queue answers the views waiting (503) and finishes the one being drawn") {
  Gate gate(false);
  ViewQueue queue([&](const ViewJob& job) {
    gate.pass();
    return ViewResult{200, "text/plain", job.client, {}, nullptr};
  });
  std::optional<ViewResult> drawn, waiting;
  std::thread a([&] { drawn = queue.submit(ViewJob{"a", {}, false}); });
  gate.wait_entered(1);
  std::thread b([&] { waiting = queue.submit(ViewJob{"b", {}, false}); });
  wait_until([&] { return queue.waiting() == 1; });
  queue.stop();
  b.join();  // answered at once, while a's is still drawn
  REQUIRE(waiting);
  CHECK(waiting->status == 503);
  gate.set(true);
  a.join();
  REQUIRE(drawn);
  CHECK(drawn->status == 200);
  CHECK(drawn->body == "a");
  CHECK(queue.drawn() == 1);
  CHECK(queue.submit(ViewJob{"c", {}, false})->status == 503);
}

TEST_CASE("serve: a .par between two snapshots or of several views is refused, saying how to serve it") {
  TempDir dir;
  for (const std::string& more :
       {std::string("EyeSeparation = 2\n"), std::string("panorama = TRUE\nfov = 90\nyres = 160\n")}) {
    INFO(more);
    ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"), more)), test_options());
    try {
      views.draw(ViewJob{"", {}, false});
      FAIL("served");
    } catch (const UserError& e) { CHECK(std::string(e.what()).find("the server shows one") != std::string::npos); }
  }
  // The first picture is the .par's picture; a map is the page's map mode.
  ViewServer maps(ParamFile::read(clumps_par(dir, dir.file("served.png"), "map = column\n")), test_options());
  CHECK_THROWS_WITH_AS(maps.draw(ViewJob{"", {}, false}), doctest::Contains("choose the map in the page"), UserError);
}

TEST_CASE("serve: an error in drawing is answered (500) and the queue goes on") {
  ViewQueue queue([](const ViewJob& job) -> ViewResult {
    if (job.client == "bad") throw std::runtime_error("broken");
    return ViewResult{200, "text/plain", "fine", {}, nullptr};
  });
  const std::optional<ViewResult> bad = queue.submit(ViewJob{"bad", {}, false});
  REQUIRE(bad);
  CHECK(bad->status == 500);
  CHECK(bad->error);
  CHECK(bad->body.find("broken") != std::string::npos);
  const std::optional<ViewResult> good = queue.submit(ViewJob{"good", {}, false});
  REQUIRE(good);
  CHECK(good->body == "fine");
}

TEST_CASE(
    "serve: a camera placed from the data by the first picture is every later view's, but for the keys a view "
    "gives") {
  TempDir dir;
  const std::string text = read_file(clumps_par(dir, dir.file("served.png")));
  std::string without_camera;  // the .par gives no camera: the first picture places it
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at) == std::string::npos ? text.size() : text.find('\n', at) + 1;
    const std::string line = text.substr(at, end - at);
    if (line.rfind("camera_", 0) != 0 && line.rfind("lookat_", 0) != 0) without_camera += line;
    at = end;
  }
  ViewServer views(ParamFile::parse(without_camera, dir.file("placed.par")), test_options());
  start(views);
  const std::optional<std::string> first = views.used_par("");
  REQUIRE(first);
  const ParamFile placed = ParamFile::parse(*first, "the first record");
  REQUIRE(placed.has("camera_y"));
  REQUIRE(placed.has("lookat_x"));
  const KeyValues keys = browser_keys({{"camera_x", "20"}}, views.ptypes(), views.palettes());
  REQUIRE(views.draw(ViewJob{"me", keys, false}).status == 200);
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  const ParamFile later = ParamFile::parse(*record, "the later record");
  CHECK(later.peek("camera_x") == "20");  // the view's own key
  for (const char* key : {"camera_y", "camera_z", "lookat_x", "lookat_y", "lookat_z", "sky_z"})
    CHECK(later.peek(key) == placed.peek(key));
}

TEST_CASE("serve: a reduced view is a JPEG of half the size from a share of the particles") {
  TempDir dir;
  ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"))), test_options());
  start(views);
  const ViewResult full = views.draw(ViewJob{"me", {}, false});
  const ViewResult reduced = views.draw(ViewJob{"me", {}, true});
  REQUIRE(reduced.status == 200);
  CHECK(reduced.content_type == "image/jpeg");
  const Image8 small = decode(dir, reduced.body);
  CHECK(small.width == 80);
  CHECK(small.height == 60);
  auto header = [](const ViewResult& r, const std::string& name) {
    for (const auto& [k, v] : r.headers)
      if (k == name) return v;
    return std::string();
  };
  const long kept = std::stol(header(reduced, "X-Splotch-Particles"));
  const long all = std::stol(header(full, "X-Splotch-Particles"));
  CHECK(all == 2000);
  CHECK(kept > 0.15 * all);  // a quarter, about
  CHECK(kept < 0.35 * all);
  // The reduced picture keeps the full one's look: their mean levels within a fifth.
  const Image8 big = decode(dir, full.body);
  auto mean = [](const Image8& i) {
    double s = 0;
    for (const std::uint8_t v : i.rgb) s += v;
    return s / double(i.rgb.size());
  };
  INFO("full " << mean(big) << ", reduced " << mean(small));
  CHECK(mean(small) == doctest::Approx(mean(big)).epsilon(0.2));
  CHECK(views.held().reads() == 1);
  // The full picture's record stays the one saved: a reduced picture does not replace it.
  const std::optional<std::string> after_full = views.used_par("me");
  REQUIRE(after_full);
  views.draw(ViewJob{"me", {{"camera_x", "10"}}, true});
  CHECK(views.used_par("me") == after_full);
}

TEST_CASE("serve: a reduced view after a change of range keeps its share of the particles, with the new values") {
  TempDir dir;
  const std::string par = clumps_par(dir, dir.file("served.png"));
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  const ViewResult before = views.draw(ViewJob{"me", {}, true});
  REQUIRE(before.status == 200);
  CHECK(views.held().shares_made() == 1);
  const KeyValues keys = {{"color_log0", "FALSE"}, {"color_min0", "2"}, {"color_max0", "9"}};
  const ViewResult after = views.draw(ViewJob{"me", keys, true});
  REQUIRE(after.status == 200);
  CHECK(views.held().normalisations() == 1);
  CHECK(views.held().shares_made() == 1);  // its values taken again, the share kept
  CHECK(after.body != before.body);
  // The same picture as a server's whose first reduced view has these keys.
  ViewServer fresh(ParamFile::read(par), test_options());
  start(fresh);
  const ViewResult first = fresh.draw(ViewJob{"me", keys, true});
  CHECK(fresh.held().shares_made() == 1);
  CHECK(after.body == first.body);
}

TEST_CASE("serve over HTTP: the token, refused requests answered 400 while serving goes on, the page, Save") {
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), false);
  httplib::Client client("127.0.0.1", server.port);
  // The token, on every request.
  for (const char* path : {"/", "/?token=wrong", "/info", "/view?client=a", "/par?client=a&token=s3cre"}) {
    INFO(path);
    const auto r = client.Get(path);
    REQUIRE(r);
    CHECK(r->status == 403);
  }
  const auto page = client.Get("/?token=s3cret");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->body.find("<script>") != std::string::npos);
  const auto info = client.Get("/info?token=s3cret");
  REQUIRE(info);
  CHECK(info->body.find("\"ptypes\":1") != std::string::npos);
  CHECK(info->body.find("\"camera_x\":\"50\"") != std::string::npos);
  CHECK(info->body.find("\"palette0\":\"fire\"") != std::string::npos);
  // Refused: each with a reason, and the server answers the next request.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"/view?token=s3cret&client=a&infile=/etc/passwd", "not a key the browser may set"},
      {"/view?token=s3cret&client=a&outfile=/tmp/evil.png", "not a key the browser may set"},
      {"/view?token=s3cret&client=a&xres=100000", "from 1 to 4096"},
      {"/view?token=s3cret&client=a&fov=250", "between 0 and 180"},
      {"/view?token=s3cret&client=a&quality=best", "full or reduced"},
      {"/view?token=s3cret&camera_x=1", "client=NAME"},
      {"/view?token=s3cret&client=a&camera_x=%ff%fe", "beyond ASCII"},
      {"/view?token=s3cret&client=a&camera_x=%0A%0955", "a control character"},
      {"/view?token=s3cret&client=the%20movie", "client=NAME"},
      {"/view?token=s3cret&client=a&quality=full&quality=reduced", "given once"},
  };
  for (const auto& [path, says] : refused) {
    INFO(path);
    const auto r = client.Get(path);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body.find(says) != std::string::npos);
  }
  CHECK(client.Get("/nothing?token=s3cret")->status == 404);
  CHECK(client.Post("/view?token=s3cret&client=a", "x", "text/plain")->status != 200);
  CHECK(raw_exchange(server.port, "GARBAGE\r\n\r\n").find(" 400 ") != std::string::npos);
  // Another method than GET: 405, and the connection ends, its body unread and never taken for the
  // next request (here a GET of the token's /info, which would be answered 200).
  const std::string smuggled = "GET /info?token=s3cret HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string post =
      raw_exchange(server.port, "POST /info HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(smuggled.size()) +
                                    "\r\n\r\n" + smuggled);
  CHECK(post.find(" 405 ") != std::string::npos);
  CHECK(post.find(" 200 ") == std::string::npos);
  CHECK(raw_exchange(server.port, std::string(20000, 'A') + "\r\n\r\n").find(" 4") != std::string::npos);
  CHECK(client.Get("/par?token=s3cret&client=a")->status == 404);  // no full picture of a's yet

  const auto view = client.Get("/view?token=s3cret&client=a&camera_z=60&brightness0=1.5");
  REQUIRE(view);
  CHECK(view->status == 200);
  CHECK(view->get_header_value("Content-Type") == "image/png");
  CHECK(view->body == server.views.draw(ViewJob{"x", {{"camera_z", "60"}, {"brightness0", "1.5"}}, false}).body);
  const auto saved = client.Get("/par?token=s3cret&client=a");
  REQUIRE(saved);
  CHECK(saved->status == 200);
  CHECK(saved->get_header_value("Content-Disposition").find("view.par") != std::string::npos);
  CHECK(saved->body.find("brightness0 = 1.5") != std::string::npos);
  CHECK(saved->body == *server.views.used_par("a"));  // the record the saved .par's tests render
}

TEST_CASE(
    "serve over HTTP: a burst of 50 views of one browser draws one picture, the last view's; the one being drawn is "
    "cancelled") {
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), true);
  std::vector<httplib::Result> results;
  std::vector<int> status(51, 0);
  std::vector<std::string> bodies(51);
  std::vector<std::thread> threads;
  auto get = [&](int k) {
    httplib::Client c("127.0.0.1", server.port);
    c.set_read_timeout(600, 0);
    const auto r = c.Get("/view?token=s3cret&client=burst&camera_x=" + std::to_string(40 + k));
    if (r) {
      status[std::size_t(k)] = r->status;
      bodies[std::size_t(k)] = r->body;
    }
  };
  threads.emplace_back(get, 0);
  server.wait_entered(2);  // the first picture (at the start) and this one
  for (int k = 1; k <= 50; ++k) {
    threads.emplace_back(get, k);
    if (k == 1)
      wait_until([&] { return server.queue.waiting() == 1; });
    else
      wait_until([&] { return server.queue.superseded() == std::size_t(k - 1); });
  }
  server.release();
  for (std::thread& t : threads) t.join();
  CHECK(server.queue.drawn() == 2);      // the start's, the burst's last
  CHECK(server.queue.cancelled() == 1);  // the first view's, superseded while drawn
  for (int k = 0; k < 50; ++k) CHECK(status[std::size_t(k)] == 204);
  CHECK(status[50] == 200);
  CHECK(bodies[50] == server.views.draw(ViewJob{"x", {{"camera_x", "90"}}, false}).body);
}

TEST_CASE("serve: each address's request rate is bounded, a burst allowed, the bucket refilling with time") {
  RequestRate rate(10, 20, 3);
  int allowed = 0;
  for (int i = 0; i < 30; ++i) allowed += rate.allow("10.0.0.1", 100.0);
  CHECK(allowed == 20);                        // the burst, all at one instant
  CHECK_FALSE(rate.allow("10.0.0.1", 100.0));  // and then none
  CHECK(rate.allow("10.0.0.2", 100.0));        // another address has its own bucket
  allowed = 0;
  for (int i = 0; i < 30; ++i) allowed += rate.allow("10.0.0.1", 100.5);
  CHECK(allowed == 5);                        // half a second at 10 a second
  CHECK_FALSE(rate.allow("10.0.0.1", 99.0));  // a clock going back gives nothing
  // Beyond most_peers the buckets idle long enough to be full go first, then the fullest; the
  // busy one stays.
  CHECK(rate.allow("10.0.0.3", 200.0));
  CHECK(rate.allow("10.0.0.4", 200.0));
  int busy = 0;
  for (int i = 0; i < 30; ++i) busy += rate.allow("10.0.0.1", 200.0);
  CHECK(busy == 20);
  CHECK(rate.allow("10.0.0.5", 200.0));
  CHECK_FALSE(rate.allow("10.0.0.1", 200.0));  // still empty: it was kept
}

TEST_CASE("serve: a recorded path's keyframes and frame count, as the page sends them") {
  const std::vector<CameraKey> keys = browser_keyframes("1,2,3,4,5,6,0,0,1;7,8,9,1e1,-2,3.5,0,1,0");
  REQUIRE(keys.size() == 2);
  CHECK(keys[1].lookat.x == 10);
  CHECK(keys[1].sky.y == 1);
  for (const char* bad :
       {"", "1,2,3,4,5,6,0,0,1", "1,2,3,4,5,6,0,0;1,2,3,4,5,6,0,0,1", "1,2,3,4,5,6,0,0,1,2;1,2,3,4,5,6,0,0,1",
        "1,2,3,4,5,6,0,0,nan;1,2,3,4,5,6,0,0,1", "1,2,3,4,x,6,0,0,1;1,2,3,4,5,6,0,0,1"}) {
    INFO(bad);
    CHECK_THROWS_AS(browser_keyframes(bad), BadRequest);
  }
  std::string many;
  for (int i = 0; i < 257; ++i) many += (i ? ";" : "") + std::string("1,2,3,4,5,6,0,0,1");
  CHECK_THROWS_AS(browser_keyframes(many), BadRequest);
  CHECK(browser_frame_count("120") == 120);
  for (const char* bad : {"", "1", "100001", "12x", "-5"}) CHECK_THROWS_AS(browser_frame_count(bad), BadRequest);
  // A frame's keys: the view's, its camera in place of the view's.
  const std::vector<KeyValues> frames =
      movie_frames(keyframe_path(keys, 3), {{"camera_x", "99"}, {"brightness0", "2"}, {"sky_z", "1"}});
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].size() == 10);
  CHECK(frames[0][0] == std::make_pair(std::string("brightness0"), std::string("2")));
  CHECK(frames[0][1] == std::make_pair(std::string("camera_x"), std::string("1")));
  CHECK(frames[2][4].second == "10");  // the last frame's lookat_x, the last key's
}
