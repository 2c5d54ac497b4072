// The formats read as a snapshot of columns (io/column_snapshot.h; reads_columns in
// io/snapshot_request.h): one place that knows which reader loads each, for the render, --info
// and the survey.
#pragma once

#include <optional>

#include "io/column_snapshot.h"
#include "io/progress.h"
#include "io/snapshot_request.h"

namespace splotch {

// The columns `wanted` asks for of the request's snapshot.
ColumnSnapshot load_columns(const SnapshotRequest& input, const ColumnWanted& wanted, const ProgressCallback& progress);

// Every type's count and columns without their values, from the headers, for the formats whose
// headers tell them (RAMSES, Enzo, Phantom, FITS, Bonsai); none for the others (a table must be read).
std::optional<ColumnSnapshot> column_outline(SnapshotFormat format, const std::string& path);

}  // namespace splotch
