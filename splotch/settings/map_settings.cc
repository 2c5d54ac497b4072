// The map's keys (docs/maps.md): map, map_quantityN and map_weightN (read with the input, splotch/
// settings/input_settings.cc), map_width, map_depth, map_kernel, map_hsml_factor, map_units and
// the units given, map_log, map_min, map_max, and an outfile that names a data file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "errors/user_error.h"
#include "splotch/settings/known_keys.h"
#include "splotch/settings/settings.h"
#include "splotch/settings/settings_keys.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

std::optional<double> positive(ParamFile& p, const std::string& key, const char* what) {
  if (!p.has(key)) return std::nullopt;
  const double v = p.get<double>(key);
  if (v > 0 && std::isfinite(v)) return v;
  p.reject(at(p, key) + " = " + p.get<std::string>(key) + " must be a positive number: " + what);
  return std::nullopt;
}

// outfile = map.fits (or .h5, .npy): the map's values; a frame of a scene with its number.
void read_data_file(ParamFile& p, Settings& s, int frame, bool in_scene) {
  const std::string outfile = p.get<std::string>("outfile");
  if (!map_file_format(outfile, s.map.format)) return;
  s.map.data_file = true;
  std::string path = outfile;
  if (in_scene) {
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    const std::size_t dot = outfile.rfind('.');
    path = outfile.substr(0, dot) + number + outfile.substr(dot);
  }
  s.output.path = path;
  check_writable_directory(path, at(p, "outfile"));
  p.resolve("outfile", absolute_path(path), "given as " + outfile);
}

// The edit distance of a and b, a swap of neighbours counting one (a typo's usual kinds).
std::size_t typo_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The map key a misspelt one most likely meant ("" when none is within two typos).
std::string closest_map_key(const std::string& key, int types) {
  std::string best;
  std::size_t distance = 3;
  for (const std::string& known : known_keys(types)) {
    if (known.rfind("map_", 0) != 0) continue;
    const std::size_t d = typo_distance(key, known);
    if (d < distance) distance = d, best = known;
  }
  return best;
}

}  // namespace

void read_map(ParamFile& p, Settings& s, int frame, bool in_scene) {
  MapSettings& m = s.map;
  if (!p.has("map")) return;  // (not looked up: used.par records no map for a picture)
  const std::string mode = p.get<std::string>("map");
  if (mode == "column")
    m.mode = MapMode::column;
  else if (mode == "average")
    m.mode = MapMode::average;
  else if (mode == "slice")
    m.mode = MapMode::slice;
  else {
    p.reject(at(p, "map") + " = " + mode +
             " is not a map: column (a line-of-sight integral, a surface density of MASS by default), average "
             "(weighted by map_weight) or slice (the plane through lookat); leave map out for the picture");
    return;
  }
  if (m.mode == MapMode::slice && s.input.dimensions < 3)
    p.reject(at(p, "map") + " = slice of a " + std::to_string(s.input.dimensions) +
             "-D run: its cells are one layer, whose masses are per unit of the missing depth, so a 3-D kernel's " +
             "slice through them is no value of the field; draw map = average with map_quantity0 = the field " +
             "(one layer: each pixel the field there)");
  if (has_particle_types(s.input.format)) {
    for (int t = 0; t < s.input.ptypes; ++t) {
      const std::string n = std::to_string(t);
      m.quantity.push_back(p.get<std::string>("map_quantity" + n, m.mode == MapMode::slice ? "RHO" : "MASS"));
      m.weight.push_back(p.get<std::string>("map_weight" + n, "MASS"));
    }
  } else if (m.mode == MapMode::slice) {
    p.reject(at(p, "map") + " = slice needs each particle's mass and density, which " +
             format_description(s.input.format) +
             " does not name (simtype 2 Gadget, 8 HDF5 and 11 Tipsy do): draw map = column or average");
  } else {
    // A raw file's or an HDF5 table's fields, as the input's settings chose them for the map
    // (map_quantity0, map_weight0, else I, else 1 per particle).
    const bool raw = s.input.format != SnapshotFormat::hdf5_table;
    auto name = [&](int column, const std::string& dataset) {
      if (raw) return column >= 0 ? "column " + std::to_string(column + 1) : std::string("particles");
      return dataset.empty() ? std::string("particles") : dataset;
    };
    const std::string amount = name(s.input.raw.intensity, s.input.table.intensity);
    const std::string averaged = name(s.input.raw.colour[0], s.input.table.colour[0]);
    m.quantity.push_back(m.mode == MapMode::column ? amount : averaged);
    m.weight.push_back(amount);
  }
  // A map is orthographic along the view: a perspective has no one pixel area.
  if (p.has("projection") && p.get<bool>("projection"))
    p.reject(at(p, "projection") +
             " = TRUE: a map is orthographic along the view (every pixel the same area); leave projection out "
             "or give FALSE");
  s.camera.perspective = false;
  // (recorded so, that the map's used.par draws it again)
  p.resolve("projection", "FALSE", "a map is orthographic");
  m.width = positive(p, "map_width", "the map's width in the snapshot's length unit");
  m.depth = positive(p, "map_depth", "the thickness of the slab about lookat that the map takes");
  if (p.has("map_kernel")) {
    MapKernel k;
    if (kernel_of_name(p.get<std::string>("map_kernel"), k))
      m.kernel = k;
    else
      p.reject(at(p, "map_kernel") + " = " + p.get<std::string>("map_kernel") +
               " is not one of cubic, quintic, wendland_c2, wendland_c4, gaussian");
  }
  m.support_factor = positive(p, "map_hsml_factor", "the kernel's support radius over the smoothing length");
  const std::string units = p.get<std::string>("map_units", "physical");
  if (units != "physical" && units != "code")
    p.reject(at(p, "map_units") + " = " + units + " is not physical (Msun, kpc, km/s) or code (the file's own)");
  m.units.physical = units == "physical";
  m.units.length_cm = positive(p, "map_unit_length", "one code length in cm").value_or(0);
  m.units.mass_g = positive(p, "map_unit_mass", "one code mass in g").value_or(0);
  m.units.velocity_cm_s = positive(p, "map_unit_velocity", "one code velocity in cm/s").value_or(0);
  m.units.hubble = positive(p, "map_hubble", "h, where the file's lengths and masses carry 1/h").value_or(0);
  m.log = p.get<bool>("map_log", true);
  if (p.has("map_min")) m.min = p.get<double>("map_min");
  if (p.has("map_max")) m.max = p.get<double>("map_max");
  if (m.min && m.max && !(*m.min < *m.max)) p.reject(at(p, "map_min") + " must be below map_max");
  if (m.log && m.min && !(*m.min > 0)) p.reject(at(p, "map_min") + " must be above 0 with map_log = TRUE");
  read_data_file(p, s, frame, in_scene);
  // A map's key misspelt would leave the map drawn otherwise than asked (its width, depth or units
  // silently the defaults): an error, where other unknown keys are a warning.
  for (const std::string& unused : p.unused_keys()) {
    const std::string key = unused.substr(0, unused.find(' '));  // ("key (where)")
    if (key.rfind("map_", 0) != 0 || key_kind(key)) continue;
    const std::string guess = closest_map_key(key, s.input.ptypes);
    p.reject(p.origin(key) + ": " + key + " is not a map key" +
             (guess.empty() ? "" : " (did you mean " + guess + "?)") +
             "; the map's keys are in docs/parameters.md and docs/maps.md");
  }
}

}  // namespace splotch
