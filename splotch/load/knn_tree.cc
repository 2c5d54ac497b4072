// Builds the tree of knn_tree.h.
//
// Order: each particle gets a 63-bit Morton key (its cell in a 2^21-per-axis grid over the
// particles' bounding cube or the periodic box, the bits of x, y and z interleaved), and a
// stable parallel radix sort puts the particles in key order. Positions are then copied in that
// order into three plain float arrays: neighbours in space are neighbours in memory.
//
// Tree: the highest bit in which a node's first and last keys differ splits it. Particles that
// share one key (closer together than a 2^21-th of the cube) are split at their median instead.
// The top of the tree is built in one thread, the subtrees below it in parallel.
//
// Memory, beyond the caller's arrays: 24 bytes a particle while sorting (keys and order, twice),
// about 38 while building the tree (keys, positions, order, and the nodes twice over while the
// subtrees are put together): under 4 GB at 10^8 particles, more than the search needs after.
#include "splotch/load/knn_tree.h"

#include <omp.h>

#include <algorithm>

#include "splotch/util/bucket_sort.h"

namespace splotch::knn {
namespace {

constexpr int key_bits_per_axis = 21;  // 3 x 21 = 63 bits of a 64-bit key
// Radix sort digits: 6 passes over 63 bits; 2^11 counters per thread stay in the L1 cache.
constexpr int radix_bits = 11;
// Subtrees smaller than this share of the particles (per thread) are built in parallel.
constexpr std::size_t subtrees_per_thread = 64;

// ---------------------------------------------------------------------------------------------
// Morton keys and the order they give.

// The cube the Morton grid covers: the periodic box, or the particles' bounding box made cubic
// (cubic cells keep the tree's boxes from turning into slabs).
struct Grid {
  float origin[3];
  float cells_per_unit;

  std::uint64_t cell(float v, int a) const {
    const float c = (v - origin[a]) * cells_per_unit;
    const float last = float((1u << key_bits_per_axis) - 1);
    return std::uint64_t(c > 0 ? std::min(c, last) : 0.0f);
  }
};

Grid grid_over(const Positions& p, std::size_t n) {
  Grid g{{0, 0, 0}, 0};
  float extent = float(p.side);
  if (p.side == 0) {
    float lo[3] = {infinity, infinity, infinity}, hi[3] = {-infinity, -infinity, -infinity};
#pragma omp parallel for if (n >= min_parallel) schedule(static) reduction(min : lo[:3]) reduction(max : hi[:3])
    for (std::size_t i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], p.axis[a][i]);
        hi[a] = std::max(hi[a], p.axis[a][i]);
      }
    extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    for (int a = 0; a < 3; ++a) g.origin[a] = lo[a];
  }
  g.cells_per_unit = extent > 0 ? float(1u << key_bits_per_axis) / extent : 0.0f;
  return g;
}

// The 21 low bits of v spread out to every third bit.
std::uint64_t spread_bits(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x001f00000000ffffull;
  v = (v | v << 16) & 0x001f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

ParticleArray<std::uint64_t> morton_keys(const Positions& p, std::size_t n, const Grid& g) {
  ParticleArray<std::uint64_t> keys;
  keys.resize(n);
#pragma omp parallel for if (n >= min_parallel) schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = spread_bits(g.cell(p.at(0, i), 0)) << 2 | spread_bits(g.cell(p.at(1, i), 1)) << 1 |
              spread_bits(g.cell(p.at(2, i), 2));
  return keys;
}

// Sorts keys and returns the order: order[t] is the particle with the t-th smallest key (equal
// keys in particle order). In parallel, a radix sort, least significant digit first.
ParticleArray<std::uint32_t> sort_by_key(ParticleArray<std::uint64_t>& keys) {
  const std::size_t n = keys.size();
  ParticleArray<std::uint32_t> order, order_out;
  ParticleArray<std::uint64_t> keys_out;
  order.resize(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  if (n < min_parallel) {
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    keys_out.resize(n);
    for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]];
    keys.swap(keys_out);
    return order;
  }
  order_out.resize(n);
  keys_out.resize(n);
  constexpr std::uint64_t digit_mask = (1u << radix_bits) - 1;
  for (int shift = 0; shift < 3 * key_bits_per_axis; shift += radix_bits) {
    bucket_sort(
        n, 1 << radix_bits, [&](std::size_t i, auto visit) { visit(int(keys[i] >> shift & digit_mask)); },
        [](std::size_t) {},
        [&](std::size_t i, std::size_t to) {
          keys_out[to] = keys[i];
          order_out[to] = order[i];
        });
    keys.swap(keys_out);
    order.swap(order_out);
  }
  return order;
}

