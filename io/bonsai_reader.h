// The Bonsai reader (simtype 14): the snapshots of the Bonsai GPU tree code (BonsaiIO): an 8-byte
// offset of the header; at it "V1", the number of datasets and for each its name (256 bytes), element
// size, offset and number of ranks (280 bytes in all), then the time (written as 4 bytes of a double,
// so not kept); at each dataset's offset the counts of its ranks (8 bytes each), then its elements.
// Datasets "DM:..." are file type 0 (dark matter), "Stars:..." type 1 (stars): IDType (the ID in the
// low 48 bits), POS:real4 (x, y, z, mass), VEL:float[3], RHOH:float[2] (density and smoothing length);
// others of 4-byte elements as scalar columns by their names.
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

bool is_bonsai_file(const std::string& path);
ColumnSnapshot bonsai_outline(const std::string& path);
ColumnSnapshot load_bonsai(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress = {});

}  // namespace splotch
