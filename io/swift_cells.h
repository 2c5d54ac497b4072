// SWIFT's top-level cells (the /Cells group of its snapshots: Meta-data's cell size, each cell's
// centre, and per particle type each cell's count and where its particles start, in which file):
// the rows of each file and type that a region (io/read_region.h) needs. Built with HDF5 only
// (io/swift_cells.cc; without it io/no_hdf5.cc's stand-in finds no cells).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/read_region.h"

namespace splotch {

// What `why` says of a snapshot without cells (most that are not SWIFT's).
constexpr const char* swift_no_cells = "the snapshot has no /Cells group";

struct RowRun {
  std::size_t row, count;
};

struct CellSelection {
  std::vector<std::vector<std::vector<RowRun>>> runs;  // [file][file type]: the rows to read, in order
  std::size_t cells = 0, reaching = 0;                 // the top-level cells, and those that reach the region
  double cell_size = 0;                                // the largest side of a cell
};

// The rows of the types `region` applies to that can reach it: the cells whose box, grown by
// half a cell (particles drift out of their cells between SWIFT's rebuilds) and by the kernels'
// reach for smoothing lengths up to a cell's side (SWIFT's top-level cells are at least as wide as
// the kernels' support), meets the region, in a periodic box also as its images one box away.
// `counts[f][t]`: the particles of type t in file f. None (and `why` says why) where the
// snapshot has no /Cells group or its cells do not add up to the counts.
std::optional<CellSelection> swift_cells_reaching(const std::vector<std::string>& files,
                                                  const std::vector<std::vector<std::uint64_t>>& counts,
                                                  const ReadRegion& region, double box_size, std::string& why);

}  // namespace splotch
