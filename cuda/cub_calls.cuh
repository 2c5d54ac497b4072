// The CUB device-wide algorithms the renderers use. CUB takes its scratch from the caller and
// says how much when called without it; here each call is written once in both forms: the bytes
// it needs for n items (to lay out, device_layout.h) and the call itself, queued on a stream with
// that scratch. CUDA code only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/cuda_check.h"
#include "cuda/device_layout.h"

namespace splotch::cuda_detail {

// Device memory for CUB calls: where, and how many bytes.
struct CubScratch {
  void* space = nullptr;
  std::size_t bytes = 0;
};

// Room for the largest of the CUB calls needing `bytes` each (they run one after another on one
// stream, so they can share it).
template <class... Bytes>
CubScratch take_cub_scratch(DeviceLayout& layout, Bytes... bytes) {
  const std::size_t most = std::max({std::size_t(1), std::size_t(bytes)...});
  return {layout.take<unsigned char>(most), most};
}

// A stable LSD radix sort of 32-bit (key, value) pairs on the key's low `key_bits` bits: equal
// keys keep their order. The sorted pairs are keys.Current(), values.Current().
inline std::size_t sort_pairs_bytes(std::size_t n, int key_bits = 32) {
  cub::DoubleBuffer<std::uint32_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, int(n), 0, key_bits));
  return bytes;
}
inline void sort_pairs(CubScratch scratch, cub::DoubleBuffer<std::uint32_t>& keys,
                       cub::DoubleBuffer<std::uint32_t>& values, std::uint32_t n, int key_bits, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.space, scratch.bytes, keys, values, int(n), 0, key_bits, stream));
  CUDA_CHECK_LAUNCH();
}

// out[j] = in[0] + ... + in[j].
template <class T>
std::size_t inclusive_sum_bytes(std::size_t n) {
  std::size_t bytes = 0;
  CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), int(n)));
  return bytes;
}
template <class T>
void inclusive_sum(CubScratch scratch, const T* in, T* out, std::uint32_t n, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.space, scratch.bytes, in, out, int(n), stream));
  CUDA_CHECK_LAUNCH();
}

// out[j] = in[0] + ... + in[j - 1], out[0] = 0.
template <class T>
std::size_t exclusive_sum_bytes(std::size_t n) {
  std::size_t bytes = 0;
  CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), int(n)));
  return bytes;
}
template <class T>
void exclusive_sum(CubScratch scratch, const T* in, T* out, std::uint32_t n, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.space, scratch.bytes, in, out, int(n), stream));
  CUDA_CHECK_LAUNCH();
}

}  // namespace splotch::cuda_detail
