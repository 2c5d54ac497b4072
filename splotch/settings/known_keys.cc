#include "splotch/settings/known_keys.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "errors/user_error.h"
#include "params/param_file.h"

namespace splotch {
namespace {

// Per-type keys, which end with the type number (palette0, brightness1, ...).
const std::map<std::string, KeyKind>& per_type_keys() {
  static const std::map<std::string, KeyKind> keys = {
      {"ptype", KeyKind::integer},           {"palette", KeyKind::text},
      {"map_quantity", KeyKind::text},       {"map_weight", KeyKind::text},
      {"map_mass", KeyKind::text},           {"map_density", KeyKind::text},
      {"brightness", KeyKind::number},       {"smooth_factor", KeyKind::number},
      {"color_log", KeyKind::boolean},       {"color_asinh", KeyKind::boolean},
      {"intensity_log", KeyKind::boolean},   {"color_min", KeyKind::number},
      {"color_max", KeyKind::number},        {"intensity_min", KeyKind::number},
      {"intensity_max", KeyKind::number},    {"color_is_vector", KeyKind::boolean},
      {"color_label", KeyKind::text},        {"intensity_label", KeyKind::text},
      {"size_label", KeyKind::text},         {"size_fix", KeyKind::number},
      {"size_fac", KeyKind::number},         {"size_estimate", KeyKind::text},
      {"hsml_neighbours", KeyKind::integer}, {"color_fac", KeyKind::number},
      {"intensity_fac", KeyKind::number},    {"size_present", KeyKind::integer},
      {"color_present", KeyKind::integer},   {"intensity_present", KeyKind::integer},
  };
  return keys;
}

const std::map<std::string, KeyKind>& global_keys() {
  static const std::map<std::string, KeyKind> keys = {
      {"simtype", KeyKind::integer},
      {"infile", KeyKind::text},
      {"datadir", KeyKind::text},
      {"snapdir", KeyKind::text},
      {"fidx", KeyKind::number},
      {"numfiles", KeyKind::integer},
      {"ptypes", KeyKind::integer},
      {"num_blocks", KeyKind::integer},
      {"x", KeyKind::text},
      {"y", KeyKind::text},
      {"z", KeyKind::text},
      {"r", KeyKind::text},
      {"I", KeyKind::text},
      {"C1", KeyKind::text},
      {"C2", KeyKind::text},
      {"C3", KeyKind::text},
      {"swap_endian", KeyKind::boolean},
      {"smooth_factor", KeyKind::number},
      {"periodic", KeyKind::boolean},
      {"camera_x", KeyKind::number},
      {"camera_y", KeyKind::number},
      {"camera_z", KeyKind::number},
      {"lookat_x", KeyKind::number},
      {"lookat_y", KeyKind::number},
      {"lookat_z", KeyKind::number},
      {"sky_x", KeyKind::number},
      {"sky_y", KeyKind::number},
      {"sky_z", KeyKind::number},
      {"center_x", KeyKind::number},
      {"center_y", KeyKind::number},
      {"center_z", KeyKind::number},
      {"face", KeyKind::text},
      {"fov", KeyKind::number},
      {"projection", KeyKind::boolean},
      {"zmin", KeyKind::number},
      {"zmax", KeyKind::number},
      {"xres", KeyKind::integer},
      {"yres", KeyKind::integer},
      {"a_eq_e", KeyKind::boolean},
      {"exposure", KeyKind::text},
      {"gray_absorption", KeyKind::number},
      {"sort_type", KeyKind::integer},
      {"minrad_pix", KeyKind::number},
      {"outfile", KeyKind::text},
      {"pictype", KeyKind::integer},
      {"jpeg_quality", KeyKind::integer},
      {"colorbar", KeyKind::text},
      {"pic_gamma", KeyKind::number},
      {"pic_contrast", KeyKind::number},
      {"pic_brightness", KeyKind::number},
      {"pic_brighness", KeyKind::number},
      {"renderer", KeyKind::text},
      {"cuda_algorithm", KeyKind::text},
      {"btile_writes", KeyKind::text},
      {"cuda_large_splats", KeyKind::text},
      {"gpu_chunk_particles", KeyKind::integer},
      {"tile_boundary_width", KeyKind::integer},
      {"tile_x-side", KeyKind::integer},
      {"tile_y-side", KeyKind::integer},
      {"memory_check", KeyKind::boolean},
      {"read_region", KeyKind::boolean},
      {"scene_file", KeyKind::text},
      {"scene_start", KeyKind::integer},
      {"scene_incr", KeyKind::integer},
      {"last_scene", KeyKind::integer},
      {"resume", KeyKind::boolean},
      {"scene_read_ahead", KeyKind::text},
      {"mpi_mode", KeyKind::text},
      {"interpolation_mode", KeyKind::integer},
      {"hubble", KeyKind::number},
      {"omega", KeyKind::number},
      {"lambda", KeyKind::number},
      {"l_unit", KeyKind::number},
      {"v_unit", KeyKind::number},
      {"id_label", KeyKind::text},
      {"snapshot_spacing", KeyKind::number},
      {"boost", KeyKind::boolean},
      {"boost_fraction", KeyKind::number},
      {"server", KeyKind::boolean},
      {"AnalyzeSimulationOnly", KeyKind::boolean},
      {"EyeSeparation", KeyKind::number},
      {"panorama", KeyKind::boolean},
      {"dome", KeyKind::boolean},
      {"dome_aperture", KeyKind::number},
      {"dataset_name", KeyKind::text},
      {"is_compound_data", KeyKind::boolean},
      {"snapshot", KeyKind::text},
      {"snapshotID", KeyKind::integer},
      {"print_snapIDs_in_file_ONLY", KeyKind::boolean},
      {"smooth_param", KeyKind::number},
      {"thresh", KeyKind::number},
      {"map", KeyKind::text},
      {"map_width", KeyKind::number},
      {"map_depth", KeyKind::number},
      {"map_kernel", KeyKind::text},
      {"map_hsml_factor", KeyKind::number},
      {"map_units", KeyKind::text},
      {"map_unit_length", KeyKind::number},
      {"map_unit_mass", KeyKind::number},
      {"map_unit_velocity", KeyKind::number},
      {"map_hubble", KeyKind::number},
      {"map_log", KeyKind::boolean},
      {"map_min", KeyKind::number},
      {"map_max", KeyKind::number},
  };
  return keys;
}

}  // namespace

const KeyKind* key_kind(const std::string& key) {
  const auto global = global_keys().find(key);
  if (global != global_keys().end()) return &global->second;
  std::string stem = key;
  while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) stem.pop_back();
  if (stem.size() == key.size()) return nullptr;  // a per-type key has its type number
  const auto typed = per_type_keys().find(stem);
  return typed == per_type_keys().end() ? nullptr : &typed->second;
}

std::vector<std::string> known_keys(int types) {
  std::vector<std::string> keys;
  for (const auto& [key, kind] : global_keys()) keys.push_back(key);
  for (int t = 0; t < std::max(types, 1); ++t)
    for (const auto& [stem, kind] : per_type_keys()) keys.push_back(stem + std::to_string(t));
  return keys;
}

std::string did_you_mean(const std::string& key, int types) {
  std::string nearest;
  int best = 3;
  for (const std::string& known : known_keys(types))
    if (within_typo(key, known) && typo_edits(key, known) < best) best = typo_edits(key, known), nearest = known;
  return nearest;
}

bool value_of_kind(const std::string& value, KeyKind kind, std::string& why) {
  try {
    switch (kind) {
      case KeyKind::number: parse_real(value, ""); break;
      case KeyKind::integer: parse_integer(value, ""); break;
      case KeyKind::boolean: parse_bool(value, ""); break;
      case KeyKind::text: break;
    }
  } catch (const UserError&) {
    why = kind == KeyKind::number    ? "not a number"
          : kind == KeyKind::integer ? "not an integer"
                                     : "not a boolean (TRUE or FALSE)";
    return false;
  }
  return true;
}

}  // namespace splotch
