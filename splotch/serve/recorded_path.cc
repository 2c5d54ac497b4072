#include "splotch/serve/recorded_path.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace splotch {

std::vector<CameraKey> browser_keyframes(const std::string& text, std::size_t max_keys) {
  std::vector<CameraKey> keys;
  std::stringstream all(text);
  for (std::string one; std::getline(all, one, ';');) {
    if (keys.size() == max_keys) throw BadRequest("more than " + std::to_string(max_keys) + " keyframes");
    double v[9];
    std::stringstream numbers(one);
    std::string item;
    int n = 0;
    while (std::getline(numbers, item, ',')) {
      char* end = nullptr;
      const double x = n < 9 ? std::strtod(item.c_str(), &end) : 0;
      if (n >= 9 || item.empty() || end != item.c_str() + item.size() || !std::isfinite(x))
        throw BadRequest("keyframe " + std::to_string(keys.size() + 1) +
                         ": nine finite numbers are needed (camera, lookat, sky), not '" + one.substr(0, 200) + "'");
      v[n++] = x;
    }
    if (n != 9)
      throw BadRequest("keyframe " + std::to_string(keys.size() + 1) +
                       ": nine numbers are needed (camera, lookat, sky), not " + std::to_string(n));
    keys.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}});
  }
  if (keys.size() < 2) throw BadRequest("a path needs 2 keyframes or more (" + std::to_string(keys.size()) + " sent)");
  return keys;
}

int browser_frame_count(const std::string& text, int max_frames) {
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || n < 2 || n > max_frames)
    throw BadRequest("frames = '" + text.substr(0, 40) + "': a whole number from 2 to " + std::to_string(max_frames));
  return int(n);
}

std::vector<KeyValues> movie_frames(const std::vector<CameraKey>& path, const KeyValues& view) {
  static const char* const camera_keys[] = {"camera_x", "camera_y", "camera_z", "lookat_x", "lookat_y",
                                            "lookat_z", "sky_x",    "sky_y",    "sky_z"};
  KeyValues rest;
  for (const auto& kv : view) {
    bool camera = false;
    for (const char* c : camera_keys) camera |= kv.first == c;
    if (!camera) rest.push_back(kv);
  }
  std::vector<KeyValues> out;
  for (const CameraKey& k : path) {
    KeyValues frame = rest;
    const double v[9] = {k.camera.x, k.camera.y, k.camera.z, k.lookat.x, k.lookat.y,
                         k.lookat.z, k.sky.x,    k.sky.y,    k.sky.z};
    for (int i = 0; i < 9; ++i) {
      // As the scene file writes them (scene_text), so that the two movies are the same.
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", v[i]);
      frame.emplace_back(camera_keys[i], text);
    }
    out.push_back(std::move(frame));
  }
  return out;
}

}  // namespace splotch
