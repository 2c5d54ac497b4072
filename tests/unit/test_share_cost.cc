// The share model of an MPI run's single frame (splotch/render/share_cost.h): its choices for the
// cases measured on the 2-GPU node (docs/performance.md), and what it says.
#include <doctest/doctest.h>

#include <string>

#include "splotch/render/share_cost.h"

using namespace splotch;

namespace {
ShareWork gpus(double particles, int pixels_side, bool a_eq_e, int processes = 2, int nodes = 1) {
  ShareWork w;
  w.particles = particles;
  w.pixels = double(pixels_side) * pixels_side;
  w.a_eq_e = a_eq_e;
  w.gpu = true;
  w.processes = processes;
  w.nodes = nodes;
  w.threads = 16;
  w.node_memory = 200e9;
  return w;
}
}  // namespace

TEST_CASE("share model: one GPU for 1e8 at 4096^2, a near tie with a_eq_e, and for 1e7; both from 1e9") {
  const ShareEstimate sum = estimate_share(gpus(1e8, 4096, true));
  // About what the 2 x H200 node measured for the read and the drawing on one GPU: 0.44-0.52 s
  // (its total, 0.55-0.63 s, less the start's wait, the post-processing and the write); on both
  // GPUs 0.91-1.03 times as fast in the total: a near tie, which one GPU takes.
  CHECK(sum.alone_seconds == doctest::Approx(0.52).epsilon(0.05));
  CHECK(sum.alone);
  CHECK(sum.all_seconds == doctest::Approx(sum.alone_seconds).epsilon(0.05));
  // a_eq_e = FALSE through host memory and MPI: 2.5e7 splats pass between the two processes, more
  // than a second.
  const ShareEstimate layers = estimate_share(gpus(1e8, 4096, false));
  CHECK(layers.alone);
  CHECK(layers.all_seconds > layers.alone_seconds + 1.0);
  // GPU to GPU (one node): 0.69-0.77 s on both against 0.56-0.64 s on one measured (2 x H200,
  // 1.2-1.25 times; the model, its second start fitted to both a_eq_e, 1.3); still one.
  ShareWork split = gpus(1e8, 4096, false);
  split.gpu_split = true;
  const ShareEstimate on_gpus = estimate_share(split);
  CHECK(on_gpus.alone);
  CHECK(on_gpus.all_seconds < layers.all_seconds - 1.0);
  CHECK(on_gpus.all_seconds / on_gpus.alone_seconds == doctest::Approx(1.3).epsilon(0.05));
  // At 1e9 the drawing outweighs the fixed costs: both GPUs, where each GPU holds its share whole
  // (5e8 particles with a view's working memory: 38 GB, within half an 80-GB H100's memory).
  split.particles = 1e9;
  split.gpu_memory = 80e9;
  CHECK(!estimate_share(split).alone);
  CHECK(estimate_share(split).gpu_split);
  // 1.2e9 on 2 x 80 GB: a share (46 GB) would be drawn in windows, which the split refuses, so the
  // splats would pass through host memory and MPI (about 16 s more): rank 0 alone, and the note
  // says why.
  split.particles = 1.2e9;
  const ShareEstimate windows = estimate_share(split);
  CHECK(!windows.gpu_split);
  CHECK(windows.alone);
  CHECK(windows.all_seconds > windows.alone_seconds + 10);
  CHECK(describe_share(windows, split).find("drawn in windows on its GPU") != std::string::npos);
  split.gpu_memory = 141e9;  // an H200's: it holds the share
  CHECK(estimate_share(split).gpu_split);
  CHECK(!estimate_share(split).alone);
  split.gpu_memory = 0;  // not known: the split is counted
  CHECK(estimate_share(split).gpu_split);
  CHECK(describe_share(estimate_share(split), split).find("windows") == std::string::npos);
  // What a particle holds there counts: 1e9 on 2 x 80 GB with three colours (84 bytes a
  // particle) no longer fits half the memory; with types (77) it does.
  split.particles = 1e9;
  split.gpu_memory = 80e9;
  split.vector_colour = true;
  CHECK(!estimate_share(split).gpu_split);
  split.vector_colour = false;
  split.typed = true;
  CHECK(estimate_share(split).gpu_split);
  // Two processes on each 141-GB GPU: a share must fit a third of it (the second upload sees
  // the first's memory taken): 6e8 particles each (46 GB) do, 6.5e8 (49 GB) do not.
  split.typed = false;
  split.gpu_memory = 141e9;
  split.processes = 4;
  split.processes_per_gpu = 2;
  split.particles = 2.4e9;
  CHECK(estimate_share(split).gpu_split);
  split.particles = 2.6e9;
  CHECK(!estimate_share(split).gpu_split);
  // More than 2^30 particles a share are drawn in windows whatever the memory.
  split.processes = 8;
  split.processes_per_gpu = 1;
  split.particles = 1e10;
  split.gpu_memory = 1e15;
  CHECK(!estimate_share(split).gpu_split);
  split.particles = 8e9;
  CHECK(estimate_share(split).gpu_split);
  CHECK(estimate_share(gpus(1e7, 4096, true)).alone);
  CHECK(estimate_share(gpus(1e7, 2048, true)).alone);
  // 1e9: both GPUs, though the read within one node does not shrink: 2.7 s on one (2.69 s
  // measured on one H200 without the post-processing and the write), 1.2 times that on two (1.21
  // to 1.32 times measured).
  const ShareEstimate big = estimate_share(gpus(1e9, 4096, true));
  CHECK(!big.alone);
  CHECK(big.alone_seconds == doctest::Approx(2.7).epsilon(0.05));
  CHECK(big.alone_seconds / big.all_seconds > 1.1);
  CHECK(big.alone_seconds / big.all_seconds < 1.3);
  // On two nodes the read halves too, and the images cross the network.
  const ShareEstimate two_nodes = estimate_share(gpus(1e9, 4096, true, 2, 2));
  CHECK(two_nodes.all_seconds < big.all_seconds);
}

