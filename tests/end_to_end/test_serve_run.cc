// The server (bin/splotch --serve): which keys a browser may set, the coalescing of views, the
// pictures (the same as bin/splotch's for the same keys, and the saved .par rendering them again),
// and the HTTP side (the token, refused requests, a burst of views), and the program itself
// started, asked and stopped. splotch/serve/.
// Here the cases that run bin/splotch as a user does; the others: tests/unit/test_serve.cc.
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
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

TEST_CASE(
    "serve: a view is the picture bin/splotch renders for its keys, and its saved .par renders it again (compared with "
    "bin/splotch)") {
  TempDir dir;
  const std::string par = clumps_par(dir, dir.file("served.png"));
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  CHECK(views.held().reads() == 1);
  const KeyValues keys = browser_keys({{"camera_x", "20"},
                                       {"camera_y", "-40"},
                                       {"camera_z", "70"},
                                       {"brightness0", "3.5"},
                                       {"palette0", "grey"},
                                       {"a_eq_e", "FALSE"},
                                       {"xres", "150"},
                                       {"yres", "100"}},
                                      views.ptypes(), views.palettes());
  const ViewResult view = views.draw(ViewJob{"me", keys, false});
  REQUIRE(view.status == 200);
  CHECK(view.content_type == "image/png");
  CHECK(views.held().reads() == 1);  // the snapshot held, not read again

  // bin/splotch with the same keys on the command line.
  CHECK(bytes_of(view) == bin_splotch_picture(dir, par, keys));

  // The saved .par (the record of the view) renders the same bytes, to the .par's outfile.
  const std::optional<std::string> record = views.used_par("me");
  REQUIRE(record);
  CHECK(record->find("brightness0 = 3.5") != std::string::npos);
  CHECK(record->find("server") == std::string::npos);
  const CommandResult again = run_command("bin/splotch --quiet " + dir.write("view.par", *record));
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(read_file(dir.file("served.png")) == bytes_of(view));
  CHECK_FALSE(views.used_par("someone else"));
}

TEST_CASE(
    "serve: a change of a type's range or log is normalised again from the held values, not read again (compared with "
    "bin/splotch)") {
  TempDir dir;
  const std::string par = clumps_par(dir, dir.file("served.png"));
  ViewServer views(ParamFile::read(par), test_options());
  start(views);
  const KeyValues keys = {
      {"color_log0", "FALSE"}, {"color_min0", "2"}, {"color_max0", "9"}, {"intensity_log0", "TRUE"}};
  const ViewResult changed = views.draw(ViewJob{"me", keys, false});
  REQUIRE(changed.status == 200);
  CHECK(views.held().reads() == 1);
  CHECK(views.held().normalisations() == 1);
  // The page's ranges are its own pictures': the colour range used is 2 to 9 for this browser,
  // the data's for another.
  CHECK(views.info_json("me").find("\"colour_used\":[2,9]") != std::string::npos);
  CHECK(views.info_json("other").find("\"colour_used\":[2,9]") == std::string::npos);
  CHECK(changed.body == bin_splotch_picture(dir, par, keys));
  // And back: the first normalisation again gives the first picture.
  const ViewResult back = views.draw(ViewJob{"me", {}, false});
  CHECK(views.held().normalisations() == 2);
  CHECK(back.body == bin_splotch_picture(dir, par, {}, "first.png"));
}

