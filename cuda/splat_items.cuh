// Tools the per-chunk algorithms share: the chunk's draw order (a_eq_e = FALSE), and work items
// per splat laid end to end (a fragment per pixel, an entry per tile touched), walked in windows
// that fit the scratch memory. CUDA code only.
//
// Parts of an algorithm's scratch are small value types holding device pointers, made by a
// static lay_out(DeviceLayout&, size) from the algorithm's own lay_out (device_layout.h).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/chunk_renderer.h"
#include "cuda/cub_calls.cuh"
#include "cuda/cuda_check.h"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"

namespace splotch::cuda_detail {

inline std::uint32_t blocks_for(std::size_t n) { return std::uint32_t((n + small_block - 1) / small_block); }

// (static: each .cu file has its own copy, as nvcc compiles them apart)
static __global__ void iota_kernel(std::uint32_t n, std::uint32_t* __restrict__ out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

// The chunk's splats in draw order (ascending key, equal keys in chunk order, which the driver
// keeps in index order): order[j] is the index of the j-th. Without keys, chunk order; with an
// order given, that one. Arrays carved from the renderer's scratch (device_layout.h).
class DrawOrder {
 public:
  static DrawOrder lay_out(DeviceLayout& l, std::size_t chunk) {
    DrawOrder d;
    for (int k = 0; k < 2; ++k) {
      d.key_[k] = l.take<std::uint32_t>(chunk);
      d.order_[k] = l.take<std::uint32_t>(chunk);
    }
    d.scratch_ = take_cub_scratch(l, sort_pairs_bytes(chunk));
    return d;
  }

  const std::uint32_t* sort(const Chunk& c, cudaStream_t stream) const {
    if (c.order) return c.order;
    iota_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c.count, order_[0]);
    CUDA_CHECK_LAUNCH();
    if (!c.key) return order_[0];
    CUDA_CHECK(cudaMemcpyAsync(key_[0], c.key, c.count * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
    cub::DoubleBuffer<std::uint32_t> keys(key_[0], key_[1]), order(order_[0], order_[1]);
    sort_pairs(scratch_, keys, order, c.count, 32, stream);  // stable: equal keys keep the chunk order
    return order.Current();
  }

 private:
  std::uint32_t *key_[2] = {}, *order_[2] = {};
  CubScratch scratch_;
};

// Items per splat laid end to end: end[j] = items of splats 0..j (inclusive prefix sum), so that
// item g belongs to the first j with end[j] > g. 64-bit: a chunk can make more than 2^32 fragments.
class ItemScan {
 public:
  static ItemScan lay_out(DeviceLayout& l, std::size_t chunk) {
    ItemScan s;
    s.count_ = l.take<std::uint64_t>(chunk);
    s.end_ = l.take<std::uint64_t>(chunk);
    s.scratch_ = take_cub_scratch(l, inclusive_sum_bytes<std::uint64_t>(chunk));
    return s;
  }

  std::uint64_t* counts() const { return count_; }
  const std::uint64_t* ends() const { return end_; }

  // After the counts of n > 0 splats are queued on `stream`: the prefix sum, and the total (this
  // waits for the stream).
  std::uint64_t scan(std::uint32_t n, cudaStream_t stream) const {
    inclusive_sum<std::uint64_t>(scratch_, count_, end_, n, stream);
    std::uint64_t total = 0;
    CUDA_CHECK(cudaMemcpyAsync(&total, end_ + n - 1, sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return total;
  }

 private:
  std::uint64_t *count_ = nullptr, *end_ = nullptr;
  CubScratch scratch_;
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
