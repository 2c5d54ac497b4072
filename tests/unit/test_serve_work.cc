// A browser's picture's work (issue 36, section 8): the pixels its splats cover, bounded by a
// budget; a picture no longer wanted (superseded, its browser gone, its movie cancelled) is
// dropped or stops at its next step. splotch/serve/work_budget.h, splotch/serve/view_queue.h.
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "splotch/serve/work_budget.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

namespace {

// Sends a request and closes the connection without reading the answer: a browser giving up.
void ask_and_go(int port, const std::string& path) {
  const int fd = connect_to(port);
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
  REQUIRE(::send(fd, request.data(), request.size(), 0) == ssize_t(request.size()));
  ::close(fd);
}

}  // namespace

TEST_CASE("serve: the pixels splats cover, as the renderer clips them; estimated from a sample") {
  Splats s;
  auto add = [&](float x, float y, float r) {
    s.x.push_back(x);
    s.y.push_back(y);
    s.radius.push_back(r);
  };
  add(10, 10, 4);    // footprint radius 3: columns and rows 8 to 13
  add(0, 0, 40);     // radius 30, clipped at the corner: 0 to 30
  add(500, 10, 4);   // off the picture
  add(50, 50, 1e6);  // the whole picture
  CHECK(splat_pixels(s, 100, 80) == 36 + 31 * 31 + 0 + 100 * 80);
  CHECK(splat_pixels(Splats(), 100, 80) == 0);

  // 40000 particles in a cube, seen from outside: the estimate from 4000 of them within 5 % of all.
  ParticleSet p;
  std::mt19937 random(3);
  std::uniform_real_distribution<float> at(-1, 1), h(0.01f, 0.2f);
  for (int i = 0; i < 40000; ++i) {
    p.x.push_back(at(random));
    p.y.push_back(at(random));
    p.z.push_back(at(random));
    p.hsml.push_back(h(random));
    p.intensity.push_back(1);
    p.colour[0].push_back(1);
  }
  GeometryOptions g;
  g.camera.position = g.camera.center = {0, -6, 0};
  g.camera.lookat = {0, 0, 0};
  g.camera.xres = 300;
  g.camera.yres = 200;
  g.smooth_factor = {1};
  const double exact = splat_pixels(project(p, g, false), 300, 200);
  CHECK(exact > 40000);
  CHECK(estimated_splat_pixels(p, g, false, 40000) == exact);
  CHECK(estimated_splat_pixels(p, g, false, 4000) == doctest::Approx(exact).epsilon(0.05));
  CHECK(over_budget_text(3.2e13, 1e10).find("3.2e+13 pixels, beyond the 1e+10") != std::string::npos);
}

TEST_CASE("serve: a browser's view beyond the work budget is refused before it is drawn; the .par's own sets a floor") {
  TempDir dir;
  ViewServerOptions options = test_options();
  options.work_budget = 0;  // the budget: 4 times the .par's own picture's
  ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"))), options);
  const ViewResult first = views.draw(ViewJob{"", {}, false});
  REQUIRE(first.status == 200);
  const double own = std::stod(header(first, "X-Splotch-Splat-Pixels"));
  CHECK(own > 2000);
  CHECK(views.work_budget() == 4 * own);
  // The .par's view, and one zoomed in twice as far, are drawn; far wider splats are not.
  CHECK(views.draw(ViewJob{"me", {}, false}).status == 200);
  const ViewResult zoomed = views.draw(ViewJob{"me", {{"fov", "25"}}, false});
  CHECK(zoomed.status == 200);
  CHECK(std::stod(header(zoomed, "X-Splotch-Splat-Pixels")) < 4 * own);
  const ViewResult wide = views.draw(ViewJob{"me", {{"smooth_factor0", "8"}}, false});
  CHECK(wide.status == 400);
  CHECK(wide.body.find("beyond the") != std::string::npos);
  CHECK(wide.body.find("lower smooth_factor, minrad_pix or the picture's size") != std::string::npos);
  CHECK(wide.headers.empty());                                         // (no picture, no times)
  CHECK(views.used_par("me")->find("fov = 25") != std::string::npos);  // the last picture drawn stays the saved one
  // Reduced pictures too.
  CHECK(views.draw(ViewJob{"me", {{"smooth_factor0", "8"}}, true}).status == 400);
}

