// A held snapshot given other fields' colours and intensities (the server: a browser chose another
// color_labelN, intensity_labelN or map quantity): only those fields are read from the file, put
// where a fresh load puts them and normalised, so that a field switch costs the read of one field
// instead of the snapshot's, and the particles' positions and sizes (and their copy on the GPU)
// stay as they are.
#pragma once

#include <vector>

#include "io/snapshot_request.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

// The render types whose colours or intensities `now` reads otherwise than `then` does, where
// that is all it changes (the same files, types, positions and sizes, the IDs and velocities that
// `now` reads read by `then` too; every particle read, with no
// preview's share, region or MPI share; a format with particle types: Gadget, HDF5, Tipsy, arrays).
// Empty: `now` is another snapshot (or the same, read alike) and is read whole.
std::vector<int> types_with_other_values(const SnapshotRequest& then, const SnapshotRequest& now);

// `loaded` (loaded with its raw values kept, from `then`) with the colours and intensities of
// `now`'s render types `which` read from the file and every type normalised with `normalization`:
// its particles as a fresh load of `now` would give them. False, `loaded` untouched, where it
// cannot be done so: some particle was dropped for its values before, or a new value is NaN or
// infinite (a fresh load would drop it); the caller then reads the snapshot.
bool reread_values(LoadedSnapshot& loaded, const SnapshotRequest& now, const std::vector<int>& which,
                   const std::vector<TypeNormalization>& normalization, Console& console);

}  // namespace splotch
