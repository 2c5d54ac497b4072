// Byte swapping for files written on machines of the other endianness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace splotch {

inline void swap_bytes_4(void* data, std::size_t count) {
  auto* words = static_cast<std::uint32_t*>(data);
  for (std::size_t i = 0; i < count; ++i) words[i] = __builtin_bswap32(words[i]);
}

inline void swap_bytes_8(void* data, std::size_t count) {
  auto* words = static_cast<std::uint64_t*>(data);
  for (std::size_t i = 0; i < count; ++i) words[i] = __builtin_bswap64(words[i]);
}

// A value of type T (4 or 8 bytes) at `bytes`, swapped when `swap`.
template <class T>
T load(const void* bytes, bool swap) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  if (swap) {
    if constexpr (sizeof(T) == 4) swap_bytes_4(&v, 1);
    else swap_bytes_8(&v, 1);
  }
  return v;
}

}  // namespace splotch