// ---------------------------------------------------------------------------------------------
// The tree.

Box bounds(const Tree& t, std::uint32_t b, std::uint32_t e) {
  Box box;
  for (int a = 0; a < 3; ++a) {
    const float* v = t.pos[a].data();
    box.lo[a] = *std::min_element(v + b, v + e);
    box.hi[a] = *std::max_element(v + b, v + e);
  }
  return box;
}

// Builds the structure of the tree (ranges and children; the boxes come afterwards).
class TreeBuilder {
 public:
  TreeBuilder(Tree& t, const std::uint64_t* keys) : t_(t), keys_(keys) {}

  // The subtree of positions [b, e) with its root at nodes[at]; its other nodes are appended.
  // Subtrees of at most `defer` particles are not built but listed in `deferred` (root first,
  // then range), for building in parallel.
  void grow(std::vector<Node>& nodes, std::size_t at, std::uint32_t b, std::uint32_t e, std::uint32_t defer = 0,
            std::vector<std::uint32_t>* deferred = nullptr) {
    nodes[at].begin = b;
    nodes[at].end = e;
    nodes[at].child = 0;
    if (e - b <= max_leaf_size) return;
    if (deferred && e - b <= defer) {
      deferred->insert(deferred->end(), {std::uint32_t(at), b, e});
      return;
    }
    const std::uint32_t middle = split(b, e);
    const std::size_t child = nodes.size();
    nodes.resize(child + 2);
    nodes[at].child = std::uint32_t(child);
    grow(nodes, child, b, middle, defer, deferred);
    grow(nodes, child + 1, middle, e, defer, deferred);
  }

 private:
  // Where the octree cell [b, e) splits: at the highest bit in which its keys differ.
  std::uint32_t split(std::uint32_t b, std::uint32_t e) {
    const std::uint64_t differ = keys_[b] ^ keys_[e - 1];
    if (differ == 0) return split_at_median(b, e);
    const std::uint64_t bit = std::uint64_t(1) << (63 - __builtin_clzll(differ));
    return std::uint32_t(std::partition_point(keys_ + b, keys_ + e, [bit](std::uint64_t k) { return !(k & bit); }) -
                         keys_);
  }

  // Particles in one cell of the finest grid: split at the median of the widest axis (their keys
  // are all equal, so any order of them is still key order).
  std::uint32_t split_at_median(std::uint32_t b, std::uint32_t e) {
    const Box box = bounds(t_, b, e);
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (box.hi[a] - box.lo[a] > box.hi[axis] - box.lo[axis]) axis = a;
    std::vector<std::uint32_t> at(e - b);
    for (std::uint32_t i = 0; i < e - b; ++i) at[i] = b + i;
    const std::uint32_t middle = b + (e - b) / 2;
    const float* v = t_.pos[axis].data();
    std::nth_element(at.begin(), at.begin() + (middle - b), at.end(),
                     [v](std::uint32_t i, std::uint32_t j) { return v[i] < v[j]; });
    for (auto* column : {&t_.pos[0], &t_.pos[1], &t_.pos[2]}) permute(column->data(), at, b);
    permute(t_.index.data(), at, b);
    return middle;
  }

  template <class T>
  static void permute(T* values, const std::vector<std::uint32_t>& from, std::uint32_t b) {
    std::vector<T> moved(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) moved[i] = values[from[i]];
    std::copy(moved.begin(), moved.end(), values + b);
  }

  Tree& t_;
  const std::uint64_t* keys_;
};

