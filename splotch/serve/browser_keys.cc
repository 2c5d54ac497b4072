#include "splotch/serve/browser_keys.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

#include "errors/user_error.h"
#include "params/param_file.h"

namespace splotch {
namespace {

enum class Kind { real, side, boolean, exposure, palette, field, map_mode, map_field, series };

struct Rule {
  const char* key;
  Kind kind;
};

// Keys of the whole picture.
constexpr Rule picture_keys[] = {
    {"camera_x", Kind::real},
    {"camera_y", Kind::real},
    {"camera_z", Kind::real},
    {"lookat_x", Kind::real},
    {"lookat_y", Kind::real},
    {"lookat_z", Kind::real},
    {"sky_x", Kind::real},
    {"sky_y", Kind::real},
    {"sky_z", Kind::real},
    {"fov", Kind::real},
    {"xres", Kind::side},
    {"yres", Kind::side},
    {"a_eq_e", Kind::boolean},
    {"gray_absorption", Kind::real},
    {"exposure", Kind::exposure},
    {"minrad_pix", Kind::real},
    {"pic_gamma", Kind::real},
    {"pic_contrast", Kind::real},
    {"pic_brightness", Kind::real},
    {"colorbar", Kind::boolean},
    // The page's map mode (docs/maps.md): the map drawn instead of the picture.
    {"map", Kind::map_mode},
    {"map_width", Kind::real},
    {"map_depth", Kind::real},
    {"map_log", Kind::boolean},
    {"map_min", Kind::real},
    {"map_max", Kind::real},
    // The snapshot of a series (the page's time slider).
    {"fidx", Kind::series},
};

// Keys of one type, followed by its number.
constexpr Rule type_keys[] = {
    {"brightness", Kind::real},        {"smooth_factor", Kind::real},   {"color_min", Kind::real},
    {"color_max", Kind::real},         {"intensity_min", Kind::real},   {"intensity_max", Kind::real},
    {"color_log", Kind::boolean},      {"color_asinh", Kind::boolean},  {"intensity_log", Kind::boolean},
    {"palette", Kind::palette},        {"color_label", Kind::field},    {"intensity_label", Kind::field},
    {"map_quantity", Kind::map_field}, {"map_weight", Kind::map_field},
};

std::string allowed_text() {
  return "the rendering keys camera_x/y/z, lookat_x/y/z, sky_x/y/z, fov, xres, yres, a_eq_e, gray_absorption, "
         "exposure, minrad_pix, pic_gamma, pic_contrast, pic_brightness, colorbar, map, map_width, map_depth, "
         "map_log, map_min, map_max, fidx (a snapshot of the series served), and per type N brightnessN, "
         "smooth_factorN, color_minN, color_maxN, "
         "intensity_minN, intensity_maxN, color_logN, color_asinhN, intensity_logN, paletteN, color_labelN, "
         "intensity_labelN, map_quantityN, map_weightN";
}

bool finite_number(const std::string& v, double& out) {
  if (v.empty()) return false;
  char* end = nullptr;
  out = std::strtod(v.c_str(), &end);
  return end == v.c_str() + v.size() && std::isfinite(out);
}

// As a .par accepts it (params/param_file.h).
bool boolean(const std::string& v) {
  try {
    parse_bool(v, "");
    return true;
  } catch (const UserError&) { return false; }
}

// Printable ASCII without spaces: a value stays one token of its .par line.
bool one_token(const std::string& v) {
  return std::all_of(v.begin(), v.end(), [](unsigned char c) { return c > 0x20 && c < 0x7f; });
}

// The rule of `key`, with the type number it carries (-1 for a picture key); null when none.
const Rule* rule_of(const std::string& key, int& type) {
  type = -1;
  for (const Rule& r : picture_keys)
    if (key == r.key) return &r;
  for (const Rule& r : type_keys) {
    const std::string stem = r.key;
    if (key.size() <= stem.size() || key.compare(0, stem.size(), stem) != 0) continue;
    const std::string number = key.substr(stem.size());
    // 0, 1, ... as the settings read them (not 00 or 01).
    if (number.size() > 3 || (number.size() > 1 && number[0] == '0') ||
        !std::all_of(number.begin(), number.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    type = std::atoi(number.c_str());
    return &r;
  }
  return nullptr;
}

// The first picture's own value of `key` (what the .par gave, or its starter parameters: a field
// the server does not list, XXXX, a vector's VEL, its fidx): a page sends it back unchanged.
bool own_value(const std::map<std::string, std::string>& first, const std::string& key, const std::string& value) {
  const auto it = first.find(key);
  return it != first.end() && it->second == value;
}

// A browser gives a range whole, and not empty: a minimum alone took the data's maximum, and one
// equal to its maximum made every value one colour, both without a word.
void refuse_part_ranges(const KeyValues& keys, int ptypes) {
  auto value = [&](const std::string& key) -> const std::string* {
    for (const auto& [k, v] : keys)
      if (k == key) return &v;
    return nullptr;
  };
  for (int t = 0; t < ptypes; ++t)
    for (const std::string stem : {"color", "intensity"}) {
      const std::string lo = stem + "_min" + std::to_string(t), hi = stem + "_max" + std::to_string(t);
      const std::string *min = value(lo), *max = value(hi);
      if (!min && !max) continue;
      if (!min || !max)
        throw BadRequest("'" + (min ? lo : hi) + "' without '" + (min ? hi : lo) +
                         "': give a range whole (the page fills the other end with the range used)");
      if (!(std::strtod(min->c_str(), nullptr) < std::strtod(max->c_str(), nullptr)))
        throw BadRequest("'" + lo + "' = " + *min + " is not below '" + hi + "' = " + *max +
                         ": an empty range (give a maximum above the minimum)");
    }
}

}  // namespace

KeyValues browser_keys(const KeyValues& query, int ptypes, const std::vector<PaletteChoice>& palettes,
                       const BrowserLimits& limits, const TypeFields& fields, const std::string& fields_note,
                       const std::vector<int>& series, const std::map<std::string, std::string>& first,
                       int series_step) {
  if (query.size() > limits.max_keys)
    throw BadRequest(std::to_string(query.size()) + " keys in one request; at most " + std::to_string(limits.max_keys));
  KeyValues out;
  std::set<std::string> seen;
  for (const auto& [key, value] : query) {
    const std::string shown = key.size() > 40 ? key.substr(0, 40) + "..." : key;
    int type = -1;
    const Rule* rule = rule_of(key, type);
    if (!rule)
      throw BadRequest("'" + shown + "' is not a key the browser may set (" + allowed_text() +
                       "); paths to read or write stay as the served .par gives them");
    if (type >= ptypes)
      throw BadRequest("'" + key + "': the served .par has " + std::to_string(ptypes) + " types (0 to " +
                       std::to_string(ptypes - 1) + ")");
    if (!seen.insert(key).second) throw BadRequest("'" + key + "' is given twice");
    if (value.size() > limits.max_value)
      throw BadRequest("'" + key + "': a value of " + std::to_string(value.size()) + " characters; at most " +
                       std::to_string(limits.max_value));
    if (!one_token(value))
      throw BadRequest("'" + key +
                       "': its value holds a space, a control character or a byte beyond ASCII; send the value alone");
    double number = 0;
    switch (rule->kind) {
      case Kind::real:
        if (!finite_number(value, number))
          throw BadRequest("'" + key + "' = '" + value + "': a finite number is needed");
        // Splats of thousands of pixels each would hold the server for minutes.
        if ((rule->key == std::string("minrad_pix") || rule->key == std::string("smooth_factor")) &&
            !(number <= limits.max_splat_factor))
          throw BadRequest("'" + key + "' = '" + value + "': at most " + std::to_string(int(limits.max_splat_factor)) +
                           " from the browser (a .par may ask for more)");
        out.emplace_back(key, value);
        break;
      case Kind::side:
        if (!finite_number(value, number) || number != std::floor(number) || number < 1 || number > limits.max_side)
          throw BadRequest("'" + key + "' = '" + value + "': a whole number of pixels from 1 to " +
                           std::to_string(limits.max_side) + " is needed");
        out.emplace_back(key, value);
        break;
      case Kind::boolean:
        if (!boolean(value)) throw BadRequest("'" + key + "' = '" + value + "': TRUE or FALSE is needed");
        out.emplace_back(key, value);
        break;
      case Kind::exposure:
        if (value != "auto" && !boolean(value) && !finite_number(value, number))
          throw BadRequest("'" + key + "' = '" + value + "': auto, FALSE or a factor is needed");
        out.emplace_back(key, value);
        break;
      case Kind::palette: {
        const auto p =
            std::find_if(palettes.begin(), palettes.end(), [&](const PaletteChoice& c) { return c.name == value; });
        if (p == palettes.end()) {
          std::string names;
          for (const PaletteChoice& c : palettes) names += (names.empty() ? "" : ", ") + c.name;
          throw BadRequest("'" + key + "' = '" + value + "': not one of the palettes offered (" + names + ")");
        }
        out.emplace_back(key, p->path);
        break;
      }
      case Kind::series: {
        if (own_value(first, key, value)) {
          out.emplace_back(key, value);
          break;
        }
        std::string list;
        for (int k : series) list += (list.empty() ? "" : ", ") + std::to_string(k);
        if (series.size() < 2)
          throw BadRequest("'" + key + "' = '" + value +
                           "': the server holds one snapshot (a series is served from a .par with fidx, or from a "
                           "file named ..._NNN beside the others)");
        const bool number_given = finite_number(value, number);
        const auto member = [&](double v) {
          return v == std::floor(v) && std::find(series.begin(), series.end(), int(v)) != series.end();
        };
        // (between two: the time slider dragged, drawn by interpolation between them; as the
        // record will say it, which must still lie between)
        if (number_given && series_step > 0 && number > series.front() && number < series.back() && !member(number)) {
          char text[32];
          std::snprintf(text, sizeof text, "%.9g", number);
          const double written = std::strtod(text, nullptr);
          if (written > series.front() && written < series.back() && !member(written)) {
            out.emplace_back(key, text);
            break;
          }
          number = written;  // (a snapshot of the series, as written)
        }
        if (!number_given || number != std::floor(number) || number < 0 || number > 1e9 ||
            std::find(series.begin(), series.end(), int(number)) == series.end())
          throw BadRequest("'" + key + "' = '" + value + "': not a snapshot of the series served (" + list + ")" +
                           (series_step > 0 ? ", nor a time between two of them"
                                            : "; between two, the movie is bin/splotch's (a scene file with "
                                              "fractional fidx)"));
        out.emplace_back(key, std::to_string(int(number)));
        break;
      }
      case Kind::map_mode:
        if (value != "column" && value != "average" && value != "slice")
          throw BadRequest("'" + key + "' = '" + value +
                           "': column, average or slice is needed (leave map out for the picture)");
        out.emplace_back(key, value);
        break;
      case Kind::field:
      case Kind::map_field: {
        if (own_value(first, key, value)) {
          out.emplace_back(key, value);
          break;
        }
        const std::vector<std::string> none;
        std::vector<std::string> names = std::size_t(type) < fields.size() ? fields[std::size_t(type)] : none;
        // (a map's quantity or weight may be the mass, from a field or the header's mass table)
        if (rule->kind == Kind::map_field && !names.empty() &&
            std::find(names.begin(), names.end(), "MASS") == names.end())
          names.push_back("MASS");
        if (names.empty())
          throw BadRequest("'" + key + "' = '" + value + "': " +
                           (fields_note.empty()
                                ? "the server lists no fields of type " + std::to_string(type) + ": give it in the .par"
                                : fields_note));
        if (std::find(names.begin(), names.end(), value) == names.end()) {
          std::string list;
          for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
          throw BadRequest("'" + key + "' = '" + value + "': not a field of type " + std::to_string(type) +
                           " in the snapshot (its fields: " + list + ")");
        }
        out.emplace_back(key, value);
        break;
      }
    }
  }
  refuse_part_ranges(out, ptypes);
  return out;
}

std::string canonical_value(const std::string& key, const std::string& value) {
  int type = -1;
  const Rule* rule = rule_of(key, type);
  if (!rule || rule->kind != Kind::boolean || !boolean(value)) return value;
  return parse_bool(value, key) ? "TRUE" : "FALSE";
}

std::vector<std::string> browser_key_names(int ptypes) {
  std::vector<std::string> out;
  for (const Rule& r : picture_keys) out.push_back(r.key);
  for (int t = 0; t < ptypes; ++t)
    for (const Rule& r : type_keys) out.push_back(r.key + std::to_string(t));
  return out;
}

std::vector<PaletteChoice> palette_choices(const std::string& directory, const std::vector<std::string>& named) {
  std::vector<PaletteChoice> out;
  auto taken = [&](const std::string& name) {
    return std::any_of(out.begin(), out.end(), [&](const PaletteChoice& c) { return c.name == name; });
  };
  auto add = [&](const std::filesystem::path& path) {
    for (const PaletteChoice& c : out)
      if (std::filesystem::path(c.path) == path) return;  // offered already
    // Two files of one name in different directories: the later one named with its directory.
    std::string name = path.stem().string();
    if (taken(name)) name += " (" + path.parent_path().filename().string() + ")";
    for (int k = 2; taken(name); ++k) name = path.stem().string() + " (" + std::to_string(k) + ")";
    out.push_back({name, path.string()});
  };
  for (const std::string& p : named) add(p);
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    if (entry.path().extension() == ".pal") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) add(f);
  return out;
}

}  // namespace splotch
