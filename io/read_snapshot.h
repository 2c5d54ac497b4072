// Reads the snapshot a request names, whatever its format (one reader per format).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/snapshot_request.h"

namespace splotch {

ParticleSet read_snapshot(const SnapshotRequest& input, const ProgressCallback& progress = {});

// For a snapshot of several files (Gadget, HDF5): the particles of each type in each file, from
// the headers ([file][type]; empty for other snapshots). One MPI process reads them for all, so
// that the others open only the files of their share (ReadShare::file_counts).
std::vector<std::vector<std::uint64_t>> snapshot_file_counts(const SnapshotRequest& input);

// A snapshot's format from its first bytes (Tipsy: its header and size): Gadget, HDF5 or Tipsy;
// none for anything else (a raw file has no mark to know it by).
std::optional<SnapshotFormat> detect_snapshot_format(const std::string& path);
// "a Gadget snapshot (format 2, 4 files)", "an HDF5 snapshot (1 file)", "a Tipsy snapshot (n
// particles)"; format_description() when the file cannot be read.
std::string describe_snapshot(const std::string& path, SnapshotFormat format);

}  // namespace splotch
