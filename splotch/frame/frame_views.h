// The pictures a frame draws from one read of its particles, as the original makes them:
//   one       the camera as given;
//   stereo    EyeSeparation > 0 (degrees): two cameras at campos -/+ (d/2) right, with
//             d = EyeSeparation (in radians) * |lookat - campos| and right = (lookat - campos) x sky,
//             both looking along the one view direction, their images shifted so that lookat lies
//             at the centre of both (the original's center = campos): zero parallax at lookat.
//             Written as right_NAME and left_NAME, the right eye first.
//   panorama  the six faces of a cube about the camera, fov 90, looking along +x, +y, -x, -y
//             (sky +z) and +z (sky -x), -z (sky +x): 1_NAME to 6_NAME.
// The prefix goes before the file's name, in the file's directory.
#pragma once

#include <string>
#include <vector>

#include "splotch/settings/settings.h"

namespace splotch {

struct FrameView {
  Camera camera;
  std::string path;    // the picture's file
  std::string prefix;  // "" for a frame of one view, else right_, left_, 1_ ... 6_
};

std::vector<FrameView> frame_views(const ViewSettings& views, const Camera& camera, const std::string& path);

// The views' files alone (known before the camera is).
std::vector<std::string> view_paths(const ViewSettings& views, const std::string& path);

// `path` with `prefix` before its file name.
std::string prefixed_path(const std::string& path, const std::string& prefix);

}  // namespace splotch
