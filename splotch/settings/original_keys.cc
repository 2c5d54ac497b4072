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
      {"snapshot_spacing", "the scene file's fidx names each snapshot"},
      {"geometry_file", "the original's older camera path: use scene_file"},
      {"geometry_start", "the original's older camera path: use scene_start"},
      {"geometry_incr", "the original's older camera path: use scene_incr"},
      {"snap_start", "interpolation between snapshots is not supported yet"},
      {"snap_interpol", "interpolation between snapshots is not supported yet"},
      {"interpolation_mode", "interpolation between snapshots is not supported yet"},
      {"id_label", "interpolation between snapshots is not supported yet"},
      {"hubble", "interpolation between snapshots is not supported yet"},
      {"omega", "interpolation between snapshots is not supported yet"},
      {"lambda", "interpolation between snapshots is not supported yet"},
      {"time", "interpolation between snapshots is not supported yet"},
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
