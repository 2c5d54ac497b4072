#include "splotch/scene/scene_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "params/param_file.h"
#include "params/user_error.h"

namespace splotch {
namespace {

const char* const legacy_keys[] = {"camera_x", "camera_y", "camera_z", "lookat_x", "lookat_y",
                                   "lookat_z", "sky_x",    "sky_y",    "sky_z",    "fidx"};

// The words of a line without its comment.
std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line.substr(0, line.find('#')));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool is_number(const std::string& word) {
  try {
    parse_real(word, "");
    return true;
  } catch (const UserError&) { return false; }
}

}  // namespace

std::vector<SceneFrame> parse_scene_file(const std::string& text, const std::string& name,
                                         const SceneSelection& selection) {
  if (selection.start < 0 || selection.increment < 1)
    throw UserError("scene_start = " + std::to_string(selection.start) +
                    " and scene_incr = " + std::to_string(selection.increment) + " must be at least 0 and 1");
  std::istringstream in(text);
  std::vector<std::string> keys;
  bool legacy = false, header_seen = false;
  std::vector<SceneFrame> rows;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) continue;
    const std::string where = name + ":" + std::to_string(line_number);
    if (!header_seen) {
      header_seen = true;
      // A first line of ten numbers is a legacy frame, not a header.
      legacy = words.size() == 10 && std::all_of(words.begin(), words.end(), is_number);
      if (!legacy) {
        for (const std::string& w : words)
          if (is_number(w))
            throw UserError(where +
                            ": the first line of a scene file names parameters (camera_x lookat_x ...), "
                            "but '" +
                            w +
                            "' is a number; a legacy scene file has 10 numbers per line "
                            "(camera xyz, lookat xyz, sky xyz, fidx)");
        keys = words;
        continue;
      }
      keys.assign(std::begin(legacy_keys), std::end(legacy_keys));
    }
    if (words.size() != keys.size())
      throw UserError(where + ": " + std::to_string(words.size()) + " values where the " +
                      (legacy ? std::string("legacy form has 10 (camera xyz, lookat xyz, sky xyz, fidx)")
                              : "header names " + std::to_string(keys.size())));
    SceneFrame f;
    f.number = int(rows.size());
    f.origin = where;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (legacy) {
        if (k == 9)
          parse_integer(words[k], where + ": fidx");
        else
          parse_real(words[k], where + ": " + keys[k]);
      }
      f.values.push_back({keys[k], words[k]});
    }
    rows.push_back(std::move(f));
  }
  if (rows.empty())
    throw UserError("scene file '" + name + "' has no frames" +
                    (header_seen ? " (only the header line)" : " (it is empty)"));
  const int last = selection.last < 0 ? int(rows.size()) - 1 : std::min(selection.last, int(rows.size()) - 1);
  std::vector<SceneFrame> chosen;
  for (int k = selection.start; k <= last; k += selection.increment) chosen.push_back(rows[std::size_t(k)]);
  if (chosen.empty())
    throw UserError("scene file '" + name + "' has " + std::to_string(rows.size()) +
                    " frames, but scene_start = " + std::to_string(selection.start) +
                    " and last_scene = " + std::to_string(selection.last) + " choose none of them");
  return chosen;
}

std::vector<SceneFrame> read_scene_file(const std::string& path, const SceneSelection& selection) {
  std::ifstream in(path);
  if (!in) throw UserError("cannot open the scene file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scene_file(text.str(), path, selection);
}

}  // namespace splotch
