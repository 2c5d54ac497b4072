// The neighbour search behind knn_hsml (knn_hsml.h).
//
// Order: each particle gets a 63-bit Morton key (its cell in a 2^21-per-axis grid over the
// particles' bounding cube or the periodic box, the bits of x, y and z interleaved), and a
// stable parallel radix sort puts the particles in key order. Positions are then copied in that
// order into three plain float arrays: neighbours in space are neighbours in memory.
//
// Tree: the sorted keys define a binary tree whose every node is one cell of an octree cut in
// halves along x, y and z in turn (the highest bit in which a node's first and last keys differ
// splits it), down to leaves of at most max_leaf_size particles. Its nodes follow the density,
// so a halo 10^4 times denser than the mean gets a deeper tree there, not fuller cells. Particles
// that share one key (closer together than a 2^21-th of the cube) are split at their median
// instead. Every node keeps the tight bounding box of its particles. The top of the tree is
// built in one thread, the subtrees below it in parallel.
//
// Search, for one group of particles (a subtree of at most query_group_size) after another:
//   1. The candidate leaves of the group: those whose box comes within a reach of the group's
//      box (one tree descent), and of those, the candidates of each leaf of the group.
//   2. For each particle q, a bound u_q that is at least its k-th distance: a guess from the
//      previous particle's, proved by counting k particles within it, or else the k-th distance
//      to the 2k particles around q in tree order (real particles, so never too small).
//   3. The distances to the particles of the leaf candidates whose box comes within u_q of q,
//      and the k-th smallest of them, found by counting rather than sorting (kth_smallest).
// The distance loops run over plain arrays and vectorise. The answer is the k-th smallest of
// the float distances however the bound was found, so it does not depend on the threads.
//
// Periodic box: positions are wrapped into [0, L) first; the distance along an axis is
// min(|d|, L - |d|), and that between two intervals likewise.
//
// Memory, beyond the caller's arrays: 24 bytes a particle while sorting (keys and order, twice),
// about 38 while building the tree (keys, positions, order, and the nodes twice over while the
// subtrees are put together), about 24 while searching: under 4 GB at 10^8 particles.
#include "splotch/knn_hsml.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "io/first_error.h"
#include "io/particle_array.h"
#include "params/user_error.h"
#include "splotch/bucket_sort.h"

