// Tools the per-chunk algorithms share: the chunk's draw order (a_eq_e = FALSE), and work items
// per splat laid end to end (a fragment per pixel, an entry per tile touched), walked in windows
// that fit the scratch memory. CUDA code only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/chunk_renderer.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"

namespace splotch::cuda_detail {

constexpr int small_block = 256;  // threads of the simple kernels
inline std::uint32_t blocks_for(std::size_t n) { return std::uint32_t((n + small_block - 1) / small_block); }

// (static: each .cu file has its own copy, as nvcc compiles them apart)
static __global__ void iota_kernel(std::uint32_t n, std::uint32_t* __restrict__ out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

// The chunk's splats in draw order (ascending key, equal keys in chunk order, which the driver
// keeps in index order): order[j] is the index of the j-th. Without keys, chunk order; with an
// order given, that one.
class DrawOrder {
 public:
  bool allocate(std::size_t chunk) {
    cub::DoubleBuffer<std::uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    sort_bytes_ = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes_, k, v, int(chunk)));
    return key_[0].try_allocate(chunk) && key_[1].try_allocate(chunk) && order_[0].try_allocate(chunk) &&
           order_[1].try_allocate(chunk) && space_.try_allocate(std::max<std::size_t>(sort_bytes_, 1));
  }
  static constexpr std::size_t bytes_per_splat = 4 * sizeof(std::uint32_t);

  const std::uint32_t* sort(const Chunk& c, cudaStream_t stream) {
    if (c.order) return c.order;
    iota_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c.count, order_[0].get());
    CUDA_CHECK(cudaGetLastError());
    if (!c.key) return order_[0].get();
    CUDA_CHECK(
        cudaMemcpyAsync(key_[0].get(), c.key, c.count * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
    cub::DoubleBuffer<std::uint32_t> keys(key_[0].get(), key_[1].get()), order(order_[0].get(), order_[1].get());
    std::size_t bytes = sort_bytes_;
    // LSD radix sort: stable, so equal keys keep the chunk order.
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(space_.get(), bytes, keys, order, int(c.count), 0, 32, stream));
    return order.Current();
  }

 private:
  DeviceBuffer<std::uint32_t> key_[2], order_[2];
  DeviceBuffer<unsigned char> space_;
  std::size_t sort_bytes_ = 0;
};

// Items per splat laid end to end: end[j] = items of splats 0..j (inclusive prefix sum), so that
// item g belongs to the first j with end[j] > g. 64-bit: a chunk can make more than 2^32 fragments.
class ItemScan {
 public:
  bool allocate(std::size_t chunk) {
    scan_bytes_ = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes_, static_cast<std::uint64_t*>(nullptr),
                                             static_cast<std::uint64_t*>(nullptr), int(chunk)));
    total_.allocate(1);
    return count_.try_allocate(chunk) && end_.try_allocate(chunk) &&
           space_.try_allocate(std::max<std::size_t>(scan_bytes_, 1));
  }
  static constexpr std::size_t bytes_per_splat = 2 * sizeof(std::uint64_t);

  std::uint64_t* counts() { return count_.get(); }
  const std::uint64_t* ends() const { return end_.get(); }

  // After the counts of n > 0 splats are queued on `stream`: the prefix sum, and the total (this
  // waits for the stream).
  std::uint64_t scan(std::uint32_t n, cudaStream_t stream) {
    std::size_t bytes = scan_bytes_;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(space_.get(), bytes, count_.get(), end_.get(), int(n), stream));
    CUDA_CHECK(
        cudaMemcpyAsync(total_.get(), end_.get() + n - 1, sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return *total_.get();
  }

 private:
  DeviceBuffer<std::uint64_t> count_, end_;
  DeviceBuffer<unsigned char> space_;
  PinnedBuffer<std::uint64_t> total_;
  std::size_t scan_bytes_ = 0;
};

// The splat of item g: the first j < n with end[j] > g.
__device__ inline std::uint32_t owner_of(const std::uint64_t* __restrict__ end, std::uint32_t n, std::uint64_t g) {
  std::uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (end[mid] > g)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// The j-th splat of a chunk in draw order, set up; false when the GPU does not draw it.
__device__ inline bool drawn_splat(const Chunk& c, const std::uint32_t* __restrict__ order, std::uint32_t j,
                                   const RenderGrid& g, SplatShape& s) {
  const std::uint32_t p = order[j];
  const float r = c.radius[p];
  s = shape_of(c.x[p], c.y[p], r, g);
  return drawn_on_gpu(s, r, g);
}

// Bits of a radix sort key that can hold values up to `largest`.
inline int bits_for(std::uint32_t largest) { return largest == 0 ? 1 : 32 - __builtin_clz(largest); }

}  // namespace splotch::cuda_detail
