// The tree that knn_hsml (knn_hsml.h) searches for neighbours, built by knn_tree.cc.
//
// The particles are put in Morton order (neighbours in space are neighbours in memory), and the
// sorted keys define a binary tree whose every node is one cell of an octree cut in halves along
// x, y and z in turn, down to leaves of at most max_leaf_size particles. Its nodes follow the
// density, so a halo 10^4 times denser than the mean gets a deeper tree there, not fuller cells.
// Every node keeps the tight bounding box of its particles.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "io/particle_array.h"
#include "io/progress.h"

namespace splotch::knn {

// Leaves hold at most this many particles: fewer means more boxes to test per query, more means
// more distances per leaf.
inline constexpr std::uint32_t max_leaf_size = 16;
// Particles searched together: the largest subtrees of at most this many share one list of
// candidate leaves (one tree descent), at the price of a longer list for each.
inline constexpr std::uint32_t query_group_size = 64;
// Below this many particles the work is too small to share out among threads (and with a busy
// machine, waiting at each parallel region's barrier for a thread that lost its core can take
// milliseconds).
inline constexpr std::size_t min_parallel = 20000;
// The share of the progress bar for sorting and building (measured: about a tenth of the time).
inline constexpr double build_share = 0.1;
inline constexpr float infinity = std::numeric_limits<float>::infinity();

struct Box {
  float lo[3], hi[3];
};

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

// The tree over the n (at most 2^32 - 1) finite positions p. Each position column holds
// max_leaf_size entries of +inf past the last particle, so that a whole leaf's worth can be read
// from any leaf. progress goes up to build_share.
Tree build_tree(const Positions& p, std::size_t n, const ProgressCallback& progress);

}  // namespace splotch::knn
