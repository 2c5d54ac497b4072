// bin/splotch_interpolate_bench: the interpolation between two snapshots alone
// (splotch/load/interpolate_snapshots.h), on two made sets of N particles with the same IDs, each
// step into fresh memory and into the memory of the step before (as the server's time slider
// does), and prints the median of ROUNDS steps of each:
//
//   bin/splotch_interpolate_bench [N] [ROUNDS]     (defaults 4000000 and 5; threads: OMP_NUM_THREADS)
//
// Lines: threads N memory median_ms particles/s. (The server's own figures are
// tests/bench/bench_serve.sh's CASE=time rows; this one tells the interpolation's share.)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "splotch/load/interpolate_snapshots.h"

namespace {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// N particles in the unit box, IDs 0 .. N-1; `seed` moves them.
splotch::ParticleSet made_set(std::size_t n, unsigned seed) {
  splotch::ParticleSet p;
  for (splotch::ParticleArray<float>* a : {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0]}) a->resize(n);
  p.id.resize(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float v = float((i * 2654435761u + seed) % 1000) / 1000;
    p.x[i] = v, p.y[i] = 1 - v, p.z[i] = 0.5f * v, p.hsml[i] = 0.01f, p.intensity[i] = 1, p.colour[0][i] = v;
    p.id[i] = i;
  }
  p.box_size = 1;
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4000000;
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  if (n == 0) {
    std::fprintf(stderr, "splotch_interpolate_bench: N must be a positive count of particles\n");
    return 1;
  }
  const splotch::ParticleSet a = made_set(n, 1), b = made_set(n, 2);
  const splotch::SnapshotMatch match = splotch::match_snapshots(a, b);
  const splotch::InterpolationOptions options;
  std::printf("%-8s %11s %-7s %10s %12s\n", "threads", "N", "memory", "median_ms", "particles/s");
  for (bool reuse : {false, true}) {
    std::vector<double> times;
    splotch::ParticleSet held;
    for (int r = 0; r <= rounds; ++r) {  // (round 0 warms up, and is left out)
      const double start = seconds_now();
      if (reuse) {
        held = splotch::interpolate_snapshots(a, b, match, 0.3 + 0.01 * r, options, std::move(held));
      } else {
        const splotch::ParticleSet fresh = splotch::interpolate_snapshots(a, b, match, 0.3 + 0.01 * r, options);
      }
      if (r > 0) times.push_back(seconds_now() - start);
    }
    const double m = median(times);
    std::printf("%-8d %11zu %-7s %10.1f %12.3g\n", omp_get_max_threads(), n, reuse ? "reused" : "fresh", 1e3 * m,
                double(n) / m);
  }
  return 0;
}
