// The smoothing lengths of render types that asked for the nearest-neighbour estimate
// (size_estimateN = knn), or whose file's values turn out to be no SPH smoothing lengths
// (size_estimateN = auto, the default: one value for every particle is a softening, as in the
// gas records of ChaNGa's Tipsy files, or a placeholder): particles without one of their own (dark
// matter, stars, initial conditions) get the radius holding their hsml_neighboursN nearest
// particles of the same render type (splotch/load/knn_hsml.h), times size_facN, in the snapshot's
// periodic box when wrapping is on.
#pragma once

#include <string>
#include <vector>

#include "io/particle_set.h"
#include "io/snapshot_request.h"
#include "splotch/util/console.h"

namespace splotch {

// The render types whose smoothing lengths are estimated, decided on the particles as read (before
// invalid ones are dropped): those that asked for it, and those of size_estimate = auto whose
// values are all one, which get the placeholder 1 (a zero would drop them) and a line in `notes`.
// `alone`: an MPI process's share, which cannot estimate (its neighbours are on other processes):
// such values are kept, with a line in `warnings` (every process meets it alike; one says it).
std::vector<bool> types_to_estimate(ParticleSet& particles, const SnapshotRequest& input, bool alone,
                                    std::vector<std::string>& notes, std::vector<std::string>& warnings);

// Replaces the placeholder smoothing lengths of the types `which` marks. The particles of a render
// type are contiguous (readers deliver them so, and dropping keeps the order). A type of a single
// particle, which has no neighbour, gets 1/100 of the extent of all the particles, with a note.
void estimate_smoothing_lengths(ParticleSet& particles, const SnapshotRequest& input, const std::vector<bool>& which,
                                std::vector<std::string>& notes, Console& console);

}  // namespace splotch
