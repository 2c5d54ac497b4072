#include "splotch/sort.h"

#include <cstring>

#include "params/user_error.h"

namespace splotch {
namespace {

// Maps a float to an unsigned integer of the same order (negative values reversed), so that a
// radix sort on the bits sorts the numbers.
inline std::uint32_t order_bits(float v) {
  v += 0.0f;  // -0 becomes +0: the two are equal keys and must keep their file order
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

struct KeyIndex {
  std::uint32_t key, index;
};

// One stable counting pass on the byte at `shift`.
void radix_pass(const std::vector<KeyIndex>& in, std::vector<KeyIndex>& out, int shift) {
  std::size_t count[257] = {0};
  for (const KeyIndex& e : in) ++count[((e.key >> shift) & 0xffu) + 1];
  for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
  for (const KeyIndex& e : in) out[count[(e.key >> shift) & 0xffu]++] = e;
}

template <class T>
void permute(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
  if (v.empty()) return;
  std::vector<T> out(v.size());
  const std::size_t n = v.size();
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < n; ++k) out[k] = v[order[k]];
  v.swap(out);
}

// Sorts (key, index) pairs by key, stably, and returns the indices.
std::vector<std::uint32_t> sorted_indices(std::vector<KeyIndex> a) {
  const std::size_t n = a.size();
  {
    std::vector<KeyIndex> b(n);
    for (int shift = 0; shift < 32; shift += 8) {
      radix_pass(a, b, shift);
      a.swap(b);
    }
  }
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = a[i].index;
  return order;
}

template <class Key>
std::vector<KeyIndex> keyed(std::size_t n, Key key) {
  std::vector<KeyIndex> a(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = {order_bits(key(i)), std::uint32_t(i)};
  return a;
}

}  // namespace

std::vector<std::uint32_t> stable_order(const std::vector<float>& keys) {
  return sorted_indices(keyed(keys.size(), [&](std::size_t i) { return keys[i]; }));
}

namespace {

std::vector<KeyIndex> sort_keys(const Splats& s, SortOrder order) {
  const std::size_t n = s.size();
  if (n > 0xffffffffu) throw UserError("more than 2^32 particles in one process: use MPI to split them");
  switch (order) {
    case SortOrder::none:
      return keyed(n, [](std::size_t) { return 0.0f; });
    case SortOrder::depth:
      return keyed(n, [&](std::size_t i) { return s.depth[i]; });
    case SortOrder::red_descending:
      return keyed(n, [&](std::size_t i) { return -s.colour[0][i]; });
    case SortOrder::red_ascending:
      return keyed(n, [&](std::size_t i) { return s.colour[0][i]; });
    case SortOrder::radius_descending:
      return keyed(n, [&](std::size_t i) { return -s.radius[i]; });
  }
  return {};
}

}  // namespace

std::vector<std::uint32_t> sort_permutation(const Splats& s, SortOrder order) {
  return sorted_indices(sort_keys(s, order));
}

void sort_splats(Splats& s, SortOrder order) {
  if (order != SortOrder::none) {
    std::vector<KeyIndex> keys = sort_keys(s, order);
    std::vector<float>().swap(s.depth);  // before the sort's buffers: the peak of memory is here
    const std::vector<std::uint32_t> perm = sorted_indices(std::move(keys));
    for (auto* v : {&s.x, &s.y, &s.radius, &s.colour[0], &s.colour[1], &s.colour[2], &s.intensity}) permute(*v, perm);
    permute(s.type, perm);
  }
  std::vector<float>().swap(s.depth);
}

}  // namespace splotch
