// Scene files (splotch/scene/scene_file.h): the header form, the legacy 10-number form, which frames
// scene_start / scene_incr / last_scene choose, and bad files.
#include <doctest/doctest.h>

#include "errors/user_error.h"
#include "splotch/scene/scene_file.h"
#include "splotch/scene/scene_run.h"

namespace splotch {

TEST_CASE("scene file: a header of parameter names, one frame per line, any value type") {
  const auto frames = parse_scene_file(
      "# a fly-by\n\ncamera_x  fov outfile   # keys\n1 30 a.png\n\n2 35.5 b.png # two\n"
      "3 40 c.png\n",
      "s.txt");
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].number == 0);
  CHECK(frames[0].origin == "s.txt:4");
  CHECK(frames[1].origin == "s.txt:6");
  CHECK(frames[1].values ==
        std::vector<std::pair<std::string, std::string>>{{"camera_x", "2"}, {"fov", "35.5"}, {"outfile", "b.png"}});
  CHECK(frames[2].number == 2);
}

TEST_CASE("scene file: the legacy form and the frame selection") {
  std::string text;
  for (int k = 0; k < 7; ++k) text += std::to_string(k) + " 0 0  1 1 1  0 0 1  " + std::to_string(10 + k) + "\n";
  const auto all = parse_scene_file(text, "legacy.txt");
  REQUIRE(all.size() == 7);
  CHECK(all[3].values[0] == std::pair<std::string, std::string>{"camera_x", "3"});
  CHECK(all[3].values[6] == std::pair<std::string, std::string>{"sky_x", "0"});
  CHECK(all[3].values[9] == std::pair<std::string, std::string>{"fidx", "13"});
  SceneSelection every_other{1, 2, -1};
  const auto odd = parse_scene_file(text, "legacy.txt", every_other);
  REQUIRE(odd.size() == 3);
  CHECK(odd[0].number == 1);
  CHECK(odd[2].number == 5);
  SceneSelection up_to_four{2, 1, 4};
  const auto some = parse_scene_file(text, "legacy.txt", up_to_four);
  REQUIRE(some.size() == 3);
  CHECK(some.back().number == 4);
  SceneSelection beyond{9, 1, -1};
  CHECK_THROWS_WITH_AS(parse_scene_file(text, "legacy.txt", beyond),
                       doctest::Contains("has 7 frames, but scene_start = 9 and last_scene = -1 choose none"),
                       UserError);
}

TEST_CASE("scene file: bad files are one clear error") {
  CHECK_THROWS_WITH_AS(parse_scene_file("camera_x camera_y\n1 2\n3\n", "s.txt"),
                       doctest::Contains("s.txt:3: 1 values where the header names 2"), UserError);
  CHECK_THROWS_WITH_AS(parse_scene_file("", "s.txt"), doctest::Contains("has no frames (it is empty)"), UserError);
  CHECK_THROWS_WITH_AS(parse_scene_file("camera_x\n", "s.txt"), doctest::Contains("only the header line"), UserError);
  CHECK_THROWS_WITH_AS(parse_scene_file("camera_x 3\n1 2\n", "s.txt"),
                       doctest::Contains("s.txt:1: the first line of a scene file names parameters"), UserError);
  CHECK_THROWS_WITH_AS(parse_scene_file("1 2 3 4 5 6 7 8 9 10\n1 2 3 4 5 6 7 8 9 1.5\n", "s.txt"),
                       doctest::Contains("s.txt:2: fidx = '1.5' is not an integer"), UserError);
  CHECK_THROWS_WITH_AS(parse_scene_file("a\n1\n", "s.txt", SceneSelection{0, 0, -1}),
                       doctest::Contains("scene_incr = 0"), UserError);
}

}  // namespace splotch

TEST_CASE("scene read-ahead: auto reads ahead after a snapshot that took 0.05 s or more, TRUE always, FALSE never") {
  using splotch::ReadAhead;
  using splotch::worth_reading_ahead;
  for (double seconds : {0.0, 0.01, 0.0499, 0.05, 0.2, 30.0}) {
    CAPTURE(seconds);
    CHECK(worth_reading_ahead(ReadAhead::automatic, seconds) == (seconds >= 0.05));
    CHECK(worth_reading_ahead(ReadAhead::always, seconds));
    CHECK_FALSE(worth_reading_ahead(ReadAhead::never, seconds));
  }
  auto mode = [](const std::string& value) {
    splotch::ParamFile p = splotch::ParamFile::parse("scene_read_ahead = " + value + "\n", "t.par");
    return splotch::read_ahead_mode(p);
  };
  CHECK(mode("auto") == ReadAhead::automatic);
  CHECK(mode("TRUE") == ReadAhead::always);
  CHECK(mode("no") == ReadAhead::never);
  CHECK_THROWS_WITH_AS(
      mode("sometimes"),
      "t.par:1: scene_read_ahead (auto, TRUE or FALSE) = 'sometimes' is not a boolean (use TRUE or FALSE)",
      splotch::UserError);
}
