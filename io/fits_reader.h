// The FITS reader (simtype 16, cfitsio): the first HDU holding data. An image of 2 or 3 axes (a
// cube; further axes of length 1, as a radio cube's Stokes axis) is one point per voxel, as the
// original reads it: at the voxel's indices (x the first axis, from 0), its value the column
// `value` (NaN as 0, counted), its smoothing length one voxel; `cube_begin` and `cube_end` choose
// a range of slices. A binary or ASCII table is one point per row, its numeric columns by name
// (a vector column of n values as NAME_1 ... NAME_n), the positions the columns `x`, `y`, `z` name
// (numbers from 1 or names; by default the columns named x, y, z in any case).
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

struct FitsLayout {
  std::string x, y, z;                       // a table's positions
  long long cube_begin = -1, cube_end = -1;  // an image's slices [begin, end), from 0; -1: all
};

bool is_fits_file(const std::string& path);
ColumnSnapshot fits_outline(const std::string& path, const FitsLayout& layout);
ColumnSnapshot load_fits(const std::string& path, const FitsLayout& layout, const ColumnWanted& wanted,
                         const ProgressCallback& progress = {});

}  // namespace splotch
