#include "splotch/stages/framing.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace splotch {
namespace {

constexpr std::uint64_t sample_target = std::uint64_t(1) << 18;
constexpr int histogram_bins = 4096;  // per axis: percentiles to 1/4096 of the extent
constexpr int occupancy_bins = 1024;  // per periodic axis: where the particles are not

// Whether the particle at (x, y, z) is in the sample: a hash of its position under `threshold`
// (of 2^32), so that the sample is the same however the particles are ordered or shared out.
// 32-bit multiplications (murmur3's constants), which vectorise, as this runs for every particle.
inline std::uint32_t position_hash(float x, float y, float z) {
  std::uint32_t bx, by, bz;
  std::memcpy(&bx, &x, 4);
  std::memcpy(&by, &y, 4);
  std::memcpy(&bz, &z, 4);
  std::uint32_t h = bx * 0xcc9e2d51u ^ (by * 0x1b873593u + 0x9e3779b9u) ^ (bz * 0x85ebca6bu + 0xc2b2ae35u);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  return h ^ (h >> 13);
}

// The sample's positions, per axis.
struct Sample {
  std::vector<float> axis[3];
};

// The particles' box, and the sample, in one pass over the positions (the pass is bound by
// memory): in chunks small enough to stay in the core's cache, the chunk's minima and maxima
// (vectorised), then its sample (a multiplication and a rarely taken branch per particle).
BoundingBox box_and_sample(const ParticleSet& p, std::uint64_t threshold, Sample& sample) {
  constexpr std::size_t chunk = 2048;
  const bool all = threshold >> 32 != 0;
  const std::uint32_t limit = std::uint32_t(threshold);
  const std::size_t n = p.size();
  const float* axes[3] = {p.x.data(), p.y.data(), p.z.data()};
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::size_t>> own(static_cast<std::size_t>(threads));
  std::vector<std::array<float, 6>> extremes(static_cast<std::size_t>(threads),
                                             {3.4e38f, 3.4e38f, 3.4e38f, -3.4e38f, -3.4e38f, -3.4e38f});
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num()), nt = std::size_t(omp_get_num_threads());
    std::array<float, 6>& e = extremes[t];
    std::vector<std::size_t>& mine = own[t];
    const std::size_t end = n * (t + 1) / nt;
    for (std::size_t from = n * t / nt; from < end; from += chunk) {
      const std::size_t to = std::min(end, from + chunk);
      for (int a = 0; a < 3; ++a) {
        const float* v = axes[a];
        float lo = e[std::size_t(a)], hi = e[std::size_t(a) + 3];
#pragma omp simd reduction(min : lo) reduction(max : hi)
        for (std::size_t i = from; i < to; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
        e[std::size_t(a)] = lo, e[std::size_t(a) + 3] = hi;
      }
      if (all) {
        for (std::size_t i = from; i < to; ++i) mine.push_back(i);
        continue;
      }
      std::uint8_t keep[chunk];
#pragma omp simd
      for (std::size_t i = from; i < to; ++i)
        keep[i - from] = position_hash(axes[0][i], axes[1][i], axes[2][i]) < limit;
      for (std::size_t i = from; i < to; ++i)
        if (keep[i - from]) mine.push_back(i);
    }
  }
  BoundingBox box;
  if (n > 0) {
    float lo[3] = {3.4e38f, 3.4e38f, 3.4e38f}, hi[3] = {-3.4e38f, -3.4e38f, -3.4e38f};
    for (const std::array<float, 6>& e : extremes)
      for (std::size_t a = 0; a < 3; ++a) lo[a] = std::min(lo[a], e[a]), hi[a] = std::max(hi[a], e[a + 3]);
    box = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  }
  std::size_t samples = 0;
  for (const std::vector<std::size_t>& indices : own) samples += indices.size();
  for (int a = 0; a < 3; ++a) sample.axis[a].reserve(samples);
  for (const std::vector<std::size_t>& indices : own)
    for (const std::size_t i : indices)
      for (int a = 0; a < 3; ++a) sample.axis[a].push_back(axes[a][i]);
  return box;
}

double& at(Vec3& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

// Where to cut a periodic axis so that the particles lie together: the widest run of empty bins
// (taken round the edge), when it is wider than an eighth of the box and does not hold the edge
// already; -inf for no cut. `occupied`: the sample's count in each bin across the box.
// A periodic axis with no such gap is cut at 0: its coordinates taken modulo the box, whatever
// range the file wrote them in ([0, L) or [-L/2, L/2)).
double periodic_cut(const std::uint64_t* occupied, double box) {
  const int bins = occupancy_bins;
  int best = 0, best_end = -1;  // the widest empty run and the bin after it
  for (int k = 0, run = 0; k < 2 * bins; ++k) {
    run = occupied[k % bins] ? 0 : run + 1;
    if (run > best && run <= bins) best = run, best_end = (k + 1) % bins;
  }
  const int best_start = (best_end - best + bins) % bins;
  if (best * 8 < bins || best == bins || best_start == 0 || best_start + best >= bins) return 0;
  return (best_start + 0.5 * best) * box / bins;
}

// The coordinate as framed: a box higher below a periodic axis's cut.
double framed(double v, double cut, double box) {
  if (cut == -HUGE_VAL) return v;
  const double u = v - std::floor(v / box) * box;
  return u < cut ? u + box : u;
}

int bin_of(double v, double lo, double width, int bins) {
  return std::min(bins - 1, std::max(0, int((v - lo) / width)));
}

}  // namespace

