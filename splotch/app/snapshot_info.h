// --info: what a snapshot holds, read from the file itself (docs/design.md section 2). A user's first
// command on an unknown file. This takes the parameters (or the bare snapshot file) to the
// snapshot request; each format's own printing is io's (io/snapshot_contents.h).
#pragma once

#include <ostream>
#include <string>

#include "params/param_file.h"
#include "splotch/util/console.h"

namespace splotch {

// The parameters for `--info FILE`: FILE's own when it is a parameter file, else (a snapshot,
// recognised from its first bytes) the few keys that read it.
ParamFile info_parameters(const std::string& file);

// For `--info FILE` on a Tipsy auxiliary array (snap.den): what it is and how to draw it; false
// for any other file.
bool print_auxiliary_info(const std::string& file, std::ostream& out);

// Reads the snapshot `params` names and prints what it holds; renders nothing.
void print_snapshot_info(ParamFile& params, Console& console, std::ostream& out);

// The snapshot IDs of a simtype-7 compound table and their rows (print_snapIDs_in_file_ONLY).
void print_snapshot_ids(ParamFile& params, std::ostream& out);

}  // namespace splotch
