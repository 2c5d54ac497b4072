#include "splotch/serve/recorded_path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "splotch/serve/served_series.h"

namespace splotch {

std::vector<CameraKey> browser_keyframes(const std::string& text, std::size_t max_keys) {
  std::vector<CameraKey> keys;
  std::stringstream all(text);
  for (std::string one; std::getline(all, one, ';');) {
    if (keys.size() == max_keys) throw BadRequest("more than " + std::to_string(max_keys) + " keyframes");
    double v[10];
    std::stringstream numbers(one);
    std::string item;
    int n = 0;
    while (std::getline(numbers, item, ',')) {
      char* end = nullptr;
      const double x = n < 10 ? std::strtod(item.c_str(), &end) : 0;
      if (n >= 10 || item.empty() || end != item.c_str() + item.size() || !std::isfinite(x))
        throw BadRequest("keyframe " + std::to_string(keys.size() + 1) +
                         ": nine finite numbers are needed (camera, lookat, sky), and a tenth for the snapshot "
                         "(fidx) on a path through time, not '" +
                         one.substr(0, 200) + "'");
      v[n++] = x;
    }
    if (n != 9 && n != 10)
      throw BadRequest("keyframe " + std::to_string(keys.size() + 1) +
                       ": nine numbers are needed (camera, lookat, sky; a tenth, fidx, on a path through time), not " +
                       std::to_string(n));
    if (!keys.empty() && keys.front().fidx.has_value() != (n == 10))
      throw BadRequest("keyframe " + std::to_string(keys.size() + 1) + ": " + std::to_string(n) +
                       " numbers, where the first keyframe has " + (n == 10 ? "9" : "10") +
                       ": every keyframe of a path through time gives its fidx");
    keys.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}, std::nullopt});
    if (n == 10) keys.back().fidx = v[9];
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

std::string path_scene_text(const std::vector<CameraKey>& frames, const std::vector<int>& series,
                            const std::string& refusal) {
  // A path at one snapshot is a path through space alone: its frames without fidx (the record's).
  bool through_time = false;
  for (const CameraKey& f : frames) through_time |= f.fidx && frames[0].fidx && *f.fidx != *frames[0].fidx;
  if (!through_time) {
    std::vector<CameraKey> still = frames;
    for (CameraKey& f : still) f.fidx.reset();
    return scene_text(still);
  }
  if (!refusal.empty()) throw BadRequest(refusal);
  const std::string text = scene_text(frames);
  std::string list, why;
  for (int k : series) list += (list.empty() ? "" : ", ") + std::to_string(k);
  const int step = series_step(series, why);
  if (step == 0) throw BadRequest(why + "; keep the keyframes at one snapshot, or render a scene of your own");
  for (const CameraKey& f : frames)
    if (*f.fidx < series.front() || *f.fidx > series.back())
      throw BadRequest("fidx " + std::to_string(*f.fidx) + " lies outside the series (" + list + ")");
  // (the rows of scene_text, each with the interpolation's keys)
  std::string out;
  std::size_t at = 0;
  for (bool header = true; at < text.size(); header = false) {
    const std::size_t end = text.find('\n', at);
    out += text.substr(at, end - at) +
           (header ? " interpolation_mode snapshot_spacing" : " 1 " + std::to_string(step)) + "\n";
    at = end + 1;
  }
  return out;
}

bool frames_at_snapshots(const std::vector<CameraKey>& frames, const std::vector<int>& series) {
  for (const CameraKey& f : frames)
    if (f.fidx && std::find(series.begin(), series.end(), *f.fidx) == series.end()) return false;
  return true;
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
    if (k.fidx) {  // (the view's own fidx replaced by the frame's)
      frame.erase(std::remove_if(frame.begin(), frame.end(), [](const auto& kv) { return kv.first == "fidx"; }),
                  frame.end());
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", *k.fidx);
      frame.emplace_back("fidx", text);
    }
    out.push_back(std::move(frame));
  }
  return out;
}

}  // namespace splotch