Framing Framing::of_box(const BoundingBox& whole, std::uint64_t total) {
  Framing f;
  f.box = f.whole = whole;
  f.total = total;
  return f;
}

Framing framing(const ParticleSet& p, bool periodic, const FramingReduction& reduce) {
  std::vector<std::uint64_t> counts = {p.size()};
  if (reduce.sum) reduce.sum(counts);
  const std::uint64_t total = counts[0];
  const std::uint64_t threshold =
      total <= sample_target ? std::uint64_t(1) << 32 : (std::uint64_t(1) << 32) * sample_target / total;
  Sample sample;
  BoundingBox whole = box_and_sample(p, threshold, sample);
  whole.reach = bounding_reach(p);
  if (reduce.min_max) {
    std::vector<float> lo = {float(whole.lo.x), float(whole.lo.y), float(whole.lo.z), 0.0f};
    std::vector<float> hi = {float(whole.hi.x), float(whole.hi.y), float(whole.hi.z), float(whole.reach)};
    reduce.min_max(lo, hi);
    whole = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, hi[3]};
  }
  Framing f = Framing::of_box(whole, total);
  if (total < 50 || whole.empty()) return f;  // too few for percentiles to mean more than the box

  // Periodic axes: where to cut each so that its particles lie together.
  const double box = periodic && p.box_size > 0 ? p.box_size : 0;
  double cut[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  if (box > 0) {
    std::vector<std::uint64_t> occupied(3 * occupancy_bins, 0);
    for (int a = 0; a < 3; ++a)
      for (float v : sample.axis[a])
        ++occupied[std::size_t(a * occupancy_bins +
                               bin_of(framed(v, 0, box), 0, box / occupancy_bins, occupancy_bins))];
    if (reduce.sum) reduce.sum(occupied);
    for (int a = 0; a < 3; ++a) cut[a] = periodic_cut(&occupied[std::size_t(a * occupancy_bins)], box);
  }
  // Per axis, a histogram of the sample over the extent (as framed), summed over the processes.
  double lo[3], width[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = cut[a] == -HUGE_VAL ? at(whole.lo, a) : cut[a];
    const double extent = cut[a] == -HUGE_VAL ? at(whole.hi, a) - lo[a] : box;
    width[a] = extent > 0 ? extent / histogram_bins : 1.0;
  }
  std::vector<std::uint64_t> histogram(3 * histogram_bins, 0);
  for (int a = 0; a < 3; ++a)
    for (float v : sample.axis[a])
      ++histogram[std::size_t(a * histogram_bins + bin_of(framed(v, cut[a], box), lo[a], width[a], histogram_bins))];
  if (reduce.sum) reduce.sum(histogram);
  for (int a = 0; a < 3; ++a) {
    const std::uint64_t* h = &histogram[std::size_t(a * histogram_bins)];
    std::uint64_t sampled_total = 0;
    for (int k = 0; k < histogram_bins; ++k) sampled_total += h[k];
    const std::uint64_t tail = sampled_total / 50;  // 2%
    int first = 0, last = histogram_bins - 1, k2 = 0, k98 = histogram_bins - 1;
    while (first < last && h[first] == 0) ++first;
    while (last > first && h[last] == 0) --last;
    // The bins holding the sample's tail-th value from below and from above.
    std::uint64_t below = 0, above = 0;
    for (k2 = 0; k2 < histogram_bins - 1 && (below += h[k2]) <= tail;) ++k2;
    for (k98 = histogram_bins - 1; k98 > 0 && (above += h[k98]) <= tail;) --k98;
    if (cut[a] != -HUGE_VAL) {  // a periodic axis: the whole extent as framed, to a bin
      at(f.whole.lo, a) = lo[a] + first * width[a];
      at(f.whole.hi, a) = lo[a] + (last + 1) * width[a];
    }
    const double p2 = lo[a] + k2 * width[a], p98 = lo[a] + (k98 + 1) * width[a];
    const double margin = 0.1 * (p98 - p2);
    // A side whose farthest particles are near (within a quarter of the box's width) keeps them:
    // only far outliers are left out.
    const double box_lo = p2 - margin, box_hi = p98 + margin, near = 0.25 * (box_hi - box_lo) + width[a];
    at(f.box.lo, a) = box_lo <= at(f.whole.lo, a) + near ? at(f.whole.lo, a) : box_lo;
    at(f.box.hi, a) = box_hi >= at(f.whole.hi, a) - near ? at(f.whole.hi, a) : box_hi;
  }
  // The particles outside the box, as the sample has them.
  std::vector<std::uint64_t> outside = {0, 0};
  const std::size_t samples = sample.axis[0].size();
  for (std::size_t i = 0; i < samples; ++i) {
    bool in = true;
    for (int a = 0; a < 3; ++a) {
      const double v = framed(sample.axis[a][i], cut[a], box);
      in = in && v >= at(f.box.lo, a) && v <= at(f.box.hi, a);
    }
    outside[0] += !in;
  }
  outside[1] = samples;
  if (reduce.sum) reduce.sum(outside);
  f.outside = outside[1] ? std::uint64_t(double(outside[0]) * double(total) / double(outside[1]) + 0.5) : 0;
  // A group across a periodic edge, put back into the box where it can be: the same view, in the
  // coordinates the file has.
  for (int a = 0; a < 3; ++a) {
    if (!(cut[a] > 0) || 0.5 * (at(f.box.lo, a) + at(f.box.hi, a)) < box) continue;
    for (BoundingBox* b : {&f.box, &f.whole}) at(b->lo, a) -= box, at(b->hi, a) -= box;
  }
  return f;
}

}  // namespace splotch
