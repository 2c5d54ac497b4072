// The smoothing lengths of render types that asked for the nearest-neighbour estimate
// (size_estimateN = knn): particles without one of their own (dark matter, stars, Tipsy, initial
// conditions) get the radius holding their hsml_neighboursN nearest particles of the same render
// type (splotch/load/knn_hsml.h), times size_facN, in the snapshot's periodic box when wrapping is on.
#pragma once

#include "io/particle_set.h"
#include "io/snapshot_request.h"
#include "splotch/util/console.h"

namespace splotch {

// Whether any render type of `input` needs the estimate.
bool needs_hsml_estimate(const SnapshotRequest& input);

// Replaces the placeholder smoothing lengths the reader left for those types. The particles of a
// render type are contiguous (readers deliver them so, and dropping keeps the order).
void estimate_smoothing_lengths(ParticleSet& particles, const SnapshotRequest& input, Console& console);

}  // namespace splotch
