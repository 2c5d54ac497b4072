#include "splotch/run_report.h"

#include <sys/resource.h>

#include <cstdio>

namespace splotch {

double peak_memory_mib() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

std::string RunReport::text() const {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "splotch: wrote %s (%d x %d, %s renderer, %d threads)\n", image_path.c_str(), width,
                height, renderer.c_str(), threads);
  out += line;
  std::snprintf(line, sizeof line, "  particles  %zu read, %zu dropped as invalid, %zu in view\n", particles_read,
                particles_dropped, particles_active);
  out += line;
  if (gpu) {
    std::snprintf(line, sizeof line,
                  "  splats     %zu on the GPU (%zu chunks, %.3f s), %zu on the host (larger than the tile boundary, "
                  "%.3f s)\n",
                  gpu->on_gpu, gpu->chunks, gpu->gpu_seconds, gpu->on_host, gpu->host_seconds);
    out += line;
  }
  for (const auto& [name, seconds] : stages) {
    std::snprintf(line, sizeof line, "  %-11s %9.3f s\n", name.c_str(), seconds);
    out += line;
  }
  std::snprintf(line, sizeof line, "  %-11s %9.3f s   (%.3g particles/s)\n", "total", total_seconds,
                total_seconds > 0 ? double(particles_read) / total_seconds : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "  %-11s %9.1f MiB\n", "peak memory", peak_memory_mib);
  out += line;
  return out;
}

}  // namespace splotch
