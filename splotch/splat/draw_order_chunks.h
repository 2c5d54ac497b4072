// Cutting the splats into chunks for a renderer that composites chunk after chunk (the GPU with
// a_eq_e = FALSE): every splat of a chunk must come before every splat of the next one in draw
// order (ascending key, equal keys in index order), or a pixel would see two splats the wrong way
// round. A full sort of the keys would do, but only the cuts matter: one stable counting pass on
// the top 16 bits of the key puts the splats in key-range buckets, cuts fall between buckets, and
// only a bucket larger than a chunk is ordered by its low 16 bits too (then it may be cut
// anywhere: its splats are in draw order). Within a chunk the splats stay in bucket order; the
// GPU sorts each chunk by key itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace splotch {

struct DrawOrderChunks {
  // Splat indices, chunk after chunk; empty means the identity (no reordering was needed).
  std::vector<std::uint32_t> order;
  // Chunk c is positions [start[c], start[c + 1]) of `order`; start.back() == n.
  std::vector<std::size_t> start;
  std::size_t chunks() const { return start.size() - 1; }
  std::uint32_t splat(std::size_t position) const { return order.empty() ? std::uint32_t(position) : order[position]; }
};

// Chunks of at most `chunk` (> 0) splats. With no keys (null), or when one chunk holds all
// splats, the order is the identity and the chunks are consecutive index ranges.
DrawOrderChunks chunks_in_draw_order(const std::uint32_t* key, std::size_t n, std::size_t chunk);

}  // namespace splotch
