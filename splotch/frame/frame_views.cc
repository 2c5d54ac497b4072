#include "splotch/frame/frame_views.h"

#include <cmath>

namespace splotch {

std::string prefixed_path(const std::string& path, const std::string& prefix) {
  const std::size_t slash = path.rfind('/');
  const std::size_t name = slash == std::string::npos ? 0 : slash + 1;
  return path.substr(0, name) + prefix + path.substr(name);
}

namespace {

const char* const stereo_prefixes[] = {"right_", "left_"};
const char* const face_prefixes[] = {"1_", "2_", "3_", "4_", "5_", "6_"};

std::vector<FrameView> stereo_pair(double degrees, const Camera& camera, const std::string& path) {
  const double pi = 3.14159265358979323846;
  const Vec3 view = camera.lookat - camera.position;
  const Vec3 right = normalized(cross(view, camera.sky));
  const double d = degrees * pi / 180 * length(view);
  std::vector<FrameView> out;
  for (int eye = 0; eye < 2; ++eye) {
    const std::string prefix = stereo_prefixes[eye];
    FrameView v{camera, prefixed_path(path, prefix), prefix};
    v.camera.center = camera.position;  // the axes and the image centre of the camera between the eyes
    v.camera.position = camera.position + ((eye == 0 ? 0.5 : -0.5) * d) * right;
    out.push_back(v);
  }
  return out;
}

std::vector<FrameView> cube_faces(const Camera& camera, const std::string& path) {
  const Vec3 look[6] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const Vec3 sky[6] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}};
  std::vector<FrameView> out;
  for (int f = 0; f < 6; ++f) {
    const std::string prefix = face_prefixes[f];
    FrameView v{camera, prefixed_path(path, prefix), prefix};
    v.camera.fov_degrees = 90;
    v.camera.lookat = camera.position + look[f];
    v.camera.center = camera.position;
    v.camera.sky = sky[f];
    out.push_back(v);
  }
  return out;
}

}  // namespace

std::vector<std::string> view_paths(const ViewSettings& views, const std::string& path) {
  std::vector<std::string> out;
  if (views.eye_separation_degrees > 0)
    for (const char* prefix : stereo_prefixes) out.push_back(prefixed_path(path, prefix));
  else if (views.panorama)
    for (const char* prefix : face_prefixes) out.push_back(prefixed_path(path, prefix));
  else
    out.push_back(path);
  return out;
}

std::vector<FrameView> frame_views(const ViewSettings& views, const Camera& camera, const std::string& path) {
  if (views.eye_separation_degrees > 0) return stereo_pair(views.eye_separation_degrees, camera, path);
  if (views.panorama) return cube_faces(camera, path);
  return {FrameView{camera, path, ""}};
}

}  // namespace splotch
