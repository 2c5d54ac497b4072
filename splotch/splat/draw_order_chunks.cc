#include "splotch/splat/draw_order_chunks.h"

#include <algorithm>
#include <stdexcept>

#include "splotch/util/bucket_sort.h"

namespace splotch {
namespace {

constexpr int bucket_bits = 16;
constexpr std::size_t buckets = std::size_t(1) << bucket_bits;

std::uint32_t high(std::uint32_t key) { return key >> bucket_bits; }
std::uint32_t low(std::uint32_t key) { return key & (buckets - 1); }

// Stable counting sort of order[lo, hi) by the low bits of the keys.
void order_by_low_bits(const std::uint32_t* key, std::uint32_t* order, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> next(buckets + 1, 0);
  for (std::size_t k = lo; k < hi; ++k) ++next[low(key[order[k]]) + 1];
  for (std::size_t b = 1; b <= buckets; ++b) next[b] += next[b - 1];
  std::vector<std::uint32_t> sorted(hi - lo);
  for (std::size_t k = lo; k < hi; ++k) sorted[next[low(key[order[k]])]++] = order[k];
  std::copy(sorted.begin(), sorted.end(), order + lo);
}

}  // namespace

DrawOrderChunks chunks_in_draw_order(const std::uint32_t* key, std::size_t n, std::size_t chunk) {
  if (chunk == 0) throw std::invalid_argument("chunks_in_draw_order: chunk must be positive");
  DrawOrderChunks c;
  c.start.push_back(0);
  if (!key || n <= chunk) {
    for (std::size_t at = std::min(chunk, n); at < n; at += chunk) c.start.push_back(at);
    if (n > 0) c.start.push_back(n);
    return c;
  }
  const std::vector<std::size_t> bucket_start = bucket_sort(
      n, int(buckets), [&](std::size_t i, auto visit) { visit(int(high(key[i]))); },
      [&](std::size_t total) { c.order.resize(total); },
      [&](std::size_t i, std::size_t position) { c.order[position] = std::uint32_t(i); });
  // A bucket larger than a chunk is put in full draw order, so that a cut may fall inside it.
  std::vector<bool> ordered(buckets, false);
  for (std::size_t b = 0; b < buckets; ++b)
    if (bucket_start[b + 1] - bucket_start[b] > chunk) {
      order_by_low_bits(key, c.order.data(), bucket_start[b], bucket_start[b + 1]);
      ordered[b] = true;
    }
  // Greedy cuts: as far as the chunk allows, moved back to the start of an unordered bucket that
  // the cut would split (which lies after the previous cut: a bucket that starts at or before it
  // and reaches past a whole chunk is larger than a chunk, so ordered).
  for (std::size_t at = 0; at < n;) {
    std::size_t end = std::min(at + chunk, n);
    if (end < n) {
      const std::uint32_t b = high(key[c.order[end]]);
      if (high(key[c.order[end - 1]]) == b && !ordered[b]) end = bucket_start[b];
    }
    c.start.push_back(end);
    at = end;
  }
  return c;
}

}  // namespace splotch
