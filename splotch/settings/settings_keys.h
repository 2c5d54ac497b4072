// What the two halves of the settings (splotch/settings/settings.cc, splotch/settings/input_settings.cc) share in
// reading keys: how a message names a key, and how a key naming a file is found and recorded.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "io/snapshot_request.h"
#include "params/param_file.h"

namespace splotch {

// "demo.par:12: xres", or "command line: xres": how a message about a key begins.
inline std::string at(const ParamFile& p, const std::string& key) { return p.origin(key) + ": " + key; }

// The file `key` names: a relative path from the working directory, else from the parameter
// file's directory (as the original, and so that a .par and its data can move together); recorded
// in used.par as an absolute path, so that the record reproduces the picture from anywhere.
std::string input_path(ParamFile& p, const std::string& key);
// A palette: as input_path finds files, and a bare name (`fire`, `fire.pal`) among the project's
// palettes (testdata/palettes beside bin/) where nothing else has it.
std::string palette_path(ParamFile& p, const std::string& key);

// The files of the snapshot that `infile`, `datadir`, `snapdir`, `fidx` and `numfiles` name
// (splotch/load/snapshot_files.h), recorded in used.par as found: `extension` ends the names of
// its format, `files_in_header` reads a file's count of files; `warnings` receives what the user
// should hear of.
std::vector<std::string> snapshot_files(ParamFile& p, const std::string& extension,
                                        const std::function<int(const std::string& path)>& files_in_header,
                                        std::vector<std::string>* warnings = nullptr);

// The files of a snapshot of particle types (Gadget, HDF5, Tipsy) that `infile` and its keys
// name (splotch/load/snapshot_files.h: a snapshot in several files from its first or base name);
// `warnings` receives what the user should hear of.
std::vector<std::string> typed_snapshot_files(ParamFile& p, SnapshotFormat format,
                                              std::vector<std::string>* warnings = nullptr);

}  // namespace splotch
