// The memory a run will need, estimated from the particle count before reading, so that a run too
// large for the machine stops at once with what to do instead of being killed by the kernel after
// a long read (a batch job then loses its allocation with no word).
//
// The estimate follows the pipeline's peak: the particle set as read (4 bytes a field), plus what
// the largest stage adds to it (the draw-order keys and their sort with a_eq_e = FALSE; the tree
// of size_estimate = knn, freed before the render), plus the image. The bytes were measured with
// the run report's peak memory on the benchmark snapshot (1e6 to 1e8 particles, 800^2 and
// 2048^2): the estimate is within 10% of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace splotch {

struct MemoryShape {
  std::size_t pixels = 0;
  int fields = 6;      // floats per particle read: x y z hsml I and one colour (8: a vector colour)
  bool types = false;  // more than one type: a byte each
  bool a_eq_e = true;
  bool knn = false;              // smoothing lengths from the nearest neighbours
  bool keeps_particles = false;  // a scene keeps the particles for later frames and projects a copy
};

struct MemoryNeed {
  double bytes_per_particle = 0;
  std::size_t particle_bytes = 0, image_bytes = 0, total = 0;
};

MemoryNeed memory_need(std::uint64_t particles, const MemoryShape& shape);

// Empty when the run fits (or `available` is 0, unknown); a warning's text when it takes over 90% of
// it. Throws UserError, naming the need, what is available and what to do, when it does not fit.
// `processes_on_node`: MPI processes sharing the node's memory (each was given its share of it).
std::string check_memory(const MemoryNeed& need, std::uint64_t particles, std::size_t available, int processes_on_node,
                         const std::string& input_path);

std::string gib_text(std::size_t bytes);  // "3.72 GiB"

}  // namespace splotch
