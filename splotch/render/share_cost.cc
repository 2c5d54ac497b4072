#include "splotch/render/share_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace splotch {

ShareEstimate estimate_share(const ShareWork& w, const ShareCosts& c) {
  const int m = w.a_eq_e ? 0 : 1;
  const double processes = std::max(1, w.processes), nodes = std::clamp(w.nodes, 1, w.processes);
  // `particles` of the snapshot's (each splat covering as one of all of them does).
  auto draw = [&](double particles, double threads) {
    if (w.gpu)
      return particles * c.gpu_particle[m] +
             particles / std::max(1.0, w.particles) * c.gpu_covered[m] * w.pixels * std::cbrt(w.particles);
    return particles * c.host_particle[m] / std::max(1.0, threads);
  };
  ShareEstimate e;
  e.alone_seconds = c.read_frame + w.particles * c.read_particle +
                    draw(w.particles, w.alone_threads > 0 ? w.alone_threads : w.threads);
  const double share = w.particles / processes;
  e.all_seconds = c.read_frame + w.particles / nodes * c.read_particle + draw(share, w.threads);
  if (processes > nodes) e.all_seconds += w.pixels * c.node_pixel[m];
  if (nodes > 1) e.all_seconds += w.pixels * c.network_pixel[m];
  const double particle_bytes =
      c.gpu_particle_bytes + (w.typed ? c.gpu_type_bytes : 0.0) + (w.vector_colour ? c.gpu_colour_bytes : 0.0);
  const double room = (w.gpu_memory - c.gpu_reserved_bytes) / double(std::max(1, w.processes_per_gpu) + 1);
  const bool whole = share <= c.gpu_window_particles && (w.gpu_memory <= 0 || share * particle_bytes <= room);
  e.gpu_split = !w.a_eq_e && w.gpu_split && whole;
  if (e.gpu_split)
    e.all_seconds += w.particles * c.gpu_exchange_particle +
                     w.particles * (processes - 1) / processes * c.gpu_open_splat + w.pixels * c.gpu_layer_pixel;
  if (!w.a_eq_e && !e.gpu_split) e.all_seconds += share * (processes - 1) / processes * c.exchange_splat;
  const double fullest = w.node_processes > 0 ? w.node_processes : processes / nodes;
  if (w.gpu) e.all_seconds += c.gpu_start_each * std::max(1.0, fullest - 1);
  e.alone_fits = w.node_memory <= 0 || w.particles * c.particle_bytes <= w.node_memory;
  e.alone = w.processes > 1 && e.alone_fits && e.alone_seconds < e.all_seconds;
  return e;
}

std::string describe_share(const ShareEstimate& e, const ShareWork& w) {
  char text[600];
  const char* on = w.gpu ? " GPU" : " process";
  std::snprintf(text, sizeof text,
                "mpi_mode = auto: %s draws this frame (modelled: %.3g s on one%s, %.3g s on all %d%s, for %.3g "
                "particles at %.3g Mpixels%s%s%s; mpi_mode = data has all the processes draw it)",
                e.alone ? "rank 0 alone" : "every process", e.alone_seconds, on, e.all_seconds, w.processes,
                w.gpu ? " GPUs" : " processes", w.particles, w.pixels / 1e6, w.a_eq_e ? "" : ", a_eq_e = FALSE",
                e.alone_fits ? "" : "; one process has not the memory for all",
                w.gpu_split && !w.a_eq_e && !e.gpu_split
                    ? "; a share's particles would be drawn in windows on its GPU (more than half its memory, or "
                      "2^30 particles), so the splats would pass through host memory and MPI: more GPUs keep the "
                      "split on the GPUs"
                    : "");
  return text;
}

}  // namespace splotch
