// The HDF5 snapshot reader (simtype 7 and 8): Gadget-2/3/4, AREPO, GIZMO and SWIFT files, one or
// many. It takes the request of the Gadget reader (io/typed_snapshot_request.h), so that one parameter
// file serves both formats: a label is a dataset name or its Gadget block label (HSML finds
// SmoothingLength or SmoothingLengths). Contiguous float datasets are read like Gadget blocks,
// by parallel positioned reads straight into the arrays; chunked or compressed ones through the
// library, a piece of rows at a time.
#pragma once

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/typed_snapshot_request.h"

namespace splotch {

ParticleSet read_hdf5(const TypedSnapshotRequest& options, const ProgressCallback& progress = {});

// The particles of each type in each file ([file][type], from the headers; types up to the most
// any file has): what ReadShare's file_counts take.
std::vector<std::vector<std::uint64_t>> hdf5_file_counts(const TypedSnapshotRequest& options);

}  // namespace splotch
