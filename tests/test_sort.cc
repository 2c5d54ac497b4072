// The sort stage: stable orders by each sort_type, checked against std::stable_sort.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "splotch/sort.h"

using namespace splotch;

TEST_CASE("stable_order: equals std::stable_sort, ties in input order, negative keys") {
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> pick(-50, 50);
  std::vector<float> keys(100000);
  for (float& k : keys) k = 0.25f * float(pick(rng));  // many ties
  keys[7] = -0.0f;
  keys[8] = 0.0f;
  std::vector<std::uint32_t> expected(keys.size());
  std::iota(expected.begin(), expected.end(), 0u);
  std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  CHECK(stable_order(keys) == expected);
  CHECK(stable_order({}).empty());
}

TEST_CASE("sort_splats: each sort_type") {
  auto make = [] {
    Splats s;
    s.x = {0, 1, 2, 3};
    s.y = {0, 0, 0, 0};
    s.depth = {-5, -20, -10, -20};
    s.radius = {1, 4, 2, 4};
    s.colour[0] = {0.5f, 0.1f, 0.9f, 0.1f};
    s.colour[1] = s.colour[2] = {0, 0, 0, 0};
    return s;
  };
  auto order_of = [&](SortOrder o) {
    Splats s = make();
    sort_splats(s, o);
    CHECK(s.depth.empty());
    return s.x;
  };
  CHECK(order_of(SortOrder::none) == std::vector<float>{0, 1, 2, 3});
  CHECK(order_of(SortOrder::depth) == std::vector<float>{1, 3, 2, 0});  // farthest first, ties in file order
  CHECK(order_of(SortOrder::red_descending) == std::vector<float>{2, 0, 1, 3});
  CHECK(order_of(SortOrder::red_ascending) == std::vector<float>{1, 3, 0, 2});
  CHECK(order_of(SortOrder::radius_descending) == std::vector<float>{1, 3, 2, 0});
  Splats s = make();
  sort_splats(s, SortOrder::depth);
  CHECK(s.radius == std::vector<float>{4, 4, 2, 1});  // every array moves with the order
  CHECK(s.colour[0] == std::vector<float>{0.1f, 0.1f, 0.9f, 0.5f});
}
