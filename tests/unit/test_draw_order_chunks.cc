// Chunks for compositing chunk after chunk: each chunk wholly before the next in draw order.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "splotch/splat/draw_order_chunks.h"

namespace splotch {
namespace {

// Checks sizes, that the chunks hold every splat once, and that every splat of a chunk precedes
// (key, then index) every splat of the next.
void check_chunks(const std::vector<std::uint32_t>& key, std::size_t chunk, const DrawOrderChunks& c) {
  const std::size_t n = key.size();
  REQUIRE(c.start.front() == 0);
  REQUIRE(c.start.back() == n);
  std::vector<int> seen(n, 0);
  std::pair<std::uint32_t, std::uint32_t> previous_last{0, 0};
  for (std::size_t k = 0; k < c.chunks(); ++k) {
    CAPTURE(k);
    REQUIRE(c.start[k] < c.start[k + 1]);
    CHECK(c.start[k + 1] - c.start[k] <= chunk);
    std::pair<std::uint32_t, std::uint32_t> first{UINT32_MAX, UINT32_MAX}, last{0, 0};
    for (std::size_t p = c.start[k]; p < c.start[k + 1]; ++p) {
      const std::uint32_t i = c.splat(p);
      REQUIRE(i < n);
      ++seen[i];
      first = std::min(first, {key[i], i});
      last = std::max(last, {key[i], i});
    }
    if (k > 0) CHECK(previous_last < first);
    previous_last = last;
  }
  CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(n));
}

}  // namespace

TEST_CASE("draw-order chunks: random keys, keys crowded in one bucket, equal keys") {
  std::mt19937 rng(5);
  const std::size_t n = 50000;
  std::vector<std::uint32_t> key(n);
  SUBCASE("random keys") {
    for (auto& k : key) k = std::uint32_t(rng());
    const DrawOrderChunks c = chunks_in_draw_order(key.data(), n, 4000);
    check_chunks(key, 4000, c);
    CHECK(c.chunks() >= 13);
  }
  SUBCASE("most keys in one top-16-bit bucket, with many repeats") {
    for (auto& k : key) k = rng() % 3 ? 0x41230000u + std::uint32_t(rng() % 5000) : std::uint32_t(rng());
    check_chunks(key, 1000, chunks_in_draw_order(key.data(), n, 1000));
  }
  SUBCASE("all keys equal: index order, cut anywhere") {
    std::fill(key.begin(), key.end(), 0xBF800000u);
    const DrawOrderChunks c = chunks_in_draw_order(key.data(), n, 777);
    check_chunks(key, 777, c);
    CHECK(c.chunks() == (n + 776) / 777);
  }
  SUBCASE("buckets just above and below the chunk size") {
    for (std::size_t i = 0; i < n; ++i) key[i] = std::uint32_t((i % 41) << 16 | (n - i) % 7);
    check_chunks(key, 1220, chunks_in_draw_order(key.data(), n, 1220));  // buckets of 1219 and 1220
    check_chunks(key, 1218, chunks_in_draw_order(key.data(), n, 1218));
  }
}

TEST_CASE("draw-order chunks: no keys, or one chunk for all, keep the index order") {
  std::vector<std::uint32_t> key = {9, 3, 7};
  const DrawOrderChunks one = chunks_in_draw_order(key.data(), 3, 10);
  CHECK(one.order.empty());
  CHECK(one.start == std::vector<std::size_t>{0, 3});
  const DrawOrderChunks none = chunks_in_draw_order(nullptr, 10, 4);
  CHECK(none.order.empty());
  CHECK(none.start == std::vector<std::size_t>{0, 4, 8, 10});
  CHECK(chunks_in_draw_order(nullptr, 0, 4).chunks() == 0);
  CHECK_THROWS_AS(chunks_in_draw_order(key.data(), 3, 0), std::invalid_argument);
}

}  // namespace splotch
