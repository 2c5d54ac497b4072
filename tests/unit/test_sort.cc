// The sort stage: draw keys for each sort_type, and the order they give.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "splotch/stages/sort.h"

using namespace splotch;

namespace {

Splats four_splats() {
  Splats s;
  s.x = {0, 1, 2, 3};
  s.y = {0, 0, 0, 0};
  s.depth = {-5, -20, -10, -20};
  s.radius = {1, 4, 2, 4};
  s.colour[0] = {0.5f, 0.1f, 0.9f, 0.1f};
  s.colour[1] = s.colour[2] = {0, 0, 0, 0};
  return s;
}

// The draw order the keys give: ascending key, ties in array order.
std::vector<int> draw_order(SortOrder o) {
  Splats s = four_splats();
  assign_draw_keys(s, o);
  CHECK(s.depth.empty());
  std::vector<int> order(4);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.draw_key[a] < s.draw_key[b]; });
  return order;
}

}  // namespace

TEST_CASE("order_bits: the order of floats, -0 equal to +0") {
  const float values[] = {-3e38f, -1.5f, -1e-30f, 0.0f, 1e-30f, 2.0f, 3e38f};
  for (int k = 0; k + 1 < 7; ++k) CHECK(order_bits(values[k]) < order_bits(values[k + 1]));
  CHECK(order_bits(-0.0f) == order_bits(0.0f));
}

TEST_CASE("assign_draw_keys: each sort_type") {
  CHECK(draw_order(SortOrder::none) == std::vector<int>{0, 1, 2, 3});
  CHECK(draw_order(SortOrder::depth) == std::vector<int>{1, 3, 2, 0});  // farthest first, ties in array order
  CHECK(draw_order(SortOrder::red_descending) == std::vector<int>{2, 0, 1, 3});
  CHECK(draw_order(SortOrder::red_ascending) == std::vector<int>{1, 3, 0, 2});
  CHECK(draw_order(SortOrder::radius_descending) == std::vector<int>{1, 3, 2, 0});
}