// The top of the tree in one thread, the subtrees below it in parallel, then put together:
// nodes[0, top) are the top's, each subtree's root replaces its place there and its other nodes
// follow. Children always come after their parent.
void build_structure(Tree& t, const std::uint64_t* keys) {
  TreeBuilder builder(t, keys);
  const std::size_t n = t.size();
  const auto defer = std::uint32_t(std::max<std::size_t>(n / (subtrees_per_thread * omp_get_max_threads()), 1024));
  std::vector<std::uint32_t> deferred;  // (root, begin, end) each
  t.nodes.resize(1);
  builder.grow(t.nodes, 0, 0, std::uint32_t(n), defer, &deferred);
  const std::size_t subtrees = deferred.size() / 3;
  std::vector<std::vector<Node>> built(subtrees);
#pragma omp parallel for if (n >= min_parallel) schedule(dynamic, 1)
  for (std::size_t s = 0; s < subtrees; ++s) {
    built[s].resize(1);
    builder.grow(built[s], 0, deferred[3 * s + 1], deferred[3 * s + 2]);
  }
  for (std::size_t s = 0; s < subtrees; ++s) {
    const std::uint32_t offset = std::uint32_t(t.nodes.size()) - 1;  // local node i > 0 goes to offset + i
    for (Node& node : built[s])
      if (!node.leaf()) node.child += offset;
    t.nodes[deferred[3 * s]] = built[s][0];
    t.nodes.insert(t.nodes.end(), built[s].begin() + 1, built[s].end());
    std::vector<Node>().swap(built[s]);
  }
}

void list_leaves(Tree& t) {
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const std::uint32_t at = stack.back();
    stack.pop_back();
    if (t.nodes[at].leaf()) {
      t.leaves.push_back(at);
    } else {
      stack.push_back(t.nodes[at].child + 1);  // the second child after the first
      stack.push_back(t.nodes[at].child);
    }
  }
}

// The largest subtrees of at most query_group_size particles (or leaves), in tree order.
void list_groups(Tree& t) {
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const Node& node = t.nodes[stack.back()];
    const std::uint32_t at = stack.back();
    stack.pop_back();
    if (node.leaf() || node.end - node.begin <= query_group_size) {
      const std::uint32_t first = t.groups.empty() ? 0 : t.groups.back().end_leaf;
      std::uint32_t end = first;
      while (end < t.leaves.size() && t.nodes[t.leaves[end]].begin < node.end) ++end;
      t.groups.push_back(Group{at, first, end});
    } else {
      stack.push_back(node.child + 1);
      stack.push_back(node.child);
    }
  }
}

void compute_boxes(Tree& t) {
  const std::size_t leaves = t.leaves.size();
#pragma omp parallel for if (t.size() >= min_parallel) schedule(static)
  for (std::size_t l = 0; l < leaves; ++l) {
    Node& leaf = t.nodes[t.leaves[l]];
    leaf.box = bounds(t, leaf.begin, leaf.end);
  }
  for (std::size_t at = t.nodes.size(); at-- > 0;) {  // children after their parent: bottom up
    Node& node = t.nodes[at];
    if (node.leaf()) continue;
    const Box &a = t.nodes[node.child].box, &b = t.nodes[node.child + 1].box;
    for (int c = 0; c < 3; ++c) {
      node.box.lo[c] = std::min(a.lo[c], b.lo[c]);
      node.box.hi[c] = std::max(a.hi[c], b.hi[c]);
    }
  }
}

}  // namespace

Tree build_tree(const Positions& p, std::size_t n, const ProgressCallback& progress) {
  Tree t;
  ParticleArray<std::uint64_t> keys = morton_keys(p, n, grid_over(p, n));
  t.index = sort_by_key(keys);
  if (progress) progress(build_share / 2);
  for (int a = 0; a < 3; ++a) {
    t.pos[a].resize(n + max_leaf_size);  // leaf_distances2 (knn_hsml.cc) reads whole leaves' worth
#pragma omp parallel for if (n >= min_parallel) schedule(static)
    for (std::size_t i = 0; i < n; ++i) t.pos[a][i] = p.at(a, t.index[i]);
    std::fill(t.pos[a].begin() + n, t.pos[a].end(), infinity);
  }
  build_structure(t, keys.data());
  list_leaves(t);
  list_groups(t);
  compute_boxes(t);
  if (progress) progress(build_share);
  return t;
}

}  // namespace splotch::knn
