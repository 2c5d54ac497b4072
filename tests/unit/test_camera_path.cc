// Camera paths (splotch/scene/camera_path.h): orbits, flights and zooms pass smoothly through their
// frames (consecutive cameras move by similar steps), hit their ends, and keep the sky upright.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors/user_error.h"
#include "splotch/scene/camera_path.h"
#include "splotch/scene/scene_file.h"

namespace splotch {
namespace {

std::vector<double> steps(const std::vector<CameraKey>& path) {
  std::vector<double> s;
  for (std::size_t k = 1; k < path.size(); ++k) s.push_back(length(path[k].camera - path[k - 1].camera));
  return s;
}

// Every sky of unit length and orthogonal to its view direction.
void check_upright(const std::vector<CameraKey>& path) {
  for (const CameraKey& k : path) {
    CHECK(length(k.sky) == doctest::Approx(1.0));
    CHECK(std::abs(dot(k.sky, normalized(k.lookat - k.camera))) < 1e-9);
  }
}

bool near(Vec3 a, Vec3 b, double tolerance = 1e-9) { return length(a - b) <= tolerance * (1 + length(a)); }

}  // namespace

TEST_CASE("camera path: an orbit circles lookat at a constant step and closes without a jump") {
  const CameraKey start{{230, -120, 160}, {50, 50, 50}, {0, 0, 1}};
  const std::vector<CameraKey> path = orbit_path(start, 60, 1.0);
  REQUIRE(path.size() == 60);
  CHECK(near(path[0].camera, start.camera));
  const std::vector<double> s = steps(path);
  const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  CHECK(*hi / *lo < 1.0 + 1e-9);
  // The step from the last frame back to the first is the same: a looping movie does not jump.
  CHECK(length(path[0].camera - path.back().camera) == doctest::Approx(*lo));
  for (const CameraKey& k : path) {
    CHECK(length(k.camera - k.lookat) == doctest::Approx(length(start.camera - start.lookat)));
    CHECK(k.camera.z == doctest::Approx(160.0));  // the sky axis is z: the height stays
  }
  check_upright(path);
}

TEST_CASE("camera path: a flight through uneven points moves at an even speed, smoothly") {
  // Segments of length 10, 40 and 5: per-segment frames would change speed eightfold.
  const std::vector<Vec3> cameras = {{0, 0, 10}, {10, 0, 10}, {10, 40, 10}, {15, 40, 10}};
  for (PathInterpolation how : {PathInterpolation::linear, PathInterpolation::catmull_rom}) {
    INFO(std::string(how == PathInterpolation::linear ? "linear" : "catmull-rom"));
    const std::vector<CameraKey> path = fly_path(cameras, {{20, 20, 0}}, {0, 0, 1}, 100, how);
    REQUIRE(path.size() == 100);
    CHECK(near(path.front().camera, cameras.front()));
    CHECK(near(path.back().camera, cameras.back(), 1e-6));
    const std::vector<double> s = steps(path);
    const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
    // Linear corners cut a step short; the spline's steps are even along its curve.
    CHECK(*hi / *lo < (how == PathInterpolation::linear ? 2.0 : 1.1));
    // No jump in direction either: the spline turns the two right-angled corners over several
    // frames (at most 45 degrees from one step to the next), where the linear path turns at once.
    double sharpest = 1;
    for (std::size_t k = 2; k < path.size(); ++k) {
      const Vec3 a = path[k - 1].camera - path[k - 2].camera, b = path[k].camera - path[k - 1].camera;
      sharpest = std::min(sharpest, dot(normalized(a), normalized(b)));
    }
    if (how == PathInterpolation::catmull_rom)
      CHECK(sharpest > std::cos(M_PI / 4));
    else
      CHECK(sharpest < std::cos(M_PI / 4));
    check_upright(path);
  }
}

TEST_CASE("camera path: a zoom by equal ratios, and the scene file it makes") {
  const CameraKey start{{0, 0, 10}, {0, 0, 0}, {0, 1, 0}};
  const std::vector<CameraKey> path = zoom_path(start, 5, 1.0 / 16);
  REQUIRE(path.size() == 5);
  for (int k = 0; k < 5; ++k) CHECK(path[std::size_t(k)].camera.z == doctest::Approx(10.0 / std::pow(2.0, k)));
  check_upright(path);
  const std::vector<SceneFrame> frames = parse_scene_file(scene_text(path), "zoom.txt");
  REQUIRE(frames.size() == 5);
  CHECK(frames[2].values[2] == std::pair<std::string, std::string>{"camera_z", "2.5"});
  CHECK(frames[2].values[7] == std::pair<std::string, std::string>{"sky_y", "1"});
}

TEST_CASE("camera path: impossible paths are one clear error") {
  const CameraKey start{{0, 0, 10}, {0, 0, 0}, {0, 0, 1}};  // sky along the view
  CHECK_THROWS_WITH_AS(zoom_path(start, 5, 0.5), doctest::Contains("sky vector is parallel to the view"), UserError);
  CHECK_THROWS_WITH_AS(orbit_path({{1, 0, 0}, {0, 0, 0}, {0, 0, 1}}, 1, 1.0), doctest::Contains("at least 2 frames"),
                       UserError);
  CHECK_THROWS_WITH_AS(fly_path({{0, 0, 1}}, {{0, 0, 0}}, {0, 1, 0}, 10, PathInterpolation::linear),
                       doctest::Contains("at least 2 camera points"), UserError);
  CHECK_THROWS_WITH_AS(
      fly_path({{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}, {{0, 0, 0}, {1, 1, 1}}, {0, 1, 0}, 10, PathInterpolation::linear),
      doctest::Contains("1 lookat point or as many as camera points (3), not 2"), UserError);
}

TEST_CASE("camera path: keyframes marked while flying give a smooth path through them, a roll included") {
  // Three keys on a quarter circle about the origin.
  const std::vector<CameraKey> keys = {{{100, 0, 0}, {0, 0, 0}, {0, 0, 1}},
                                       {{70.7106781, 70.7106781, 0}, {0, 0, 0}, {0, 0, 1}},
                                       {{0, 100, 0}, {0, 0, 0}, {0, 0, 1}}};
  const std::vector<CameraKey> path = keyframe_path(keys, 41);
  REQUIRE(path.size() == 41);
  CHECK(near(path.front().camera, keys.front().camera));
  CHECK(near(path.back().camera, keys.back().camera));
  check_upright(path);
  // The last key rolled by 90 degrees: the path ends with its sky.
  std::vector<CameraKey> rolled = keys;
  rolled.back().sky = {1, 0, 0};
  const std::vector<CameraKey> rolling_path = keyframe_path(rolled, 41);
  CHECK(near(rolling_path.back().sky, {1, 0, 0}));
  CHECK(near(rolling_path.front().sky, {0, 0, 1}));
  check_upright(rolling_path);
  // Through the middle key at the middle frame (the segments are of one length), and smooth: the
  // steps differ by a few percent at most.
  CHECK(near(path[20].camera, keys[1].camera, 1e-3));
  const std::vector<double> s = steps(path);
  const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  CHECK(*hi < 1.1 * *lo);
  // A turn of the head on the spot (the camera still, lookat moving) is a move too.
  const std::vector<CameraKey> turn =
      keyframe_path({{{0, 0, 0}, {10, 0, 0}, {0, 0, 1}}, {{0, 0, 0}, {0, 10, 0}, {0, 0, 1}}}, 5);
  CHECK(near(turn[0].lookat, {10, 0, 0}));
  CHECK(near(turn[4].lookat, {0, 10, 0}));
  CHECK(length(turn[2].lookat - turn[1].lookat) > 1);
  CHECK_THROWS_AS(keyframe_path({keys[0]}, 10), UserError);
  CHECK_THROWS_AS(keyframe_path(keys, 1), UserError);
  // Keys unevenly spaced on a line: the camera never backs up (no overshoot).
  const std::vector<CameraKey> line = keyframe_path(
      {{{0, 0, 0}, {0, 50, 0}, {0, 0, 1}}, {{1, 0, 0}, {1, 50, 0}, {0, 0, 1}}, {{100, 0, 0}, {100, 50, 0}, {0, 0, 1}}},
      11);
  for (std::size_t f = 1; f < line.size(); ++f) CHECK(line[f].camera.x > line[f - 1].camera.x);
  // A roll on the spot between two moves gets frames of its own, and the camera does not move back.
  const std::vector<CameraKey> roll = keyframe_path({{{0, 0, 0}, {0, 50, 0}, {0, 0, 1}},
                                                     {{10, 0, 0}, {10, 50, 0}, {0, 0, 1}},
                                                     {{10, 0, 0}, {10, 50, 0}, {1, 0, 0}},
                                                     {{20, 0, 0}, {20, 50, 0}, {1, 0, 0}}},
                                                    41);
  int rolling = 0;
  for (std::size_t f = 1; f < roll.size(); ++f) {
    CHECK(roll[f].camera.x >= roll[f - 1].camera.x - 1e-9);
    rolling += length(roll[f].camera - roll[f - 1].camera) < 1e-9 ? 1 : 0;
  }
  CHECK(rolling >= 10);  // the 90-degree roll over a quarter of the frames or more
  check_upright(roll);
  // A zero sky or a sky turned by 180 degrees between two keys: an error, not a path of NaN.
  CHECK_THROWS_AS(keyframe_path({{{0, 0, 0}, {0, 50, 0}, {0, 0, 0}}, {{10, 0, 0}, {10, 50, 0}, {0, 0, 1}}}, 5),
                  UserError);
  CHECK_THROWS_AS(keyframe_path({{{0, 0, 0}, {0, 50, 0}, {0, 0, 1}}, {{10, 0, 0}, {10, 50, 0}, {0, 0, -1}}}, 11),
                  UserError);
}

}  // namespace splotch