TEST_CASE("share model: the GPUs of a node start one after another (4 x H200: 4 GPUs lost at 1e8, won at 1e9)") {
  // Measured on 4 x H200 at 4096^2 (a_eq_e, totals): 1e8 0.91 s on one GPU, 1.13-1.16 s on all
  // four; 1e9 2.94 s on one, 2.25-2.39 s on all four.
  const ShareEstimate small = estimate_share(gpus(1e8, 4096, true, 4));
  CHECK(small.alone);
  CHECK(small.all_seconds - small.alone_seconds == doctest::Approx(0.23).epsilon(0.1));
  const ShareEstimate big = estimate_share(gpus(1e9, 4096, true, 4));
  CHECK(!big.alone);
  CHECK(big.alone_seconds - big.all_seconds == doctest::Approx(0.52).epsilon(0.1));
  // The starts alone (every other cost zero): each GPU beyond the first of a node adds one, and
  // one GPU on each of several nodes adds one.
  ShareCosts starts;
  starts.read_frame = starts.read_particle = 0;
  starts.gpu_particle[0] = starts.gpu_covered[0] = starts.node_pixel[0] = starts.network_pixel[0] = 0;
  auto start_of = [&](int processes, int nodes) {
    return estimate_share(gpus(1e9, 4096, true, processes, nodes), starts).all_seconds;
  };
  CHECK(start_of(2, 1) == doctest::Approx(starts.gpu_start_each));
  CHECK(start_of(4, 1) == doctest::Approx(3 * starts.gpu_start_each));
  CHECK(start_of(8, 2) == doctest::Approx(3 * starts.gpu_start_each));
  CHECK(start_of(4, 4) == doctest::Approx(starts.gpu_start_each));
  // Spread unevenly (4 + 1 on two nodes): the fullest node's starts, not the average's.
  ShareWork uneven = gpus(1e9, 4096, true, 5, 2);
  CHECK(estimate_share(uneven, starts).all_seconds == doctest::Approx(1.5 * starts.gpu_start_each));
  uneven.node_processes = 4;
  CHECK(estimate_share(uneven, starts).all_seconds == doctest::Approx(3 * starts.gpu_start_each));
}

