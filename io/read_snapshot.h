// Reads the snapshot the input settings name, whatever its format (one reader per simtype).
#pragma once

#include "io/particle_set.h"
#include "io/progress.h"
#include "splotch/settings/settings.h"

namespace splotch {

ParticleSet read_snapshot(const SnapshotRequest& input, const ProgressCallback& progress = {});

// For a snapshot of several files (Gadget, HDF5): the particles of each type in each file, from
// the headers ([file][type]; empty for other snapshots). One MPI process reads them for all, so
// that the others open only the files of their share (ReadShare::file_counts).
std::vector<std::vector<std::uint64_t>> snapshot_file_counts(const SnapshotRequest& input);

}  // namespace splotch