TEST_CASE(
    "serve over HTTP: issue 36's heavy view (4096^2, smooth_factor0 = minrad_pix = 64) is refused, and another "
    "browser served") {
  TempDir dir;
  ViewServerOptions options = test_options();
  options.work_budget = 1e10;  // (this snapshot's 2000 particles cover 3e10 pixels then)
  RunningServer server(clumps_par(dir, dir.file("served.png")), false, {}, options);
  httplib::Client client("127.0.0.1", server.port);
  const auto heavy = client.Get("/view?token=s3cret&client=h&xres=4096&yres=4096&smooth_factor0=64&minrad_pix=64");
  REQUIRE(heavy);
  CHECK(heavy->status == 400);
  CHECK(heavy->body.find("beyond the 1e+10 a browser's picture may take here") != std::string::npos);
  const auto other = client.Get("/view?token=s3cret&client=o");
  REQUIRE(other);
  CHECK(other->status == 200);
}

TEST_CASE("serve: a job no longer wanted is dropped while it waits, and its drawing stops at the next step") {
  Gate gate(false);
  std::atomic<int> drawn_to_the_end{0};
  ViewQueue queue([&](const ViewJob& job) {
    gate.pass();
    if (!job.wanted()) throw ViewCancelled();  // a step of the drawing
    ++drawn_to_the_end;
    return ViewResult{200, "text/plain", job.client, {}, nullptr};
  });
  std::atomic<bool> a_there{true}, b_there{true};
  std::optional<ViewResult> a, b, c;
  std::thread ta([&] { a = queue.submit(ViewJob{"a", {}, false}, [&] { return a_there.load(); }); });
  gate.wait_entered(1);
  std::thread tb([&] { b = queue.submit(ViewJob{"b", {}, false}, [&] { return b_there.load(); }); });
  wait_until([&] { return queue.waiting() == 1; });
  b_there = false;  // b's browser goes while b waits: dropped, never drawn
  tb.join();
  CHECK_FALSE(b);
  CHECK(queue.waiting() == 0);
  CHECK(queue.cancelled() == 1);
  a_there = false;  // a's goes while a is drawn: its drawing is told, and stops
  wait_until([&] { return queue.drawing_told_to_stop(); });
  gate.set(true);
  ta.join();
  CHECK_FALSE(a);
  CHECK(queue.cancelled() == 2);
  CHECK(queue.drawn() == 0);
  CHECK(drawn_to_the_end == 0);
  // A job cancelled before its turn is not drawn; the queue goes on.
  ViewJob cancelled{"c", {}, false};
  cancelled.cancelled = std::make_shared<std::atomic<bool>>(true);
  CHECK_FALSE(queue.submit(cancelled));
  c = queue.submit(ViewJob{"c", {}, false});
  REQUIRE(c);
  CHECK(c->body == "c");
  CHECK(drawn_to_the_end == 1);
}

TEST_CASE("serve: a view found cancelled stops before it is drawn (ViewCancelled), and the next is drawn") {
  TempDir dir;
  ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"))), test_options());
  start(views);
  ViewJob job{"me", {{"camera_x", "30"}}, false};
  job.cancelled = std::make_shared<std::atomic<bool>>(true);
  CHECK_THROWS_AS(views.draw(job), ViewCancelled);
  CHECK_FALSE(views.used_par("me"));
  CHECK(views.draw(ViewJob{"me", {{"camera_x", "30"}}, false}).status == 200);
}

TEST_CASE("serve over HTTP: a browser that gives up has its picture dropped or cancelled, not drawn") {
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), true);
  // Browser a's picture is being drawn (held at the gate), b's waits; both give up.
  ask_and_go(server.port, "/view?token=s3cret&client=a&camera_x=30");
  server.wait_entered(2);
  ask_and_go(server.port, "/view?token=s3cret&client=b&camera_x=35");
  wait_until([&] { return server.queue.cancelled() == 1 && server.queue.waiting() == 0; });  // b's, dropped
  wait_until([&] { return server.queue.drawing_told_to_stop(); });                           // a's
  server.release();
  wait_until([&] { return server.queue.cancelled() == 2; });
  CHECK(server.queue.drawn() == 1);  // the start's only
  CHECK_FALSE(server.views.used_par("a"));
  // A browser that stays gets its picture.
  httplib::Client client("127.0.0.1", server.port);
  const auto r = client.Get("/view?token=s3cret&client=c");
  REQUIRE(r);
  CHECK(r->status == 200);
}
