// The VisIVO reader (simtype 10): a VisIVO Binary Table, NAME.bin and its text header
// NAME.bin.head (as VisIVO Server's importers write them): a line "float" (or "double"), the
// number of columns, the number of rows (for a volume followed by its cells along x, y, z and the
// cells' sizes), "little" or "big", then the columns' names one per line; the binary file holds
// the columns one after the other, every row of the first, then of the second, ... A table's
// points are its rows, placed by the columns `x`, `y`, `z` name (a number from 1 or a name; by
// default the columns named x, y, z or x_coordinate, ..., any case); a volume's points are its
// cells, at their centres, with the cell's size as smoothing length. One type (0).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/ascii_reader.h"
#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

struct VisivoHeader {
  std::string bin_path, head_path;
  bool doubles = false, big_endian = false;
  std::uint64_t rows = 0;
  std::vector<std::string> names;
  bool volume = false;
  long long cells[3] = {0, 0, 0};
  double cell_size[3] = {1, 1, 1};
};

// The header of the table `path` names (NAME.bin or NAME.bin.head); an error names its line.
VisivoHeader read_visivo_header(const std::string& path);
// Whether `path` is a VisIVO table: NAME.bin.head, or NAME.bin beside it, whose first line is a type.
bool is_visivo_table(const std::string& path);

// The columns' names and rows (no values); the positions' columns by `layout` (x, y, z; r).
ColumnSnapshot visivo_outline(const std::string& path, const AsciiLayout& layout);
ColumnSnapshot load_visivo(const std::string& path, const AsciiLayout& layout, const ColumnWanted& wanted,
                           const ProgressCallback& progress = {});

}  // namespace splotch
