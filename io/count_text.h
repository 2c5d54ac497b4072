// "1 file", "4 files": a count with its noun, for messages.
#pragma once

#include <cstdint>
#include <string>

namespace splotch {

inline std::string plural(std::uint64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace splotch
