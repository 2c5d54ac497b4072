// Camera paths for scene files (bin/splotch_path): the camera, lookat and sky of every frame of a
// common move, so that nobody writes hundreds of scene lines by hand.
//   orbit: the camera circles lookat about the sky axis (the axis through lookat along sky);
//   fly:   camera and lookat move through two or more points, linearly or along a Catmull-Rom
//          spline, at an even speed (frames spread by the length of the path, not per segment);
//   zoom:  the camera moves straight towards lookat, by equal ratios of its distance.
// The sky of every frame is made orthogonal to the view direction and of unit length.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "splotch/util/vec3.h"

namespace splotch {

struct CameraKey {
  CameraKey() = default;
  CameraKey(Vec3 c, Vec3 l, Vec3 s = {0, 0, 1}, std::optional<double> f = std::nullopt)
      : camera(c), lookat(l), sky(s), fidx(f) {}
  Vec3 camera, lookat, sky{0, 0, 1};
  // The snapshot's number where the path goes through time too (a series' fidx; between two,
  // fractional: a movie between snapshots); none where it does not.
  std::optional<double> fidx;
};

enum class PathInterpolation { linear, catmull_rom };

// `frames` frames of `turns` turns (negative: the other way), from `start`; the last frame stops
// one step short of where the first began, so that a loop of whole turns repeats without a jump.
std::vector<CameraKey> orbit_path(const CameraKey& start, int frames, double turns);

// `frames` frames through `cameras` (two or more points); lookat through `lookats` (one point for
// all frames, or as many as `cameras`); the first and the last frames at the first and the last
// points.
std::vector<CameraKey> fly_path(const std::vector<Vec3>& cameras, const std::vector<Vec3>& lookats, Vec3 sky,
                                int frames, PathInterpolation interpolation);

// `frames` frames through keyframes marked while flying (the server's page records them): camera,
// lookat and sky each along a Catmull-Rom spline through the keys' own, the frames spread evenly by
// how far camera and lookat move together (a turn of the head on the spot counts as a move), the
// first and the last frames at the first and the last keys. Two keys or more.
std::vector<CameraKey> keyframe_path(const std::vector<CameraKey>& keys, int frames);

// `frames` frames from `start` to a camera at `factor` times its distance from lookat.
std::vector<CameraKey> zoom_path(const CameraKey& start, int frames, double factor);

// A scene file of these frames (header: camera_x ... sky_z, and fidx where they give it).
std::string scene_text(const std::vector<CameraKey>& frames);

}  // namespace splotch
