// The Tipsy reader (simtype 11): one file of either byte order, a 28- or 32-byte header, float
// (or double pos / vel) records of gas, dark matter and stars. It takes the request of every
// snapshot with types (io/typed_snapshot_request.h), so that the same parameter keys serve every format: ptypeN is 0
// (gas), 1 (dark) or 2 (star); a label names a record field (mass, pos, vel, rho, temp, hsmooth, metals, phi, eps,
// tform, any case) or a Gadget / HDF5 name of the same quantity (io/tipsy_file.h), and any other label an auxiliary
// array `<file>.<label>` (io/tipsy_aux_array.h). The records are read in large positioned pieces, in parallel, and only
// the fields the render needs are taken from them.
#pragma once

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/typed_snapshot_request.h"

namespace splotch {

// Particles grouped by render type (ParticleSet::type; empty for a single type), each type's in
// file order. The `present` masks of the request do not apply (every Tipsy record of a type has
// the same fields). box_size is 0: the format stores no box.
ParticleSet read_tipsy(const TypedSnapshotRequest& options, const ProgressCallback& progress = {});

}  // namespace splotch
