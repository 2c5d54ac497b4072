#include "splotch/settings/original_keys.h"

#include <cctype>
#include <utility>

namespace splotch {

std::string original_key_without_effect(const std::string& key) {
  // Per-type keys of the original end with the type number, as ours do.
  std::string base = key;
  while (!base.empty() && std::isdigit(static_cast<unsigned char>(base.back()))) base.pop_back();
  static const std::pair<const char*, const char*> keys[] = {
      {"gpu_number", "one GPU per MPI process, chosen by the node"},
      {"cores_number", "threads: OMP_NUM_THREADS"},
      {"gpu_info", "the report names the renderer"},
      {"particle_mem_factor", "GPU memory is sized from what is free"},
      {"max_region", "GPU memory is sized from what is free"},
      {"graphics_memory_size", "GPU memory is sized from what is free"},
      {"fragment_buffer_size", "GPU memory is sized from what is free"},
      {"block_size", "GPU memory is sized from what is free"},
      {"test_load_balancing", "the host and the GPU share the work by themselves"},
      {"gpu_load", "the host and the GPU share the work by themselves"},
      {"use_host_as_thread", "the host and the GPU share the work by themselves"},
      {"host_load", "the host and the GPU share the work by themselves"},
      {"readparallel", "MPI processes read their shares by themselves"},
      {"snapshot_spacing", "used with interpolation_mode and a fractional fidx only"},
      {"interpolation_mode", "used with a fractional fidx (a scene file's row) only"},
      {"id_label", "used with interpolation_mode only"},
      {"hubble", "used with interpolation_mode = 2 only"},
      {"omega", "used with interpolation_mode = 2 only"},
      {"lambda", "used with interpolation_mode = 2 only"},
      {"l_unit", "used with interpolation_mode = 2 only"},
      {"v_unit", "used with interpolation_mode = 2 only"},
      {"geometry_file", "the original's older camera path: use scene_file"},
      {"geometry_start", "the original's older camera path: use scene_start"},
      {"geometry_incr", "the original's older camera path: use scene_incr"},
      {"snap_start", "a scene file's fractional fidx chooses the snapshots to interpolate"},
      {"snap_interpol", "a scene file's fractional fidx chooses the snapshots to interpolate"},
      {"time", "the snapshots' headers give their times"},
      {"quality_factor", "a preview's share of the particles is boost_fraction"},
      {"boostcolors", "no effect in the original's own renderer either"},
      {"print_logfile", "a setting of the original's server"},
      {"bbox", "a setting of the original's server"},
      {"tjpp_quality", "a setting of the original's server"},
      {"move_speed", "a setting of the original's server"},
      {"rotate_speed", "a setting of the original's server"},
      {"resolution", "no effect in the original either: the image size is xres and yres"},
      {"gray_absorption", "one gray_absorption serves all types (the original reads no per-type one either)"},
  };
  for (const auto& [name, why] : keys)
    if (base == name) return why;
  return "";
}

}  // namespace splotch
