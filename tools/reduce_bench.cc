// bin/splotch_reduce_bench (built where mpicxx is found): the image reductions of the
// data-parallel MPI mode alone, each way (splotch/mpi/comm.h: ImageReduction direct and bands
// through MPI alone, and node: the node's shared memory, then across nodes, as splotch does):
// Comm::sum_to_root on an image of three floats a pixel (a_eq_e), Comm::composite_to_root on
// layers of six (a_eq_e = FALSE). Every process fills its image, all wait for each other, and
// rank 0 times the reduction until every process is done with it; RUNS times, and rank 0 prints
// the median, the fastest and the slowest, one line per reduction and way:
//
//   mpirun -np 4 bin/splotch_reduce_bench [RES] [RUNS]     (default 4096 pixels square, 5 runs)
//   sum direct 0.512 0.498 0.530
//
// tests/bench/bench_reduce.sh runs it on 2 to 16 processes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/particle_array.h"
#include "splotch/mpi/comm.h"
#include "splotch/util/stopwatch.h"

namespace {

using namespace splotch;

// The median, fastest and slowest of `times`.
std::string summary(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  char line[96];
  std::snprintf(line, sizeof line, "%.3f %.3f %.3f", times[times.size() / 2], times.front(), times.back());
  return line;
}

void run(const Comm& comm, std::size_t pixels, int runs) {
  ParticleArray<float> image, layers, rgb;
  image.resize(3 * pixels);
  layers.resize(6 * pixels);
  rgb.resize(3 * pixels);
  for (ImageReduction how : {ImageReduction::direct, ImageReduction::bands, ImageReduction::automatic}) {
    const char* way = how == ImageReduction::direct ? "direct" : how == ImageReduction::bands ? "bands" : "node";
    std::vector<double> sum, composite;
    for (int r = 0; r < runs; ++r) {
      // Values that change with the process and the pixel, refilled as a reduction overwrites them.
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < 3 * pixels; ++i) image[i] = 0.001f * float(i % 977) + float(comm.rank());
      comm.all(true);
      Stopwatch clock;
      comm.sum_to_root(image.data(), 3 * pixels, how);
      comm.all(true);
      sum.push_back(clock.lap());
      const float processes = float(comm.size()), ranks = processes * (processes - 1) / 2;
      for (std::size_t i = 0; comm.root() && i < 3 * pixels; i += 7919)
        if (std::abs(image[i] - (processes * 0.001f * float(i % 977) + ranks)) > 1e-4f * (1 + std::abs(image[i])))
          throw std::runtime_error("the sum " + std::string(way) + " is wrong at value " + std::to_string(i));
#pragma omp parallel for schedule(static)
      for (std::size_t p = 0; p < pixels; ++p)
        for (std::size_t c = 0; c < 3; ++c) {
          layers[6 * p + c] = 0.01f * float((p + c) % 89);
          layers[6 * p + 3 + c] = 0.5f + 0.005f * float((p + comm.rank()) % 97);
        }
      comm.all(true);
      clock.lap();
      comm.composite_to_root(layers.data(), pixels, rgb.data(), how);
      comm.all(true);
      composite.push_back(clock.lap());
      for (std::size_t p = 0; comm.root() && p < pixels; p += 7919)
        for (std::size_t c = 0; c < 3; ++c) {
          float expected = 0;  // every process's layer over those of the ones before it
          for (int q = 0; q < comm.size(); ++q)
            expected = 0.01f * float((p + c) % 89) + (0.5f + 0.005f * float((p + std::size_t(q)) % 97)) * expected;
          if (std::abs(rgb[3 * p + c] - expected) > 1e-4f * (1 + expected))
            throw std::runtime_error("the compositing " + std::string(way) + " is wrong at pixel " + std::to_string(p));
        }
    }
    if (comm.root()) {
      std::printf("sum %s %s\n", way, summary(sum).c_str());
      std::printf("composite %s %s\n", way, summary(composite).c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Comm comm(argc, argv);
  try {
    const long res = argc > 1 ? std::stol(argv[1]) : 4096;
    const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
    if (res < 1 || runs < 1) throw std::invalid_argument("RES and RUNS must be positive");
    run(comm, std::size_t(res) * std::size_t(res), runs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "splotch_reduce_bench: %s (usage: mpirun -np P bin/splotch_reduce_bench [RES] [RUNS])\n",
                 e.what());
    comm.abort(1);
  }
  return 0;
}
