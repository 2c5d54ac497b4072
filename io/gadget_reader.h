// The Gadget binary reader (simtype 2): formats 1 and 2, either byte order, 4- or 8-byte values,
// one file or many, the mass table or a MASS block, blocks that hold only some particle types.
// Each render type takes the particles of one file type (`ptypeN`) from every file; only the
// blocks the render needs are read, with large positioned reads straight into the particle
// arrays, in parallel, converting byte order and precision in place.
#pragma once

#include <cstdint>
#include <vector>

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/typed_snapshot_request.h"

namespace splotch {

// Particles grouped by render type (ParticleSet::type; empty for a single type), each type's in
// file order; the box size from the first file's header.
ParticleSet read_gadget(const TypedSnapshotRequest& options, const ProgressCallback& progress = {});

// The particles of each type in each file ([file][type], from the headers): what ReadShare's
// file_counts take.
std::vector<std::vector<std::uint64_t>> gadget_file_counts(const TypedSnapshotRequest& options);

}  // namespace splotch
