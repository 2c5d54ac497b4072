// How much memory this process could still take: the kernel's MemAvailable, and less when the
// process runs in a cgroup with a limit (a batch job's allocation on a shared node) or under an
// address-space limit (ulimit -v).
#pragma once

#include <cstddef>

namespace splotch {

// Bytes; 0 when unknown.
std::size_t available_memory_bytes();

}  // namespace splotch
