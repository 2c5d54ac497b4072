#include "splotch/frame/run_report.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace splotch {

double peak_memory_mib() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

double process_age_seconds() {
  // Field 22 of /proc/self/stat: the start in clock ticks after boot (the name before it, in
  // parentheses, may hold spaces: the fields are counted after its closing one).
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return -1;
  char text[1024];
  const std::size_t n = std::fread(text, 1, sizeof text - 1, f);
  std::fclose(f);
  text[n] = 0;
  const char* at = std::strrchr(text, ')');
  unsigned long long ticks = 0;
  int field = 2;
  for (; at && *at && field < 22; ++at)
    if (*at == ' ') ++field;
  if (!at || std::sscanf(at, "%llu", &ticks) != 1) return -1;
  timespec now{};
  const long per_second = sysconf(_SC_CLK_TCK);
  if (per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec) - double(ticks) / double(per_second);
}

void add_seconds(std::vector<std::pair<std::string, double>>& named, const std::string& name, double seconds) {
  for (auto& [entry, total] : named)
    if (entry == name) {
      total += seconds;
      return;
    }
  named.emplace_back(name, seconds);
}

std::string RunReport::text() const {
  std::string out;
  char line[512];
  // (a picture kept in memory, for the Python module, was written nowhere: "drew")
  std::snprintf(line, sizeof line, "splotch: %s%s (%d x %d, %s renderer%s%s, %d thread%s%s)\n",
                image_path.empty() ? "drew the picture" : "wrote ", image_path.c_str(), width, height, renderer.c_str(),
                processes.empty() ? "" : ", ", processes.c_str(), threads, threads == 1 ? "" : "s",
                processes.empty() ? "" : " each");
  out += line;
  std::snprintf(line, sizeof line, "  particles  %zu %s, %zu dropped as invalid, %zu in view\n", particles_read,
                reused       ? "from the previous frame (not read again)"
                : read_ahead ? "read (while the frame before rendered)"
                             : "read",
                particles_dropped, particles_active);
  out += line;
  if (show_ranges)
    for (const std::string& r : ranges) out += "  " + r + "\n";
  for (const std::string& n : notes) out += "  note: " + n + "\n";
  if (gpu && gpu->geometry_on_gpu) {
    // Too many for a view's working memory beside them: drawn a window (or a slab of the draw
    // order) at a time.
    const std::string windows = gpu->window > 0 ? ", in windows of " + std::to_string(gpu->window) +
                                                      " particles: " + std::to_string(gpu->chunks) + " drawn in turn"
                                                : "";
    const std::string large = gpu->large_on_gpu > 0 ? ", " + std::to_string(gpu->large_on_gpu) +
                                                          " of them larger than the tile boundary, drawn tile by tile"
                                                    : "";
    std::snprintf(line, sizeof line,
                  "  splats     %zu on the GPU (projected there from the particles copied to it%s, %.0f MiB of GPU "
                  "memory in use%s), %zu on the host (larger than the tile boundary)\n",
                  gpu->on_gpu, windows.c_str(), gpu->device_mib, large.c_str(), gpu->on_host);
    out += line;
  } else if (gpu) {
    std::snprintf(line, sizeof line,
                  "  splats     %zu on the GPU (%zu chunks, %.0f MiB of GPU memory in use), %zu on the host (larger "
                  "than the tile boundary)\n",
                  gpu->on_gpu, gpu->chunks, gpu->device_mib, gpu->on_host);
    out += line;
  }
  for (const auto& [name, seconds] : stages) {
    std::snprintf(line, sizeof line, "  %-11s %9.3f s\n", name.c_str(), seconds);
    out += line;
    if (name == "exchange" && !exchange_parts.empty()) {
      static const char* const what[] = {"the draw order's ranges from every process's keys", "records packed",
                                         "passed between the processes", "unpacked in order", "ordered by image tile"};
      for (std::size_t k = 0; k < exchange_parts.size(); ++k) {
        std::snprintf(line, sizeof line, "    %-9s %9.3f s   (%s)\n", exchange_parts[k].first.c_str(),
                      exchange_parts[k].second, k < 5 ? what[k] : "");
        out += line;
      }
    }
    if (name == "render" && !gpu_split_parts.empty()) {
      static const char* const what[] = {"the draw order's ranges from the keys counted on every GPU",
                                         "each range's splats written on this GPU",
                                         "the other GPUs' splats reached, GPU memory for this range",
                                         "this process's range gathered from the GPUs, GPU to GPU",
                                         "its layer drawn: colour and transmittance, in draw order",
                                         "the layer to host memory",
                                         "for the other processes' layers"};
      for (std::size_t k = 0; k < gpu_split_parts.size(); ++k) {
        std::snprintf(line, sizeof line, "    %-9s %9.3f s   (%s)\n", gpu_split_parts[k].first.c_str(),
                      gpu_split_parts[k].second, k < 7 ? what[k] : "");
        out += line;
      }
    }
    if (name == "render" && gpu && gpu->geometry_on_gpu) {
      std::snprintf(line, sizeof line,
                    "    geometry  %9.3f s   (projection, colour and the splats in view, on the GPU)\n"
                    "    kernels   %9.3f s   (drawing them)\n"
                    "    host_part %9.3f s   (splats larger than the tile boundary, on CPU threads meanwhile)\n",
                    gpu->geometry_seconds, gpu->kernel_seconds, gpu->host_seconds);
      out += line;
    } else if (name == "render" && gpu) {
      // The render stage's parts on the GPU run at the same time as each other and the host part.
      std::snprintf(line, sizeof line,
                    "    gpu_part  %9.3f s   (GPU work, wall time)\n"
                    "    upload    %9.3f s   (chunks to the device, summed; overlaps the kernels)\n"
                    "    kernels   %9.3f s   (drawing the chunks, summed)\n"
                    "    host_part %9.3f s   (splats larger than the tile boundary, on CPU threads meanwhile)\n",
                    gpu->gpu_seconds, gpu->upload_seconds, gpu->kernel_seconds, gpu->host_seconds);
      out += line;
    }
  }
  std::snprintf(line, sizeof line, "  %-11s %9.3f s   (%.3g particles/s)\n", "total", total_seconds,
                total_seconds > 0 ? double(particles_read) / total_seconds : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "  %-11s %9.1f MiB%s\n", "peak memory", peak_memory_mib,
                processes.empty() ? "" : "   (rank 0's; each process has its own)");
  out += line;
  if (process_age_at_start >= 0) {
    const std::string mpi =
        mpi_start_seconds >= 0 ? "; MPI's start " + std::to_string(mpi_start_seconds).substr(0, 5) + " s of it" : "";
    std::snprintf(line, sizeof line, "  %-11s %9.3f s   (from the process's start to the first stage%s)\n", "started",
                  process_age_at_start, mpi.c_str());
    out += line;
  }
  return out;
}

double RunReport::stage_seconds(const std::string& name) const {
  for (const auto& [stage, seconds] : stages)
    if (stage == name) return seconds;
  return 0;
}

}  // namespace splotch