TEST_CASE("bin/splotch --serve and server = TRUE: the URL printed, a view served, Ctrl-C ends it with status 0") {
  TempDir dir;
  const std::string par = clumps_par(dir, dir.file("served.png"));
  for (const std::string& how : {"--serve " + par + " --port 0", par + " server=TRUE --port=0"}) {
    INFO(how);
    ServerProcess server(how, dir.file("err"));
    INFO(server.out << read_file(dir.file("err")));
    REQUIRE(server.port > 0);
    CHECK(server.token.size() == 32);
    CHECK(server.out.find("ssh -L " + std::to_string(server.port) + ":127.0.0.1:" + std::to_string(server.port)) !=
          std::string::npos);
    httplib::Client client("127.0.0.1", server.port);
    const auto view = client.Get("/view?token=" + server.token + "&client=t&camera_x=30");
    REQUIRE(view);
    CHECK(view->status == 200);
    CHECK(client.Get("/view?client=t")->status == 403);
    CHECK(server.stop() == 0);
    CHECK_FALSE(file_exists(dir.file("served.png")));  // the server writes no picture
  }
  // The server's options without a server.
  const CommandResult stray = run_command("bin/splotch " + par + " --port 9000");
  CHECK(stray.status == 1);
  CHECK(stray.err.find("--port is for --serve") != std::string::npos);
  // A snapshot that cannot be read: the error of bin/splotch, and no server.
  const CommandResult missing = run_command("bin/splotch --serve " + par + " --port 0 infile=" + dir.file("none.bin"));
  CHECK(missing.status == 1);
  CHECK(missing.err.find("none.bin") != std::string::npos);
}

TEST_CASE(
    "serve over HTTP: a recorded path as a scene file, and rendered here as the same movie bin/splotch renders "
    "(compared with bin/splotch)") {
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), false);
  httplib::Client client("127.0.0.1", server.port);
  const std::string keys = "50,-60,50,50,50,50,0,0,1;20,-40,60,45,50,50,0,0,1;0,-20,80,40,50,50,0,1,0";
  const std::string view_keys = "&brightness0=3&palette0=grey";
  // The scene file.
  const auto scene = client.Get("/scene?token=s3cret&frames=5&keys=" + keys);
  REQUIRE(scene);
  REQUIRE(scene->status == 200);
  CHECK(scene->body.rfind("camera_x camera_y camera_z lookat_x", 0) == 0);
  CHECK(std::count(scene->body.begin(), scene->body.end(), '\n') == 6);
  CHECK(client.Get("/scene?token=s3cret&frames=5&keys=1,2,3")->status == 400);
  CHECK(client.Get("/scene?token=s3cret&frames=1&keys=" + keys)->status == 400);
  // A zero sky, a camera at lookat, a sky turned over: 400 saying so, not a path of NaN.
  for (const char* bad : {"0,0,0,0,50,0,0,0,0;10,0,0,10,50,0,0,0,1", "0,0,0,0,0,0,0,0,1;10,0,0,10,50,0,0,0,1",
                          "0,0,0,0,50,0,0,0,1;10,0,0,10,50,0,0,0,-1"}) {
    INFO(bad);
    const auto r = client.Get(std::string("/scene?token=s3cret&frames=5&keys=") + bad);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body.find("keyframe") != std::string::npos);
  }
  CHECK(client.Get("/scene?frames=5&keys=" + keys)->status == 403);
  // The view's .par, saved, with the scene file: bin/splotch's movie.
  REQUIRE(client.Get("/view?token=s3cret&client=m" + view_keys)->status == 200);
  const auto par = client.Get("/par?token=s3cret&client=m");
  REQUIRE(par->status == 200);
  const CommandResult movie = run_command("bin/splotch --quiet " + dir.write("view.par", par->body) + " scene_file=" +
                                          dir.write("path.txt", scene->body) + " outfile=" + dir.file("cli.png"));
  INFO(movie.err);
  REQUIRE(movie.status == 0);
  // The same movie rendered by the server, to the .par's outfile.
  const auto started = client.Get("/movie?token=s3cret&confirm=1&frames=5&keys=" + keys + view_keys);
  REQUIRE(started);
  CHECK(started->status == 202);
  CHECK(client.Get("/movie?token=s3cret&confirm=1&frames=5&keys=" + keys)->status == 409);  // one at a time
  server.movie.wait();
  const auto progress = client.Get("/movie/progress?token=s3cret");
  REQUIRE(progress);
  CHECK(progress->body.find("\"running\":false") != std::string::npos);
  CHECK(progress->body.find("\"done\":5") != std::string::npos);
  CHECK(progress->body.find("served0004.png") != std::string::npos);
  for (int f = 0; f < 5; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "%04d.png", f);
    INFO(name);
    REQUIRE(file_exists(dir.file(std::string("served") + name)));
    CHECK(read_file(dir.file(std::string("served") + name)) == read_file(dir.file(std::string("cli") + name)));
    CHECK(file_exists(dir.file(std::string("served") + name + ".used.par")));
  }
  CHECK(read_file(dir.file("served0000.png")) != read_file(dir.file("served0004.png")));
  if (std::getenv("SPLOTCH_KEEP")) std::system(("cp -r " + dir.path() + " /tmp/kept").c_str());
  // A movie cancelled stops early.
  const auto second = client.Get("/movie?token=s3cret&confirm=1&frames=400&keys=" + keys);
  REQUIRE(second->status == 202);
  CHECK(client.Get("/movie/cancel?token=s3cret")->status == 200);
  server.movie.wait();
  const MovieProgress cancelled = server.movie.progress();
  CHECK(cancelled.cancelled);
  CHECK(cancelled.done < 400);
}

