// The map's keys (docs/maps.md): map, map_quantityN and map_weightN (read with the input, splotch/
// settings/input_settings.cc), map_width, map_depth, map_kernel, map_hsml_factor, map_units and
// the units given, map_log, map_min, map_max, and an outfile that names a data file.
#include <cmath>
#include <cstdio>

#include "errors/user_error.h"
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
  if (!has_particle_types(s.input.format))
    p.reject(at(p, "map") + " needs a snapshot of named fields (simtype 2 Gadget, 8 HDF5, 11 Tipsy): " +
             format_description(s.input.format) + " names no mass or density");
  for (int t = 0; t < s.input.ptypes; ++t) {
    const std::string n = std::to_string(t);
    m.quantity.push_back(p.get<std::string>("map_quantity" + n, m.mode == MapMode::slice ? "RHO" : "MASS"));
    m.weight.push_back(p.get<std::string>("map_weight" + n, "MASS"));
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
}

}  // namespace splotch
