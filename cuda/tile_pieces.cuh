// Work for one thread block each: the entries of a list sorted by tile, cut at tile boundaries and
// into pieces of at most piece_splats entries (the dense tiles of a clustered snapshot would
// otherwise keep one block busy long after the others). Shared by the Btile (pieces of a tile add
// with atomics) and the compositing tiles (pieces of a tile compose maps in scratch slots, applied
// in order afterwards). CUDA code only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/cub_calls.cuh"
#include "cuda/cuda_check.h"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"

namespace splotch::cuda_detail {

constexpr std::uint32_t no_scratch = 0xffffffffu;  // (piece_splats: kernel_config.h)

// Entries [begin, end) of the sorted list, all of tile `tile`. A tile of several pieces numbers
// them with scratch slots (counted over such tiles only); a tile of one piece has no_scratch.
struct Piece {
  std::uint32_t tile, begin, end, scratch;
};

// start[t] = the first position of sorted keys with key >= t, for t = 0 .. tiles.
static __global__ void key_ranges_kernel(const std::uint32_t* __restrict__ key, std::uint32_t n, std::uint32_t tiles,
                                         std::uint32_t* __restrict__ start) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (key[mid] < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  start[t] = lo;
}

// Pieces per tile, and scratch slots per tile (its pieces, when it has more than one).
static __global__ void piece_count_kernel(const std::uint32_t* __restrict__ start, std::uint32_t tiles,
                                          std::uint32_t* __restrict__ pieces, std::uint32_t* __restrict__ slots) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::uint32_t n = t < tiles ? (start[t + 1] - start[t] + piece_splats - 1) / piece_splats : 0;
  pieces[t] = n;
  slots[t] = n > 1 ? n : 0;
}

// `first` and `first_slot`: exclusive prefix sums of the counts.
static __global__ void pieces_kernel(const std::uint32_t* __restrict__ start, const std::uint32_t* __restrict__ first,
                                     const std::uint32_t* __restrict__ first_slot, std::uint32_t tiles,
                                     Piece* __restrict__ pieces) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tiles) return;
  const bool split = first[t + 1] - first[t] > 1;
  for (std::uint32_t k = first[t], b = start[t], slot = first_slot[t]; k < first[t + 1]; ++k, b += piece_splats, ++slot)
    pieces[k] = {t, b, min(b + piece_splats, start[t + 1]), split ? slot : no_scratch};
}

class TilePieces {
 public:
  // Each tile with entries makes a piece, and every piece but a tile's last is full.
  static std::size_t most_pieces(std::size_t entries, std::uint32_t tiles) {
    return tiles + entries / piece_splats + 1;
  }
  // A split tile has more than piece_splats entries, so at most twice as many pieces as full ones.
  static std::size_t most_slots(std::size_t entries) { return 2 * (entries / piece_splats) + 1; }

  // For lists of up to `entries` entries over `tiles` tiles.
  static TilePieces lay_out(DeviceLayout& l, std::size_t entries, std::uint32_t tiles) {
    TilePieces t;
    t.tiles_ = tiles;
    for (std::uint32_t** a : {&t.start_, &t.piece_count_, &t.slot_count_, &t.piece_first_, &t.slot_first_})
      *a = l.take<std::uint32_t>(tiles + 1);
    t.pieces_ = l.take<Piece>(most_pieces(entries, tiles));
    t.scratch_ = take_cub_scratch(l, exclusive_sum_bytes<std::uint32_t>(tiles + 1));
    return t;
  }

  // Queues the pieces of n entries whose keys (tiles; keys of `tiles` or more belong to none)
  // are sorted.
  void make(const std::uint32_t* sorted_keys, std::uint32_t n, cudaStream_t stream) const {
    key_ranges_kernel<<<blocks_for(tiles_ + 1), small_block, 0, stream>>>(sorted_keys, n, tiles_, start_);
    CUDA_CHECK_LAUNCH();
    piece_count_kernel<<<blocks_for(tiles_ + 1), small_block, 0, stream>>>(start_, tiles_, piece_count_, slot_count_);
    CUDA_CHECK_LAUNCH();
    exclusive_sum<std::uint32_t>(scratch_, piece_count_, piece_first_, tiles_ + 1, stream);
    exclusive_sum<std::uint32_t>(scratch_, slot_count_, slot_first_, tiles_ + 1, stream);
    pieces_kernel<<<blocks_for(tiles_), small_block, 0, stream>>>(start_, piece_first_, slot_first_, tiles_, pieces_);
    CUDA_CHECK_LAUNCH();
  }

  const Piece* pieces() const { return pieces_; }
  // On the device: the number of pieces (a kernel launched for the most there can be reads it).
  const std::uint32_t* total() const { return piece_first_ + tiles_; }
  // On the device, per tile: its first piece and first scratch slot (tiles + 1 entries).
  const std::uint32_t* first_piece() const { return piece_first_; }
  const std::uint32_t* first_slot() const { return slot_first_; }

 private:
  std::uint32_t tiles_ = 0;
  std::uint32_t *start_ = nullptr, *piece_count_ = nullptr, *slot_count_ = nullptr, *piece_first_ = nullptr,
                *slot_first_ = nullptr;
  Piece* pieces_ = nullptr;
  CubScratch scratch_;
};

}  // namespace splotch::cuda_detail
