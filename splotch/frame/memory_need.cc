#include "splotch/frame/memory_need.h"

#include <algorithm>
#include <cstdio>

#include "errors/user_error.h"

namespace splotch {
namespace {

// Bytes per particle that the largest stage adds to the particle set (measured; see the header).
constexpr double render_extra = 4;                         // a_eq_e: the tile order's scratch
constexpr double draw_order_extra = 18;                    // a_eq_e = FALSE: draw keys and their sort
constexpr double knn_extra = 37;                           // the neighbour tree and its order
constexpr double image_bytes_per_pixel = 13;               // the float RGB image and the 8-bit one
constexpr std::size_t base_bytes = std::size_t(16) << 20;  // the program, its libraries, the threads

}  // namespace

std::string gib_text(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(std::size_t(1) << 30));
  return text;
}

namespace {

std::string memory_text(std::size_t bytes) {
  if (bytes >= std::size_t(1) << 30) return gib_text(bytes);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", double(bytes) / double(std::size_t(1) << 20));
  return text;
}

}  // namespace

MemoryNeed memory_need(std::uint64_t particles, const MemoryShape& s) {
  MemoryNeed need;
  const double set = 4.0 * s.fields + (s.types ? 1 : 0);
  double extra = s.a_eq_e ? render_extra : draw_order_extra;
  if (s.knn) extra = std::max(extra, knn_extra);
  need.bytes_per_particle = set * (s.keeps_particles ? 2 : 1) + extra;
  need.particle_bytes = std::size_t(double(particles) * need.bytes_per_particle);
  need.image_bytes = std::size_t(double(s.pixels) * image_bytes_per_pixel);
  need.total = base_bytes + need.particle_bytes + need.image_bytes;
  return need;
}

std::string check_memory(const MemoryNeed& need, std::uint64_t particles, std::size_t available, int processes_on_node,
                         const std::string& input_path) {
  if (available == 0) return {};
  char counts[200];
  std::snprintf(counts, sizeof counts, "%.3g particles x %.0f bytes, and %s for the image", double(particles),
                need.bytes_per_particle, memory_text(need.image_bytes).c_str());
  const std::string per_process = processes_on_node > 1 ? " (this process's part of the node's, shared by " +
                                                              std::to_string(processes_on_node) + " processes)"
                                                        : "";
  // What to do follows what takes the memory: every MPI process holds the whole image.
  const std::string advice =
      need.image_bytes > need.particle_bytes
          ? "Render a smaller image (xres, yres: every process holds all of it)"
          : "Render fewer particle types (ptypes), share the particles among the processes of several nodes with MPI "
            "(bin/splotch_mpi, mpi_mode = data: each holds its part)";
  if (need.total > available)
    throw UserError("rendering '" + input_path + "' needs about " + gib_text(need.total) + " of memory (" + counts +
                    "), but " + gib_text(available) + " are available" + per_process +
                    ": the run would fail or be killed. " + advice +
                    ", or use a node with more memory; memory_check = FALSE renders anyway");
  if (double(need.total) > 0.9 * double(available))
    return "this run needs about " + gib_text(need.total) + " of the " + gib_text(available) + " of memory available" +
           per_process + ": it may be killed if anything else takes memory meanwhile";
  return {};
}

}  // namespace splotch
