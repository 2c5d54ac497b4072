// Byte swapping for files written on machines of the other endianness.
#pragma once

#include <cstddef>
#include <cstdint>

namespace splotch {

inline void swap_bytes_4(void* data, std::size_t count) {
  auto* words = static_cast<std::uint32_t*>(data);
  for (std::size_t i = 0; i < count; ++i) words[i] = __builtin_bswap32(words[i]);
}

}  // namespace splotch
