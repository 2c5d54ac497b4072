// The fields a browser may choose to colour and weigh each type by (color_labelN and
// intensity_labelN, issue 42): per render type, the snapshot's scalar fields of its file type
// (ptypeN), as the file names them. Listed from the files' headers for Gadget, HDF5 and Tipsy
// snapshots (io/snapshot_fields.h, no particle read), and from the columns of arrays a caller holds;
// the formats that are read whole to be listed (RAMSES, Phantom, ...) and raw tables (columns by
// number) are not listed, and `note` says so. Units are those the snapshot declares
// (splotch/stages/map_units.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/column_snapshot.h"
#include "params/param_file.h"
#include "splotch/serve/browser_keys.h"

namespace splotch {

struct ServedFields {
  TypeFields names;  // per render type; empty where none are listed
  // Beside each name, its unit where the file declares one ("K", "km s^-1", "Msun kpc^-3": in
  // physical units, as a map of it is; "" where the file says nothing of it).
  TypeFields units;
  std::string note;  // why none are listed ("" where they are)
};

// From the first picture's record (its paths resolved, its ptypeN), for `ptypes` render types.
ServedFields served_fields(const ParamFile& record, int ptypes, const std::shared_ptr<const ColumnSnapshot>& arrays);

}  // namespace splotch
