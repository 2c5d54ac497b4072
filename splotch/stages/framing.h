// What a camera placed from the data frames: the particles, not their outliers. A galaxy's few
// escaped stars or a cluster's halo particles far out would otherwise shrink the object to a dot.
//
// Per axis the box runs from the 2nd to the 98th percentile of the positions, widened by a tenth
// of its width on each side, to the particles' own edge where that is within a quarter of its
// width more: a uniform box or sphere is framed whole, a few far particles are left out (and
// counted, about). In a periodic box (the
// snapshot's box size, wrapping on) a group of particles across the box's edge, a zoom
// simulation's region, is framed as one, where the wrapping about the camera's lookat puts it.
//
// The percentiles come from histograms of a sample chosen by a hash of each particle's position
// (about 2^18 particles), so the framing is the same whatever the order of the particles and
// however an MPI run shares them out: every process counts its own, and the counts are summed.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "io/particle_set.h"
#include "splotch/stages/camera_placement.h"

namespace splotch {

struct Framing {
  BoundingBox box;                       // framed
  BoundingBox whole;                     // of every particle (across a periodic edge: as framed)
  std::uint64_t outside = 0, total = 0;  // particles outside `box` (estimated from the sample), of all

  static Framing of_box(const BoundingBox& whole, std::uint64_t total);  // framing it all
};

// How an MPI run's processes combine what each measured: element-wise over all processes, in
// place. Left empty for one process.
struct FramingReduction {
  std::function<void(std::vector<float>& mins, std::vector<float>& maxs)> min_max;
  std::function<void(std::vector<std::uint64_t>& counts)> sum;
};

// `periodic`: positions wrap in the snapshot's box (particles.box_size, when positive).
Framing framing(const ParticleSet& particles, bool periodic, const FramingReduction& reduce = {});

}  // namespace splotch
