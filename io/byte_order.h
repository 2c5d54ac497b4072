// Byte swapping for files written on machines of the other endianness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace splotch {

constexpr bool host_is_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

inline std::uint32_t byte_swapped(std::uint32_t w) { return __builtin_bswap32(w); }
inline std::uint64_t byte_swapped(std::uint64_t w) { return __builtin_bswap64(w); }

// `count` words of type Word swapped in place, through memcpy, so that the words may be floats or
// doubles without breaking the aliasing rules (the compiler turns the copies into plain loads and
// stores).
template <class Word>
void swap_words(void* data, std::size_t count) {
  auto* b = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < count; ++i, b += sizeof(Word)) {
    Word w;
    std::memcpy(&w, b, sizeof w);
    w = byte_swapped(w);
    std::memcpy(b, &w, sizeof w);
  }
}

inline void swap_bytes_4(void* data, std::size_t count) { swap_words<std::uint32_t>(data, count); }

// A value of type T (4 or 8 bytes) at `bytes`, swapped when `swap`.
template <class T>
T load(const void* bytes, bool swap) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  Bits bits;
  std::memcpy(&bits, bytes, sizeof bits);
  if (swap) bits = byte_swapped(bits);
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace splotch
