// The particles a render will read, from the headers alone, before reading: what choosing the
// renderer (splotch/render/renderer_cost.h) and checking the memory (splotch/frame/memory_need.h) start from.
#pragma once

#include <cstdint>
#include <optional>

#include "io/snapshot_request.h"

namespace splotch {

// Of this process's share (an MPI run's part of the snapshot: the total shared out evenly), of
// the render types asked for. Unset where the count is not known without reading: a table file
// (simtype 7), whose rows may be selected by snapshot ID, or a header that cannot be read (the
// read then says why).
std::optional<std::uint64_t> particles_to_read(const SnapshotRequest& input);

}  // namespace splotch
