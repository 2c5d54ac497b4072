// Byte swapping for files written on machines of the other endianness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace splotch {

// In place, word by word through memcpy, so that the words may be floats or doubles without
// breaking the aliasing rules (the compiler turns the copies into plain loads and stores).
inline void swap_bytes_4(void* data, std::size_t count) {
  auto* b = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < count; ++i, b += 4) {
    std::uint32_t w;
    std::memcpy(&w, b, 4);
    w = __builtin_bswap32(w);
    std::memcpy(b, &w, 4);
  }
}

inline void swap_bytes_8(void* data, std::size_t count) {
  auto* b = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < count; ++i, b += 8) {
    std::uint64_t w;
    std::memcpy(&w, b, 8);
    w = __builtin_bswap64(w);
    std::memcpy(b, &w, 8);
  }
}

// A value of type T (4 or 8 bytes) at `bytes`, swapped when `swap`.
template <class T>
T load(const void* bytes, bool swap) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  Bits bits;
  std::memcpy(&bits, bytes, sizeof bits);
  if (swap) {
    if constexpr (sizeof(T) == 4) bits = __builtin_bswap32(bits);
    else bits = __builtin_bswap64(bits);
  }
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace splotch
