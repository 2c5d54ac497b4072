// What a file named on the command line is, told from its first bytes before it is read as what
// the user meant: a parameter file must be text of bounded size, and a snapshot, a Tipsy
// auxiliary array, a directory, an empty file or a device given in its place is named as such,
// with what to run instead (rather than parsed as key = value lines: binary garbage in an error,
// or a read of /dev/zero that never ends).
#pragma once

#include <string>
#include <vector>

#include "io/snapshot_request.h"
#include "params/param_file.h"

namespace splotch {

struct InputKind {
  // damaged: a snapshot's start, and a file that cannot be read as one (a truncated Tipsy file);
  // binary: bytes of no format splotch reads (an image, random data, a device of zeros).
  enum class Kind { text, snapshot, tipsy_aux_array, directory, empty, missing, damaged, binary, other };
  Kind kind = Kind::other;
  std::optional<SnapshotFormat> format;  // a snapshot's (Gadget, HDF5, Tipsy)
  std::string description;               // "a Gadget snapshot (format 2, 2 files)", ...
  std::string first_file;                // a snapshot named by the base name of its files: the first
  std::string snapshot;                  // a Tipsy auxiliary array's snapshot
};

InputKind input_kind(const std::string& path);

// The parameter file `path`, or for a snapshot the parameters `splotch --init` chooses for it
// (splotch/settings/starter_parameters.h); anything else is a UserError saying what it is and
// what to do.
// `overrides` (key=value arguments): a snapshot's choices are made for the ptype0 they give.
ParamFile read_parameter_file(const std::string& path, const std::vector<std::string>& overrides = {});

// The type a ptype0=N among key=value `overrides` draws (a first picture's colour, palette and
// sizes are chosen for it), else -1.
int ptype0_override(const std::vector<std::string>& overrides);

// A first picture's keys (`starter`) made to yield to key=value `overrides` that choose otherwise
// by other keys: size_fixN or size_labelN given, the first picture's size_estimateN = auto gives
// way (none: the sizes those keys name).
void yield_to_overrides(ParamFile& starter, const std::vector<std::string>& overrides);

// `splotch --init SNAPSHOT`: the commented parameter file for the snapshot at `path`; anything
// else is a UserError saying what it is.
std::string init_parameter_text(const std::string& path);

}  // namespace splotch
