#include "splotch/serve/input_key_lines.h"

#include <map>

namespace splotch {
namespace {

std::map<std::string, std::string> key_lines(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    const std::size_t eq = line.find(" = ");
    out[line.substr(0, eq)] = eq == std::string::npos ? "" : line.substr(eq + 3);
    at = end + 1;
  }
  return out;
}

bool numbered(const std::string& key, const std::string& stem) {
  return key.size() > stem.size() && key.compare(0, stem.size(), stem) == 0 &&
         key.find_first_not_of("0123456789", stem.size()) == std::string::npos;
}

}  // namespace

std::set<std::string> differing_keys(const std::string& a, const std::string& b) {
  const std::map<std::string, std::string> x = key_lines(a), y = key_lines(b);
  std::set<std::string> out;
  for (const auto& [key, value] : x) {
    const auto it = y.find(key);
    if (it == y.end() || it->second != value) out.insert(key);
  }
  for (const auto& [key, value] : y)
    if (x.count(key) == 0) out.insert(key);
  return out;
}

bool values_key(const std::string& key) {
  if (key == "map") return true;
  for (const char* stem : {"color_label", "intensity_label", "color_fac", "intensity_fac", "color_present",
                           "intensity_present", "map_quantity", "map_weight", "map_mass", "map_density"})
    if (numbered(key, stem)) return true;
  return false;
}

bool motion_key(const std::string& key) {
  return key == "interpolation_mode" || key == "id_label" || key == "snapshot_spacing";
}

bool all_keys(const std::set<std::string>& keys, bool (*test)(const std::string&)) {
  for (const std::string& k : keys)
    if (!test(k)) return false;
  return true;
}

}  // namespace splotch
