// A movie rendered by the server (issue 36, section 8): its estimate shown and asked before it
// starts, and its frames never under an earlier movie's name. splotch/serve/movie_plan.h.
#include <doctest/doctest.h>
#include <httplib.h>

#include <string>

#include "splotch/serve/movie_plan.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

TEST_CASE("serve: a movie's frames take a name no earlier movie's frames have") {
  TempDir dir;
  const std::string out = dir.file("out.png");
  CHECK(unused_movie_name(out, 0, false) == out);
  write_file(dir.file("out.png"), "a single picture");  // not a frame
  write_file(dir.file("out0003.png.used.par"), "a record");
  write_file(dir.file("outline0000.png"), "another name's frame");
  CHECK(unused_movie_name(out, 0, false) == out);
  write_file(dir.file("out0003.png"), "a frame");  // any frame of the name, not only the first
  CHECK(unused_movie_name(out, 0, false) == dir.file("out_2_.png"));
  write_file(dir.file("out_2_12345.png"), "a frame beyond 9999");
  CHECK(unused_movie_name(out, 0, false) == dir.file("out_3_.png"));
  // Without an image extension, frames are numbered as the original numbers them (pictype).
  write_file(dir.file("demo0000.tga"), "a frame");
  CHECK(unused_movie_name(dir.file("demo"), 0, false) == dir.file("demo_2_"));
  CHECK(unused_movie_name(dir.file("demo"), 4, true) == dir.file("demo"));  // its frames are .png
  write_file(dir.file("UP0000.PNG"), "a frame");
  CHECK(unused_movie_name(dir.file("UP.PNG"), 0, false) == dir.file("UP_2_.PNG"));
}

TEST_CASE("serve: a movie's time and bytes, from the browser's last picture in proportion to the pixels") {
  // Issue 36's case: 100000 frames at 4096^2, after a picture of 800 x 600 in 0.25 s and 300 kB.
  const MoviePlan p = plan_movie(100000, 4096, 4096, PictureCost{0.25, 3e5, 800, 600}, "/m/out.png", 0, false, 1e11);
  const double scale = 4096.0 * 4096 / (800 * 600);
  CHECK(p.seconds == doctest::Approx(100000 * 0.25 * scale));  // 10 days
  CHECK(p.bytes == doctest::Approx(100000 * 3e5 * scale));     // 1 TB
  CHECK_FALSE(p.fits());                                       // on a disk of 100 GB free
  CHECK(p.first_file == "/m/out0000.png");
  CHECK(p.last_file == "/m/out99999.png");
  const std::string json = movie_plan_json(p);
  CHECK(json.find("\"frames\":100000,\"width\":4096,\"height\":4096,\"seconds\":873813.333") != std::string::npos);
  CHECK(json.find("\"fits\":false") != std::string::npos);
  CHECK(plan_movie(10, 800, 600, PictureCost{0.25, 3e5, 800, 600}, "/m/out.png", 0, false, 1e11).fits());
}

TEST_CASE(
    "serve over HTTP: a movie shows its estimate and starts only when confirmed; one too large for the disk is "
    "refused; a second movie never mixes with the first") {
  TempDir dir;
  ViewServerOptions options = test_options();
  options.free_bytes = [](const std::string&) { return 1e9; };  // a disk of 1 GB free
  RunningServer server(clumps_par(dir, dir.file("served.png")), false, {}, options);
  httplib::Client client("127.0.0.1", server.port);
  const std::string keys = "&keys=50,-60,50,50,50,50,0,0,1;20,-40,60,45,50,50,0,0,1";
  REQUIRE(client.Get("/view?token=s3cret&client=m")->status == 200);
  // 100000 frames at 4096^2: the estimate, nothing started.
  const auto huge = client.Get("/movie?token=s3cret&client=m&frames=100000&xres=4096&yres=4096" + keys);
  REQUIRE(huge);
  CHECK(huge->status == 200);
  CHECK(huge->body.find("\"frames\":100000,\"width\":4096,\"height\":4096,\"seconds\":") != std::string::npos);
  CHECK(huge->body.find("\"fits\":false") != std::string::npos);
  CHECK(huge->body.find("served0000.png") != std::string::npos);
  CHECK_FALSE(server.movie.progress().running);
  CHECK(server.movie.progress().total == 0);
  const auto refused = client.Get("/movie?token=s3cret&client=m&confirm=1&frames=100000&xres=4096&yres=4096" + keys);
  REQUIRE(refused);
  CHECK(refused->status == 507);
  CHECK(refused->body.find("GB free") != std::string::npos);
  CHECK_FALSE(server.movie.progress().running);
  // Two movies of the .par: 3 frames, then 2, each under a name of its own.
  const auto first = client.Get("/movie?token=s3cret&client=m&confirm=1&frames=3" + keys);
  REQUIRE(first);
  CHECK(first->status == 202);
  server.movie.wait();
  CHECK(server.movie.progress().done == 3);
  const std::string frame0 = read_file(dir.file("served0000.png"));
  const auto plan = client.Get("/movie?token=s3cret&client=m&frames=2&camera_x=10" + keys);
  CHECK(plan->body.find("served_2_0000.png") != std::string::npos);
  CHECK(plan->body.find("served_2_0001.png") != std::string::npos);
  REQUIRE(client.Get("/movie?token=s3cret&client=m&confirm=1&frames=2&brightness0=5" + keys)->status == 202);
  server.movie.wait();
  CHECK(server.movie.progress().done == 2);
  CHECK(file_exists(dir.file("served_2_0000.png")));
  CHECK(file_exists(dir.file("served_2_0001.png")));
  CHECK(read_file(dir.file("served0000.png")) == frame0);  // the first movie's, untouched
  CHECK(file_exists(dir.file("served0002.png")));
  CHECK_FALSE(file_exists(dir.file("served0003.png")));
  CHECK(read_file(dir.file("served_2_0000.png")) != frame0);
}