TEST_CASE("share model: rank 0 alone only where its node holds every particle; one process is alone") {
  ShareWork w = gpus(1e8, 4096, false);
  w.node_memory = 1e9;  // 1e8 particles take about 6.4 GB
  const ShareEstimate e = estimate_share(w);
  CHECK(!e.alone_fits);
  CHECK(!e.alone);
  CHECK(describe_share(e, w).find("one process has not the memory for all") != std::string::npos);
  CHECK(!estimate_share(gpus(1e8, 4096, true, 1)).alone);  // nothing to share
}

TEST_CASE("share model: host processes of one node gain nothing over rank 0's threads; on several nodes they do") {
  ShareWork w;
  w.particles = 6e4;
  w.pixels = 200 * 200;
  w.processes = 3;
  w.threads = 1;
  w.alone_threads = 3;  // the node's
  CHECK(estimate_share(w).alone);
  w.alone_threads = 1;  // rank 0 could not take more cores: the others' share the drawing
  const ShareEstimate e = estimate_share(w);
  CHECK(!e.alone);
  CHECK(e.all_seconds < e.alone_seconds);
  ShareWork many = w;  // 1e8 particles on 4 nodes of 16 cores
  many.particles = 1e8;
  many.pixels = 4096.0 * 4096.0;
  many.processes = many.nodes = 4;
  many.threads = many.alone_threads = 16;
  CHECK(!estimate_share(many).alone);
  const std::string note = describe_share(e, w);
  CHECK(note.rfind("mpi_mode = auto: every process draws this frame (modelled: ", 0) == 0);
  CHECK(note.find("on all 3 processes, for 6e+04 particles at 0.04 Mpixels") != std::string::npos);
  CHECK(note.find("mpi_mode = data has all the processes draw it") != std::string::npos);
}

TEST_CASE("share model: a_eq_e = FALSE's splats reached in the other GPUs' memory, one process after another") {
  // Each splat that travels is opened once on the node (each range in an allocation of its own),
  // the node's processes one after another: (P - 1) / P of the particles, whatever P.
  ShareCosts opening;
  opening.read_frame = opening.read_particle = opening.gpu_exchange_particle = opening.gpu_layer_pixel = 0;
  opening.gpu_particle[1] = opening.gpu_covered[1] = opening.node_pixel[1] = opening.gpu_start_each = 0;
  auto open_of = [&](int processes) {
    ShareWork w = gpus(1e9, 4096, false, processes);
    w.gpu_split = true;
    const ShareEstimate e = estimate_share(w, opening);
    CHECK(e.gpu_split);
    return e.all_seconds;
  };
  CHECK(open_of(2) == doctest::Approx(0.5e9 * opening.gpu_open_splat));
  CHECK(open_of(4) == doctest::Approx(0.75e9 * opening.gpu_open_splat));
  // With every cost: at 10^9 on 4 x H200, 4 GPUs before 2 and 2 before one (measured 2.90 s on
  // one; 2.21 s on two and 2.21 s on four with each range in an allocation of its own, 2.32 and
  // 2.73 s before).
  auto all_of = [](int processes) {
    ShareWork w = gpus(1e9, 4096, false, processes);
    w.gpu_split = true;
    return estimate_share(w);
  };
  CHECK(!all_of(2).alone);
  CHECK(all_of(4).all_seconds < all_of(2).all_seconds);
  CHECK(all_of(2).all_seconds < all_of(2).alone_seconds);
}