TEST_CASE(
    "serve: real snapshots of ../shared/data, the camera placed from the data, then moved as a browser moves it "
    "(compared with bin/splotch)") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot server test skipped: ../shared/data is not beside this checkout");
    return;
  }
  struct Real {
    const char* file;
    int ptype;
    const char* size;
  };
  for (const Real& r : {Real{"pop3_gadget2_fmt2_gassphere_snapshot_004", 0, "size_fix0 = 0"},
                        Real{"gadgetreader_test_g2_snap.0", 1, "size_estimate0 = knn"}}) {
    INFO(r.file);
    TempDir dir;
    const std::string par = dir.write("real.par", "simtype = 2\ninfile = " + data + "/" + r.file +
                                                      "\nptype0 = " + std::to_string(r.ptype) + "\n" + r.size +
                                                      "\nintensity_label0 = MASS\nintensity_log0 = TRUE\npalette0 = "
                                                      "testdata/palettes/fire.pal\nxres = 200\nyres = 150\noutfile = " +
                                                      dir.file("real.png") + "\n");
    ViewServer views(ParamFile::read(par), test_options());
    start(views);
    // The page's first keys: the camera placed from the data, written out.
    const std::string info = views.info_json();
    REQUIRE(info.find("\"camera_x\":") != std::string::npos);
    const ParamFile first = ParamFile::parse(*views.used_par(""), "first");
    const double camera_z = std::stod(first.peek("camera_z")), lookat_z = std::stod(first.peek("lookat_z"));
    // A zoom towards lookat, as the wheel does, and a brighter type 0.
    const KeyValues keys = {{"camera_x", first.peek("camera_x")},
                            {"camera_y", first.peek("camera_y")},
                            {"camera_z", std::to_string(lookat_z + 0.7 * (camera_z - lookat_z))},
                            {"lookat_x", first.peek("lookat_x")},
                            {"lookat_y", first.peek("lookat_y")},
                            {"lookat_z", first.peek("lookat_z")},
                            {"brightness0", "2"}};
    const ViewResult view = views.draw(ViewJob{"me", keys, false});
    REQUIRE(view.status == 200);
    CHECK(view.body == bin_splotch_picture(dir, par, keys));
    CHECK(views.held().reads() == 1);
    // A view that moves the camera alone keeps the first picture's lookat (placed from the data).
    const ViewResult moved = views.draw(ViewJob{"me", {keys[0], keys[1], keys[2]}, false});
    INFO(moved.body.substr(0, 300));
    CHECK(moved.status == 200);
  }
}
