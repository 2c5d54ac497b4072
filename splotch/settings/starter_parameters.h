// A first picture of a snapshot with no parameter file (`bin/splotch SNAPSHOT`), and the same
// choices as a commented parameter file to start from (`bin/splotch --init SNAPSHOT > my.par`).
// From the snapshot's headers and field lists alone (io/snapshot_survey.h): the gas, coloured by
// its density on a log scale, where the snapshot has gas, else its most numerous type; the file's
// smoothing lengths or an estimate (size_estimate0 = auto); the camera framing the particles; the
// exposure from the picture; a palette of the project's; the picture `<snapshot name>.png` in the
// working directory. Every choice is a key of the text, with a line saying what it does and what
// else it takes, so that the file renders as it is and is the user's to change.
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/snapshot_request.h"
#include "params/param_file.h"

namespace splotch {

// The parameter file's text for the snapshot at `path` (of `format`: Gadget, HDF5 or Tipsy); a
// UserError when the snapshot cannot be read or holds no particles.
// `file_type`: the type to draw (a ptype0 given with the snapshot), -1 for the choice above.
std::string starter_parameter_text(const std::string& path, SnapshotFormat format, int file_type = -1);

// That text as the parameter file of a run, named "<path> [--init]" in messages.
ParamFile starter_parameters(const std::string& path, SnapshotFormat format, int file_type = -1);

// The keys of a first picture of arrays in memory (io/memory_arrays.h), chosen as for a snapshot
// alone (no simtype or infile: the caller hands the arrays to the frame).
ParamFile starter_parameters_of_arrays(const ColumnSnapshot& arrays, int file_type = -1);

// A record (used.par) of a picture of arrays in memory, with the lines after its first that say
// how bin/splotch renders it again: no key names the arrays, so they must be written to a file.
std::string record_of_arrays(std::string used_par);

// The picture's name: the snapshot's file name without its directory, an .hdf5/.h5 ending or
// the ".0" of the first of several files, then .png ("snap_010.0" -> "snap_010.png").
std::string starter_picture_name(const std::string& path, bool several_files);

}  // namespace splotch
