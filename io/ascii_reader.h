// The ASCII table reader (simtype 15): rows of numbers separated by spaces, tabs or commas, lines
// starting with # % or ! skipped as comments; the columns named by a header line (a first line of
// names, or the last comment line before the rows with one name per column) or col1, col2, ...
// The positions are the columns `x`, `y`, `z` name (a number from 1 or a header name); a column
// whose name is a field's (h, hsml, mass, rho, density, u, ...) is found by that field's labels
// (io/field_names.h). The original's catalogue of 39 columns (positions in 16-18, the g, r, i, z
// magnitudes in 29, 31, 33, 35) is read when no `x` is given: its magnitudes as gDES, rDES, iDES,
// zDES and the colours gDES-rDES, gDES-iDES, gDES-zDES. A row that is not of the table's columns
// or not numbers is an error naming its line.
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

struct AsciiLayout {
  std::string x, y, z;  // column numbers from 1, or header names; empty: the original's catalogue
  std::string hsml;     // the column `r` names, taken as the smoothing lengths (HSML), or ""
};

// The column `spec` names of a table's `names`: a number from 1 or a name (any case); npos where
// `spec` is empty; an error naming `key` and `path` where it names none.
std::size_t table_column(const std::string& spec, const std::vector<std::string>& names, const std::string& path,
                         const char* key);
// The Gadget label by which a table's column of this name is found (HSML for h or smoothing_length,
// MASS for m or mass, RHO for rho, ...), or "" for another name.
std::string table_column_label(const std::string& name);

// The columns' names alone, from the table's head.
std::vector<std::string> ascii_column_names(const std::string& path);

// The columns' names and the row count (one pass over the text), no values.
ColumnSnapshot ascii_outline(const std::string& path, const AsciiLayout& layout);
ColumnSnapshot load_ascii(const std::string& path, const AsciiLayout& layout, const ColumnWanted& wanted,
                          const ProgressCallback& progress = {});

// The original's catalogue quantity of index k (its C1, C2, C3, I keys: 0 gDES, 1 rDES, 2 iDES,
// 3 zDES, 5 gDES-rDES, 6 gDES-iDES, 7 gDES-zDES); "" for another (4, yDES, the original never read).
std::string catalogue_quantity(int k);

}  // namespace splotch
