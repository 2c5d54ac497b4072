// a_eq_e = FALSE over several MPI processes (docs/design.md section 6). Compositing depends on the
// order in which splats are drawn, and a process's share of the snapshot holds splats from the
// whole of that order. So the splats are passed between the processes until each holds one
// contiguous range of the draw order, rank 0 the range drawn first, in the order one process
// would draw them. Each process then draws its range over black, keeping the colour C and the
// transmittance T = exp(-sum w e) of its splats; compositing the layers in process order
// (Comm::composite_to_root) gives the single process's picture, since each splat's step
// P <- P exp(-w e) + q (1 - exp(-w e)) is affine in P and so is a range of them: P <- T P + C.
//
// The single process's order: ascending draw key, equal keys in file order (render type after
// render type, each over all files; the order of the processes' shares). Draw keys
// (splotch/stages/sort.h) are split between processes at key boundaries, so equal keys stay together;
// sort_type 0 (file order) is split by position in that order. The boundaries come from
// histograms of the keys of all processes, 11 bits at a time, so the ranges hold about equal
// numbers of splats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "splotch/mpi/comm.h"
#include "splotch/stages/sort.h"
#include "splotch/stages/splats.h"

namespace splotch {

// The active splats of each render type, before the colour stage releases the type array (the
// splats are in type order then).
std::vector<std::size_t> splats_per_type(const Splats& splats, int types);

// `splats`, coloured and (unless SortOrder::none) keyed, of `per_type` splats of each type, become
// this process's range of the draw order of all processes' splats, with draw keys in that order
// (SortOrder::none: their position in it). The depth and type arrays are not kept.
// Returns how long its parts took, seconds: the ranges (the keys' histograms over all processes),
// packing the records, passing them between the processes, and unpacking them in order.
struct SplitTimes {
  double ranges = 0, packing = 0, passing = 0, unpacking = 0;
};
SplitTimes split_draw_order(Splats& splats, const std::vector<std::size_t>& per_type, SortOrder order,
                            const Comm& comm);

// The first key of each process's range after the first (size - 1 of them, ascending): process p
// draws the keys from splitter p - 1 up to splitter p. `keys` are this process's.
std::vector<std::uint32_t> key_splitters(const std::uint32_t* keys, std::size_t n, const Comm& comm);

// This process's keys counted in one step of the search: for each of `prefixes` (sorted, distinct:
// the keys' bits from `above` up; above = 32: one prefix, 0, that every key has), how many of its
// keys with that prefix have each digit (key >> shift) & 2047: prefixes.size() x 2048 counts.
using KeyCounts =
    std::function<std::vector<std::uint64_t>(int above, int shift, const std::vector<std::uint32_t>& prefixes)>;
// Counts `n` keys of this process as KeyCounts says, over its threads.
std::vector<std::uint64_t> count_keys(const std::uint32_t* keys, std::size_t n, int above, int shift,
                                      const std::vector<std::uint32_t>& prefixes);
// The same for keys that `count` counts where they lie (on a GPU: splotch/frame/gpu_split.h).
std::vector<std::uint32_t> key_splitters(const KeyCounts& count, const Comm& comm);

}  // namespace splotch
