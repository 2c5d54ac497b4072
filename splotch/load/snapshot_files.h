// Which files make up a snapshot (docs/design.md section 3 and 4): `infile` as an existing path, or
// [datadir/][snapdir+NNN/]infile+NNN with NNN the 3-digit `fidx` (tried first when `fidx` is
// given); a relative path from the working directory, else from the parameter file's directory;
// `numfiles` files as <name>.0, <name>.1, ... when it exceeds 1. Without `numfiles`, the count
// comes from the first file's header (`files_in_header`), so that `infile = snap_010` or
// `infile = snap_010.0` finds all the files of a split snapshot. The keys are the settings' to read
// (splotch/settings/settings_keys.h); this takes their values.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace splotch {

// The names a parameter file gives a snapshot, and where they were given (for messages).
struct SnapshotNames {
  std::string infile, datadir, snapdir;
  std::optional<int> fidx;      // given: the numbered names are tried first
  std::optional<int> numfiles;  // given: the snapshot's count of files (else its first header's)
  std::string beside;           // the parameter file's directory: relative names are tried there too
  std::string infile_origin = "infile", numfiles_origin = "numfiles";  // "file.par:3"
};

// What was found: the name the files derive from (snap_010, or snap_010.hdf5) and the files;
// where fidx numbered it (infile + NNN, without snapdir), the name it numbered (snap_, from the
// parameter file's directory where it was found there), so that a record gives infile so and
// another fidx names another snapshot of the run.
struct FoundSnapshot {
  std::string base;
  std::vector<std::string> files;
  std::string numbered_stem;
};

// `extension` (".hdf5" for HDF5, "" for Gadget binary) is tried after each name that lacks it,
// and ends the names of a snapshot in several files (snap_010.0.hdf5, snap_010.1.hdf5, ...).
// `warnings`, when given, receives what the user should hear of (numfiles = 1 where the header
// says there are more files: only the first is read). Throws a UserError naming what was tried.
FoundSnapshot find_snapshot_files(const SnapshotNames& names, const std::string& extension,
                                  const std::function<int(const std::string& path)>& files_in_header,
                                  std::vector<std::string>* warnings = nullptr);

}  // namespace splotch
