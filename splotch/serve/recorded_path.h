// A path the page recorded (keyframes marked while flying) turned into the frames of a movie: the
// scene file that bin/splotch renders with the saved .par (`bin/splotch view.par
// scene_file=path.txt`), or the keys of each frame for the server to render itself
// (splotch/serve/movie_run.h). The path is splotch_path's spline through the keys
// (splotch/scene/camera_path.h: keyframe_path).
#pragma once

#include <string>
#include <vector>

#include "splotch/scene/camera_path.h"
#include "splotch/serve/browser_keys.h"

namespace splotch {

// The keyframes as the page sends them: "cx,cy,cz,lx,ly,lz,sx,sy,sz" per key, ';' between keys;
// 2 to `max_keys` keys of finite numbers. Throws BadRequest saying what is wrong.
std::vector<CameraKey> browser_keyframes(const std::string& text, std::size_t max_keys = 256);

// A movie's frame count as the page sends it: 2 to `max_frames`. Throws BadRequest.
int browser_frame_count(const std::string& text, int max_frames = 100000);

// The scene file of a path (scene_text); a path through time between the snapshots of `series`
// takes their interpolation (interpolation_mode = 1, snapshot_spacing their step) in every row,
// so that `bin/splotch view.par scene_file=path.txt` draws the frames between snapshots. Throws
// BadRequest for a path through time where the series' numbers are not evenly spaced, or outside
// them.
// `refusal`, where not "", refuses a path through time with it.
std::string path_scene_text(const std::vector<CameraKey>& frames, const std::vector<int>& series,
                            const std::string& refusal = "");

// Whether the server draws every frame of `frames` itself: none between two snapshots of the
// series (those are bin/splotch's, from the scene file).
bool frames_at_snapshots(const std::vector<CameraKey>& frames, const std::vector<int>& series);

// Each frame's keys: the view's rendering keys with the frame's camera_x ... sky_z in place of
// the view's (and its fidx, on a path through time).
std::vector<KeyValues> movie_frames(const std::vector<CameraKey>& path, const KeyValues& view);

}  // namespace splotch
