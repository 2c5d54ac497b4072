#include "splotch/scene/scene_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/settings/known_keys.h"
#include "splotch/settings/original_keys.h"

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
  std::vector<std::string> problems;  // of the whole file, said at once
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
        for (const std::string& key : keys)
          if (!key_kind(key) && original_key_without_effect(key).empty()) {
            const std::string meant = did_you_mean(key, 8);
            problems.push_back(where + ": " + key + " is not a key splotch reads" +
                               (meant.empty() ? " (docs/parameters.md lists them)" : ": did you mean " + meant + "?"));
          }
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
      // Each value of the kind its key takes, for every row, before the first frame renders.
      static const KeyKind integer = KeyKind::integer;  // the original's legacy rows number snapshots whole
      const KeyKind* kind = legacy && k == 9 ? &integer : key_kind(keys[k]);
      std::string why;
      if (kind && !value_of_kind(words[k], *kind, why))
        problems.push_back(where + ": " + keys[k] + " = '" + words[k] + "' is " + why);
      f.values.push_back({keys[k], words[k]});
    }
    rows.push_back(std::move(f));
  }
  if (!problems.empty()) {
    std::string listed;
    for (std::size_t k = 0; k < problems.size() && k < 10; ++k) listed += "\n  " + problems[k];
    if (problems.size() > 10) listed += "\n  and " + std::to_string(problems.size() - 10) + " more";
    throw UserError(problems.size() == 1 ? problems[0]
                                         : "scene file '" + name + "': " + std::to_string(problems.size()) +
                                               " problems, found before any frame was drawn:" + listed);
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