namespace splotch {
namespace {

// Leaves hold at most this many particles: fewer means more boxes to test per query, more means
// more distances per leaf.
constexpr std::uint32_t max_leaf_size = 16;
constexpr int key_bits_per_axis = 21;  // 3 x 21 = 63 bits of a 64-bit key
// Radix sort digits: 6 passes over 63 bits; 2^11 counters per thread stay in the L1 cache.
constexpr int radix_bits = 11;
// Particles searched together: the largest subtrees of at most this many share one list of
// candidate leaves (one tree descent), at the price of a longer list for each.
constexpr std::uint32_t query_group_size = 64;
// Below this many particles the work is too small to share out among threads (and with a busy
// machine, waiting at each parallel region's barrier for a thread that lost its core can take
// milliseconds).
constexpr std::size_t min_parallel = 20000;
// Groups a thread takes at a time.
constexpr std::size_t group_chunk = 32;
// Subtrees smaller than this share of the particles (per thread) are built in parallel.
constexpr std::size_t subtrees_per_thread = 64;
// The share of the progress bar for sorting and building (measured: about a tenth of the time).
constexpr double build_share = 0.1;
constexpr float infinity = std::numeric_limits<float>::infinity();
// A particle's first bound is this times the previous particle's k-th squared distance (1.3
// times the distance): hsml changes little from one particle to the next in tree order. On the
// benchmark snapshot 2 to 4% of these bounds hold fewer than k particles and need the window
// bound; a larger factor means fewer of those but more candidates for every particle (2 and 2.5
// measured slower, 1.5 no faster).
constexpr float guess_slack = 1.7f;
// kth_smallest interpolates its trial values for this many rounds, then bisects, so that it ends
// after at most 31 more whatever the values.
constexpr int interpolation_rounds = 8;

// Rounding safety: a box's distance can come out a few ulps above that of a particle inside it
// (other operations, maybe fused multiply-adds), and a bound a few ulps below the distance it
// bounds. Boxes are therefore compared shrunk by 2^-20 and bounds grown by 2^-20 (plus the
// smallest normal float, for bounds that are 0 or subnormal): far more than the rounding, far
// less than anything that costs time.
float shrunk(float box_d2) { return box_d2 * (1.0f - 0x1p-20f); }
float grown(float bound2) { return bound2 * (1.0f + 0x1p-20f) + std::numeric_limits<float>::min(); }

struct Box {
  float lo[3], hi[3];
};

// Distances along one axis. along(d): from a coordinate difference d (squared by the caller).
// gap(a, b): the smallest distance between an interval A and an interval B (a point is an
// interval of length 0), given a = B.lo - A.hi and b = A.lo - B.hi (a > 0: B lies above A;
// b > 0: below). It is computed from the same differences as along(), so that rounding keeps it
// at or below the distance of any two points in the intervals, and without branches, so that it
// vectorises.
struct OpenBoundaries {
  float along(float d) const { return d; }
  float gap(float a, float b) const { return std::max(std::max(a, b), 0.0f); }
};

struct PeriodicBox {
  float side;
  float along(float d) const {
    d = std::fabs(d);
    return std::min(d, side - d);
  }
  // The way round the box: side - (B.hi - A.lo) = side + b when B lies above A, and likewise.
  float gap(float a, float b) const { return std::max(std::min(std::max(a, b), side + std::min(a, b)), 0.0f); }
};

template <class Metric>
float box_distance2(const Metric& m, const Box& a, const Box& b) {
  float d2 = 0;
  for (int c = 0; c < 3; ++c) {
    const float g = m.gap(b.lo[c] - a.hi[c], a.lo[c] - b.hi[c]);
    d2 += g * g;
  }
  return d2;
}

// ---------------------------------------------------------------------------------------------
// Input: checks, wrapping, Morton keys and the order they give.

const char* const error_prefix = "smoothing lengths from neighbours: ";

std::string text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

void check_arguments(std::size_t n, int neighbours, double box_size) {
  const std::string what = error_prefix;
  if (n < 2) throw UserError(what + "need at least 2 particles, got " + std::to_string(n));
  if (neighbours < 2)
    throw UserError(what + "the neighbour count must be at least 2 (the particle and one other), got " +
                    std::to_string(neighbours));
  if (box_size < 0 || !(box_size == 0 || std::isnormal(float(box_size))))
    throw UserError(what + "the periodic box size must be positive (or 0 for open boundaries), got " + text(box_size));
  if (n > 0xffffffffu) throw UserError(what + "more than 2^32 - 1 particles in one process: use MPI to split them");
}

// Positions as the search sees them: wrapped into [0, side) in a periodic box (side > 0).
struct Positions {
  const float* axis[3];
  double side;

