// Smoothing lengths for particles that carry none (dark matter, stars, initial conditions), from
// their neighbours: hsml is the radius of the smallest sphere around the particle that holds
// `neighbours` particles, the particle itself included. That is Gadget's convention, the distance
// to the (neighbours - 1)-th nearest other particle, so that a set whose hsml came from Gadget
// and one estimated here look alike.
//
// The neighbours are found with a tree of octree cells over the particles in Morton order (see
// knn_tree.h): O(N log N) at most, in parallel, and as fast in a halo 10^4 times denser than the
// mean as in a void, where a uniform grid would put thousands of particles in one cell.
#pragma once

#include <cstddef>

#include "io/progress.h"

namespace splotch {

struct KnnHsmlResult {
  std::size_t coincident = 0;  // particles whose k-th neighbour distance was 0 (given the fallback below)
};

// hsml[i] (n entries, written in full) for the particle at (x[i], y[i], z[i]).
//   box_size > 0: a periodic box of that side, distances by minimum image; positions may lie
//                 outside [0, box_size) (they are wrapped). 0: open boundaries.
//   Fewer particles than `neighbours`: the distance to the farthest one.
//   A distance of 0 (that many particles at one point): the smallest positive hsml of the set
//   instead, so that the particles still show; counted in the result.
// Distances are computed in float (squared) as the positions are stored; the result does not
// depend on the number of OpenMP threads. progress is called from the calling thread only.
// UserError: n < 2, neighbours < 2, a negative or non-finite box_size, a non-finite position,
// every particle with neighbours - 1 others at its position (no distance left to size them by),
// or more than 2^32 - 1 particles.
KnnHsmlResult knn_hsml(const float* x, const float* y, const float* z, std::size_t n, int neighbours, double box_size,
                       float* hsml, const ProgressCallback& progress = {});

}  // namespace splotch
