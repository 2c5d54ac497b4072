// The render's particles from a snapshot held as columns (io/column_snapshot.h), by the request of
// every snapshot with types: ptypeN the file type, the labels the columns (a format's own names,
// or the Gadget labels and HDF5 names of the same quantities), MPI shares as slices of each type.
#pragma once

#include "io/column_snapshot.h"
#include "io/particle_set.h"
#include "io/progress.h"
#include "io/typed_snapshot_request.h"

namespace splotch {

// The types and columns the request reads (for the format's loader to take no more).
ColumnWanted columns_wanted(const TypedSnapshotRequest& request);

// Particles grouped by render type, each type's in the snapshot's order; a column the request
// names that the type lacks is a MissingField (io/missing_field.h), as in the other readers.
// `lend`: where one render type takes a type whole, its positions and smoothing lengths use the
// columns' memory in place (io/particle_array.h: lend_again) instead of a copy (a caller's arrays).
ParticleSet particles_from_columns(const ColumnSnapshot& snapshot, const TypedSnapshotRequest& request,
                                   const ProgressCallback& progress = {}, bool lend = false);

}  // namespace splotch