  // The wrap is done in double, so that a coordinate just below 0 lands just below side rather
  // than on it; one that still rounds to side is the same place as 0.
  float at(int a, std::size_t i) const {
    const float v = axis[a][i];
    if (side == 0) return v;
    const float w = float(double(v) - side * std::floor(double(v) / side));
    return w < float(side) ? w : 0.0f;
  }
};

void check_finite(const Positions& p, std::size_t n) {
  std::size_t first_bad = n;
#pragma omp parallel for if (n >= min_parallel) schedule(static) reduction(min : first_bad)
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(p.axis[0][i]) || !std::isfinite(p.axis[1][i]) || !std::isfinite(p.axis[2][i]))
      first_bad = std::min(first_bad, i);
  if (first_bad == n) return;
  throw UserError(error_prefix + ("particle " + std::to_string(first_bad)) + " has a position that is not finite (" +
                  text(p.axis[0][first_bad]) + ", " + text(p.axis[1][first_bad]) + ", " + text(p.axis[2][first_bad]) +
                  ")");
}

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

struct Node {
  Box box;
  std::uint32_t begin, end;  // positions in tree order
  std::uint32_t child;       // the first of two adjacent children; 0 for a leaf
  bool leaf() const { return child == 0; }
};

// A subtree whose particles are searched together: its root and its leaves (in Tree::leaves).
struct Group {
  std::uint32_t node, first_leaf, end_leaf;
};

struct Tree {
  ParticleArray<float> pos[3];         // positions in tree order (wrapped into the box), then padding
  ParticleArray<std::uint32_t> index;  // tree position -> the caller's particle
  std::vector<Node> nodes;             // nodes[0] is the root
  std::vector<std::uint32_t> leaves;   // the leaf nodes in tree order
  std::vector<Group> groups;           // particles searched together (see query_group_size), in tree order
  std::size_t size() const { return index.size(); }
};

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

Tree build_tree(const Positions& p, std::size_t n, const ProgressCallback& progress) {
  Tree t;
  ParticleArray<std::uint64_t> keys = morton_keys(p, n, grid_over(p, n));
  t.index = sort_by_key(keys);
  if (progress) progress(build_share / 2);
  for (int a = 0; a < 3; ++a) {
    t.pos[a].resize(n + max_leaf_size);  // leaf_distances2 reads whole leaves' worth
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

// ---------------------------------------------------------------------------------------------
// The search.

float float_of(std::int32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

std::int32_t bits_of(float v) {
  std::int32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

// Squared distances read as their bit patterns, which order non-negative floats as the floats
// order (a sum of squares gives +0, never -0), and as signed integers, since no such pattern
// reaches the sign bit. Integer loops vectorise where float maximum reductions would not (and
// GCC vectorises the signed ones more readily).
typedef std::int32_t __attribute__((may_alias)) FloatBits;

std::int32_t count_at_most(const float* v, std::size_t m, std::int32_t limit) {
  const FloatBits* u = reinterpret_cast<const FloatBits*>(v);
  std::int32_t count = 0;
  for (std::size_t i = 0; i < m; ++i) count += u[i] <= limit;
  return count;
}

std::int32_t largest_at_most(const float* v, std::size_t m, std::int32_t limit) {
  const FloatBits* u = reinterpret_cast<const FloatBits*>(v);
  std::int32_t largest = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const std::int32_t x = u[i], y = x <= limit ? x : 0;
    largest = largest > y ? largest : y;
  }
  return largest;
}

// x^(1/3) for x > 0 to about 0.1%, plenty for a guess and several times faster than std::cbrt:
// a first approximation from the bit pattern (a third of the exponent), then one Newton step.
float rough_cbrt(float x) {
  const float y = float_of(bits_of(x) / 3 + 0x2a5137a0);
  return y - (y * y * y - x) / (3 * y * y);
}

// Where to count next, between the bit patterns lo and hi - 1. The first guesses interpolate
// the counts as a uniform density would (the count grows as the volume, distance^3 =
// (distance^2)^1.5), which usually lands within a few particles of k; after that, bisection of
// the bit patterns, which halves the bracket whatever the values.
std::int32_t next_guess(int round, std::int32_t lo, std::int32_t hi, double count_lo, double count_hi, double k) {
  std::int32_t guess = lo + (hi - lo) / 2;
  if (round < interpolation_rounds && count_hi > count_lo) {
    const float lo_d2 = float_of(lo), hi_d2 = float_of(hi);
    const float lo_volume = lo_d2 * std::sqrt(lo_d2), hi_volume = hi_d2 * std::sqrt(hi_d2);
    const float share = float((k + 0.5 - count_lo) / (count_hi - count_lo));
    const float r = rough_cbrt(lo_volume + (hi_volume - lo_volume) * share);
    const std::int32_t interpolated = bits_of(r * r);  // (outside the bracket if anything overflowed)
    if (interpolated >= lo && interpolated < hi) guess = interpolated;
  }
  return guess;
}

// The k-th smallest of v[0, m) (values >= 0), given that count_upper >= k of them are at most
// `upper`, and a guess of the answer (0: none). It counts the values at or below a trial value
// until exactly k are, and then takes the largest of those. Every pass vectorises and
// mispredicts no branch: for the few hundred values here cheaper than a selection algorithm,
// which would mispredict every other comparison.
float kth_smallest(const float* v, std::size_t m, std::size_t k, float upper, std::size_t count_upper, float guess) {
  std::int32_t lo = 0, hi = bits_of(upper);  // the answer's bits lie in [lo, hi]
  double count_lo = 0, count_hi = double(count_upper);
  if (count_upper == k) return float_of(largest_at_most(v, m, hi));
  std::int32_t trial =
      guess > 0 ? std::min(bits_of(guess), hi - 1) : next_guess(0, lo, hi, count_lo, count_hi, double(k));
  for (int round = 1; lo < hi; ++round) {
    const std::size_t count = std::size_t(count_at_most(v, m, trial));
    if (count == k) return float_of(largest_at_most(v, m, trial));
    if (count > k) {
      hi = trial;
      count_hi = double(count);
    } else {
      lo = trial + 1;
      count_lo = double(count);
    }
    trial = next_guess(round, lo, hi, count_lo, count_hi, double(k));
  }
  return float_of(lo);
}

// A list of leaves, their boxes in columns so that the distances to all of them vectorise.
struct LeafList {
  std::vector<float> lo[3], hi[3];
  std::vector<std::uint32_t> begin, count;

  std::size_t size() const { return begin.size(); }
  void resize(std::size_t n) {
    for (int a = 0; a < 3; ++a) {
      lo[a].resize(n);
      hi[a].resize(n);
    }
    begin.resize(n);
    count.resize(n);
  }
  void set(std::size_t at, const Node& leaf) {
    for (int a = 0; a < 3; ++a) {
      lo[a][at] = leaf.box.lo[a];
      hi[a][at] = leaf.box.hi[a];
    }
    begin[at] = leaf.begin;
    count[at] = leaf.end - leaf.begin;
  }
  void copy(std::size_t to, const LeafList& from, std::size_t at) {
    for (int a = 0; a < 3; ++a) {
      lo[a][to] = from.lo[a][at];
      hi[a][to] = from.hi[a][at];
    }
    begin[to] = from.begin[at];
    count[to] = from.count[at];
  }

  // distance2[c] = the squared distance between leaf c's box and `box` (a point: lo == hi).
  template <class Metric>
  void distances2_to(const Metric metric, const Box& box, std::vector<float>& distance2) const {
    const std::size_t n = size();
    distance2.resize(n);
    float* __restrict out = distance2.data();
    for (std::size_t c = 0; c < n; ++c) out[c] = 0;
    for (int a = 0; a < 3; ++a) {
      const float* __restrict l = lo[a].data();
      const float* __restrict h = hi[a].data();
      const float box_lo = box.lo[a], box_hi = box.hi[a];
      for (std::size_t c = 0; c < n; ++c) {
        const float g = metric.gap(l[c] - box_hi, box_lo - h[c]);
        out[c] += g * g;
      }
    }
  }

  // This list becomes the leaves of `from` whose box comes within reach2 of `box`. (Copied
  // without branches: about half of them pass, in no predictable pattern.)
  template <class Metric>
  void keep_near(const LeafList& from, const Metric metric, const Box& box, float reach2,
                 std::vector<float>& distance2) {
    from.distances2_to(metric, box, distance2);
    resize(from.size());
    std::size_t kept = 0;
    for (std::size_t c = 0; c < from.size(); ++c) {
      copy(kept, from, c);
      kept += shrunk(distance2[c]) <= reach2;
    }
    resize(kept);
  }
};

// out[i] = the squared distance from q to the particle at tree position b + i, for i < count;
// +inf for count <= i < max_leaf_size. A fixed trip count, and plain pointers, so that it
// vectorises without a scalar tail (the position columns are padded for the reads past the end).
template <class Metric>
void leaf_distances2(const Metric metric, const float q[3], const Tree& t, std::uint32_t b, std::uint32_t count,
                     float* __restrict out) {
  const float qx = q[0], qy = q[1], qz = q[2];
  const float* __restrict x = t.pos[0].data() + b;
  const float* __restrict y = t.pos[1].data() + b;
  const float* __restrict z = t.pos[2].data() + b;
  for (std::uint32_t i = 0; i < max_leaf_size; ++i) {
    const float dx = metric.along(x[i] - qx), dy = metric.along(y[i] - qy), dz = metric.along(z[i] - qz);
    out[i] = i < count ? dx * dx + dy * dy + dz * dz : infinity;
  }
}

template <class Metric>
void range_distances2(const Metric metric, const float q[3], const Tree& t, std::size_t b, std::size_t count,
                      float* __restrict out) {
  const float qx = q[0], qy = q[1], qz = q[2];
  const float* __restrict x = t.pos[0].data() + b;
  const float* __restrict y = t.pos[1].data() + b;
  const float* __restrict z = t.pos[2].data() + b;
  for (std::size_t i = 0; i < count; ++i) {
    const float dx = metric.along(x[i] - qx), dy = metric.along(y[i] - qy), dz = metric.along(z[i] - qz);
    out[i] = dx * dx + dy * dy + dz * dz;
  }
}

// The search for the particles of one group after another, in tree order (see the top of the
// file). Along that order hsml changes little from one particle to the next, so the previous
// one's k-th distance is a good guess: a bound a little larger (guess_slack) usually holds k
// particles, which proves it an upper bound. Where it does not, the bound comes from the 2k
// particles around in tree order: real particles, so the k-th nearest of them is at least as far
// as the k-th nearest of all. Candidates are found twice: leaves within reach of the group (one
// tree descent), then those of them within reach of each leaf of the group.
template <class Metric>
class GroupSearch {
 public:
  GroupSearch(const Tree& t, Metric metric, std::size_t k)
      : t_(t), metric_(metric), k_(k), window_(std::min(t.size(), 2 * k)), d2_(window_) {}

  // The next group does not follow the previous one: forget the guesses.
  void restart() { have_previous_ = false; }

  // hsml of the particles of group g.
  void run(const Group& g, float* hsml) {
    if (!have_previous_) {
      previous2_ = leaf_largest2_ = group_largest2_ = window_bound2(t_.nodes[g.node].begin);
      have_previous_ = true;
    }
    group_reach2_ = grown(guess_slack * group_largest2_);
    group_largest2_ = 0;
    find_group_candidates(g);
    for (std::uint32_t l = g.first_leaf; l < g.end_leaf; ++l) {
      const Node& leaf = t_.nodes[t_.leaves[l]];
      leaf_reach2_ = std::min(grown(guess_slack * leaf_largest2_), group_reach2_);
      leaf_largest2_ = 0;
      leaf_candidates_.keep_near(group_candidates_, metric_, leaf.box, leaf_reach2_, distance2_);
      for (std::uint32_t q = leaf.begin; q < leaf.end; ++q) {
        const float bound2 = std::min(grown(guess_slack * previous2_), leaf_reach2_);
        previous2_ = kth_distance2(g, leaf, q, bound2, previous2_);
        leaf_largest2_ = std::max(leaf_largest2_, previous2_);
        hsml[t_.index[q]] = std::sqrt(previous2_);
      }
      group_largest2_ = std::max(group_largest2_, leaf_largest2_);
    }
  }

 private:
  void position(std::uint32_t q, float here[3]) const {
    for (int a = 0; a < 3; ++a) here[a] = t_.pos[a][q];
  }

  // The k-th smallest squared distance to the 2k particles around q in tree order.
  float window_bound2(std::uint32_t q) {
    const std::size_t first = std::min(q - std::min<std::size_t>(q, k_), t_.size() - window_);
    float here[3];
    position(q, here);
    range_distances2(metric_, here, t_, first, window_, d2_.data());
    const std::int32_t largest = largest_at_most(d2_.data(), window_, bits_of(infinity));
    return kth_smallest(d2_.data(), window_, k_, float_of(largest), window_, 0);
  }

  // The leaves whose box comes within group_reach2_ of the group's.
  void find_group_candidates(const Group& g) {
    const Box& box = t_.nodes[g.node].box;
    found_.clear();
    stack_.assign(1, 0);
    while (!stack_.empty()) {
      const std::uint32_t at = stack_.back();
      const Node& node = t_.nodes[at];
      stack_.pop_back();
      if (shrunk(box_distance2(metric_, node.box, box)) > group_reach2_) continue;
      if (node.leaf()) {
        found_.push_back(at);
      } else {
        stack_.push_back(node.child + 1);
        stack_.push_back(node.child);
      }
    }
    group_candidates_.resize(found_.size());
    for (std::size_t c = 0; c < found_.size(); ++c) group_candidates_.set(c, t_.nodes[found_[c]]);
  }

  // The squared distances from `here` to the particles of the leaf's candidates whose box comes
  // within bound2, into d2_ (whole leaves, +inf after a leaf's last particle); returns how many.
  std::size_t gather(const float here[3], float bound2) {
    const LeafList& near = leaf_candidates_;
    near.distances2_to(metric_, Box{{here[0], here[1], here[2]}, {here[0], here[1], here[2]}}, distance2_);
    within_.resize(near.size());
    std::size_t within = 0;
    for (std::size_t c = 0; c < near.size(); ++c) {  // no branches, as in keep_near
      within_[within] = std::uint32_t(c);
      within += shrunk(distance2_[c]) <= bound2;
    }
    if (d2_.size() < within * max_leaf_size) d2_.resize(2 * within * max_leaf_size);
    for (std::size_t w = 0; w < within; ++w) {
      const std::uint32_t c = within_[w];
      leaf_distances2(metric_, here, t_, near.begin[c], near.count[c], d2_.data() + w * max_leaf_size);
    }
    return within * max_leaf_size;
  }

  // The k-th smallest squared distance from the particle at q: within bound2 if that holds k
  // particles, otherwise within its window bound (widening the candidates where needed).
  float kth_distance2(const Group& g, const Node& leaf, std::uint32_t q, float bound2, float guess2) {
    float here[3];
    position(q, here);
    std::size_t m = gather(here, bound2);
    std::size_t within = std::size_t(count_at_most(d2_.data(), m, bits_of(bound2)));
    if (within < k_) {
      bound2 = grown(window_bound2(q));
      if (bound2 > leaf_reach2_) {
        leaf_reach2_ = bound2;
        if (bound2 > group_reach2_) {
          group_reach2_ = bound2;
          find_group_candidates(g);
        }
        leaf_candidates_.keep_near(group_candidates_, metric_, leaf.box, leaf_reach2_, distance2_);
      }
      m = gather(here, bound2);
      within = std::size_t(count_at_most(d2_.data(), m, bits_of(bound2)));
    }
    return kth_smallest(d2_.data(), m, k_, bound2, within, guess2);
  }

  const Tree& t_;
  Metric metric_;
  std::size_t k_, window_;
  LeafList group_candidates_, leaf_candidates_;
  std::vector<float> d2_, distance2_;
  std::vector<std::uint32_t> found_, within_, stack_;
  bool have_previous_ = false;
  float previous2_ = 0;                           // the previous particle's k-th squared distance
  float leaf_largest2_ = 0, group_largest2_ = 0;  // the largest of the current (then previous) leaf, group
  float leaf_reach2_ = 0, group_reach2_ = 0;      // how far the candidates of the leaf, group reach
};

template <class Metric>
void search_groups(const Tree& t, Metric metric, std::size_t k, float* hsml, const ProgressCallback& progress) {
  const std::size_t chunks = (t.groups.size() + group_chunk - 1) / group_chunk;
  std::atomic<std::size_t> done{0};
  FirstError error;  // from the progress callback
#pragma omp parallel if (t.size() >= min_parallel)
  {
    GroupSearch<Metric> search(t, metric, k);
#pragma omp for schedule(dynamic)
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t first = c * group_chunk, last = std::min(t.groups.size(), first + group_chunk);
      search.restart();
      for (std::size_t g = first; g < last; ++g) search.run(t.groups[g], hsml);
      const std::size_t particles = t.nodes[t.groups[last - 1].node].end - t.nodes[t.groups[first].node].begin;
      const std::size_t now = done += particles;
      if (progress && omp_get_thread_num() == 0)
        error.run([&] { progress(build_share + (1 - build_share) * double(now) / double(t.size())); });
    }
  }
  error.rethrow_if_any();
}

// Zeros (k particles at one point) become the smallest positive hsml: such a particle sits in the
// densest spot there is, and a zero radius would hide it.
std::size_t replace_zeros(float* hsml, std::size_t n, std::size_t k) {
  float smallest = infinity;
  std::size_t zeros = 0;
#pragma omp parallel for if (n >= min_parallel) schedule(static) reduction(min : smallest) reduction(+ : zeros)
  for (std::size_t i = 0; i < n; ++i) {
    if (hsml[i] > 0)
      smallest = std::min(smallest, hsml[i]);
    else
      ++zeros;
  }
  if (zeros == 0) return 0;
  if (zeros == n)
    throw UserError(error_prefix + ("every one of the " + std::to_string(n)) +
                    " particles shares its position with at least " + std::to_string(k - 1) +
                    " others, so there is no distance to size them by (duplicated particles?)");
#pragma omp parallel for if (n >= min_parallel) schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    if (!(hsml[i] > 0)) hsml[i] = smallest;
  return zeros;
}

}  // namespace

KnnHsmlResult knn_hsml(const float* x, const float* y, const float* z, std::size_t n, int neighbours, double box_size,
                       float* hsml, const ProgressCallback& progress) {
  check_arguments(n, neighbours, box_size);
  const Positions positions{{x, y, z}, box_size};
  check_finite(positions, n);
  const Tree tree = build_tree(positions, n, progress);
  // Fewer particles than neighbours: all of them, the farthest one sets the radius.
  const std::size_t k = std::min(std::size_t(neighbours), n);
  if (box_size > 0)
    search_groups(tree, PeriodicBox{float(box_size)}, k, hsml, progress);
  else
    search_groups(tree, OpenBoundaries{}, k, hsml, progress);
  KnnHsmlResult result;
  result.coincident = replace_zeros(hsml, n, k);
  if (progress) progress(1.0);
  return result;
}

}  // namespace splotch
