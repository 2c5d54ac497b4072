// The RAMSES reader (simtype 13): an output directory's CPU files, read in parallel. The gas is the
// leaf cells of the AMR tree, each a particle at the cell's centre with the cell's side as its
// smoothing length and its mass the density times the cell's volume (the hydro variables named by
// hydro_file_descriptor.txt, or in the classic order of older outputs), so that a RAMSES run
// renders as its SPH twin would; the particles by family (new style: part_file_descriptor.txt, any
// field list, int32 or int64 identities) or as dark matter and stars (old style, by birth time);
// sinks from sink_NNNNN.csv (else its binary sink_NNNNN.out00001). 2-D and 1-D outputs lie in z = 0 (and y = 0).
// Positions, lengths and masses in code units, whose cgs the info file gives (unit_l, unit_d, unit_t).
//
// File types: 0 gas (leaf cells), 1 dark matter, 2 stars, 3 clouds, 4 debris, 5 other, 6 particles
// of an undefined family (127: initial conditions without families), 7 tracers, 8 sinks.
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

constexpr int ramses_types = 9;
const char* ramses_type_name(int file_type);

// Every type's count and the names of its columns, from the headers alone (no column values): the
// leaf cells from the AMR header's count of grids per level, the particles from header_NNNNN.txt's
// families, else from the part files' headers.
ColumnSnapshot ramses_outline(const std::string& path);

// The types and columns `wanted` asks for.
ColumnSnapshot load_ramses(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress = {});

}  // namespace splotch
