// The mesh reader (simtype 6): a regular grid of nx x ny x nz cells stored as the original's mesh
// files are, num_blocks blocks of float32, one value per cell each (C order: x fastest; `order = 1`
// Fortran's, whose first and last axes the original swaps). A point per cell at its indices, its
// smoothing length one cell (the column smoothing_length; the original's `r` sets another); the
// blocks as columns block1, block2, ...
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

struct MeshLayout {
  long long nx = 0, ny = 0, nz = 0;  // the keys x, y, z: the grid's cells along each axis
  int blocks = 0;                    // num_blocks
  bool swap_endian = true;           // as the original's default (big-endian files on x86)
  bool fortran_order = false;        // order = 1
};

ColumnSnapshot mesh_outline(const std::string& path, const MeshLayout& layout);
ColumnSnapshot load_mesh(const std::string& path, const MeshLayout& layout, const ColumnWanted& wanted,
                         const ProgressCallback& progress = {});

}  // namespace splotch
