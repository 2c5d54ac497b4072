// What a snapshot holds, read from the file itself, for --info (docs/design.md section 2): format,
// byte order, precision, header values, and per particle type the count and each field with its
// type and min/median/max. Each format knows its own layout, so each prints its own.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "io/progress.h"
#include "io/snapshot_request.h"

namespace splotch {

// Where the reads that --info makes report how far they got: a callback per read, and its end.
struct ReadProgress {
  std::function<ProgressCallback(const std::string& label)> start = [](const std::string&) {
    return ProgressCallback();
  };
  std::function<void()> end = [] {};
};

// Reads the snapshot `input` names and prints what it holds to `out`.
void print_snapshot_contents(const SnapshotRequest& input, const ReadProgress& progress, std::ostream& out);

}  // namespace splotch
