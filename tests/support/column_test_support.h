// What the tests of the readers of snapshots held as columns (io/column_snapshot.h) share.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/column_snapshot.h"

namespace splotch::testing {

// The type's column that `label` names (a name or a Gadget label); the test stops where it has none.
inline const Column& column(const ColumnType& t, const std::string& label) {
  const std::vector<const Column*> c = t.find(label, 1);
  REQUIRE_MESSAGE(!c.empty(), "no column " << label);
  return *c[0];
}

}  // namespace splotch::testing
