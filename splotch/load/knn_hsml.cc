// The neighbour search behind knn_hsml (knn_hsml.h), over the tree of knn_tree.h.
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
// Memory, beyond the caller's arrays: about 24 bytes a particle while searching (the tree), less
// than while building it (knn_tree.cc).
#include "splotch/load/knn_hsml.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/first_error.h"
#include "splotch/load/knn_tree.h"
#include "splotch/load/kth_smallest.h"

namespace splotch {
namespace knn {
namespace {

// Groups a thread takes at a time.
constexpr std::size_t group_chunk = 32;
// A particle's first bound is this times the previous particle's k-th squared distance (1.3
// times the distance): hsml changes little from one particle to the next in tree order. On the
// benchmark snapshot 2 to 4% of these bounds hold fewer than k particles and need the window
// bound; a larger factor means fewer of those but more candidates for every particle (2 and 2.5
// measured slower, 1.5 no faster).
constexpr float guess_slack = 1.7f;

// Rounding safety: a box's distance can come out a few ulps above that of a particle inside it
// (other operations, maybe fused multiply-adds), and a bound a few ulps below the distance it
// bounds. Boxes are therefore compared shrunk by 2^-20 and bounds grown by 2^-20 (plus the
// smallest normal float, for bounds that are 0 or subnormal): far more than the rounding, far
// less than anything that costs time.
float shrunk(float box_d2) { return box_d2 * (1.0f - 0x1p-20f); }
float grown(float bound2) { return bound2 * (1.0f + 0x1p-20f) + std::numeric_limits<float>::min(); }

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
// Input checks (the wrapping is Positions, in knn_tree.h).

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

// ---------------------------------------------------------------------------------------------
// The search.

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
}  // namespace knn

KnnHsmlResult knn_hsml(const float* x, const float* y, const float* z, std::size_t n, int neighbours, double box_size,
                       float* hsml, const ProgressCallback& progress) {
  using namespace knn;
  check_arguments(n, neighbours, box_size);
  check_finite(Positions{{x, y, z}, box_size}, n);
  // Squared distances in float overflow beyond about 1e19 (positions in cm): such positions are
  // scaled by a power of two first, which float holds exactly, and the lengths back after.
  float largest = float(box_size);
  for (const float* axis : {x, y, z})
    for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(axis[i]));
  if (largest > 1e12f) {
    int exponent = 0;
    std::frexp(largest, &exponent);
    std::vector<float> scaled[3];
    const float* axes[3] = {x, y, z};
    for (int a = 0; a < 3; ++a) {
      scaled[a].resize(n);
      for (std::size_t i = 0; i < n; ++i) scaled[a][i] = std::ldexp(axes[a][i], -exponent);
    }
    const KnnHsmlResult r = knn_hsml(scaled[0].data(), scaled[1].data(), scaled[2].data(), n, neighbours,
                                     std::ldexp(box_size, -exponent), hsml, progress);
    for (std::size_t i = 0; i < n; ++i) hsml[i] = std::ldexp(hsml[i], exponent);
    return r;
  }
  const Positions positions{{x, y, z}, box_size};
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
