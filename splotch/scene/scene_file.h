// Scene files (docs/design.md section 3, `scene_file`): many frames from one parameter file. The first
// line names parameters; every further line is a frame whose values override them (any
// parameter: camera keys, fidx, brightness0, outfile, ...). The original's legacy form has no
// header: ten numbers per line, camera xyz, lookat xyz, sky xyz and fidx. Blank lines and '#'
// comments are skipped. Frames are numbered by their line among the frame lines, from 0;
// `scene_start`, `scene_incr` and `last_scene` choose which of them a run renders.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace splotch {

struct SceneFrame {
  int number = 0;                                           // its image is named with it (docs/design.md section 4)
  std::vector<std::pair<std::string, std::string>> values;  // key, value as written
  std::string origin;                                       // "scene.txt:7", for messages
};

struct SceneSelection {
  int start = 0, increment = 1;
  int last = -1;  // -1: the last frame of the file
};

// The frames of the scene file at `path` that `selection` chooses, in order. A row with the wrong
// number of values, a legacy row with a value that is not a number, an empty file or a selection
// that chooses nothing: UserError naming the file and line.
std::vector<SceneFrame> read_scene_file(const std::string& path, const SceneSelection& selection = {});

// The same from the text of a scene file (`name` is used in messages).
std::vector<SceneFrame> parse_scene_file(const std::string& text, const std::string& name,
                                         const SceneSelection& selection = {});

}  // namespace splotch
