// The units and ranges of the fields a browser may choose (issue 42: the page lists each type's
// fields with their units and ranges). A unit is the one a map of the field is in, where the file
// declares one (physical: the scale factor and h taken out; splotch/stages/map_units.h). A range is
// that of a type's colour or intensity values as read (LoadedSnapshot::raw, before log or asinh),
// once the snapshot the server shows holds them, in that unit; reading every field of the
// snapshot for its range would cost a read of the whole snapshot at the server's start.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "io/snapshot_units.h"
#include "splotch/load/snapshot_load.h"

namespace splotch {

// A field's physical unit and what one code unit of it is in that unit; "" and 1 where the file
// declares none.
struct FieldUnit {
  std::string name;
  double per_code = 1;
};
FieldUnit field_unit(const std::string& field, const SnapshotUnits& units);

// The finite values' [min, max] of render type `type`'s colour (component 0) or intensity as
// read; none where the type has no such particles or no values were kept.
std::optional<std::pair<double, double>> raw_range(const LoadedSnapshot& loaded, int type, bool colour);

}  // namespace splotch
