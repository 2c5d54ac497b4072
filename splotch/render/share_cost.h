// How many of an MPI run's processes draw a single frame (mpi_mode = auto): all of them, each its
// share of the particles, or rank 0 alone (with the threads of its node's processes), whichever
// a model of the frame's time says finishes first.
//
// A second GPU halves the drawing, but within a node the read does not shrink (the node's memory
// and cores bound it, however many processes share them), the images must be combined, and the
// start of each GPU beyond the first shows (a node's GPUs start one after another). With a_eq_e
// = FALSE the splats must first travel between the processes in draw order (GPU to GPU within a
// node: splotch/frame/gpu_split.h). So on the 2-GPU node 10^8 particles at 4096^2 draw no faster
// on both GPUs than on one with a_eq_e (0.91-1.03x measured, a near tie that one GPU takes), one
// GPU wins with a_eq_e = FALSE, and at 10^7 with either; at 10^9 both GPUs win (constants:
// `RUNS=3 GPUS="1 2" tests/bench/bench_mpi_gpu.sh` on 2 x H100 and 2 x H200, docs/performance.md).
// Host processes of one node share its cores, so splitting a frame among them gains nothing over
// rank 0 with all their threads; on several nodes their cores add up.
#pragma once

#include <string>

namespace splotch {

struct ShareWork {
  double particles = 0;  // of the whole snapshot, as its headers give them
  double pixels = 0;
  bool a_eq_e = true;
  bool gpu = false;        // every process draws on a GPU of its own
  bool gpu_split = false;  // a_eq_e = FALSE: the GPUs may pass the splats between them (gpu_split.h)
  int processes = 1;       // of the run
  int nodes = 1;           // the nodes they are on
  int node_processes = 0;  // the most of them on one node (0: processes / nodes, as if even)
  int threads = 1;         // each process's
  int alone_threads = 0;   // rank 0's drawing alone: its node's cores (0: `threads`)
  double node_memory = 0;  // bytes available on rank 0's node: rank 0 alone must hold every particle
  // For the GPUs' split: bytes of rank 0's GPU (0: not known), how many of the node's processes
  // share a GPU, and what a particle holds there (its type, three colours).
  double gpu_memory = 0;
  int processes_per_gpu = 1;
  bool typed = false, vector_colour = false;
};

struct ShareCosts {
  // Reading from the page cache and normalising, seconds a frame and per particle on a node (all
  // its cores). (The 2 x H200 node, 32 cores: 0.20 s at 10^8, 1.42 s at 10^9, of which the read
  // 1.10 s and the normalisation 0.32 s; about 2.3e-9 s a particle on the 16-core H100 machine.)
  double read_frame = 0.067;
  double read_particle = 1.35e-9;
  // Drawing on a GPU (the copy up and the render stage), seconds: per particle, and per pixel
  // times the cube root of the particles (the pixels the splats cover: smoothing lengths shrink as
  // N^(-1/3)); fitted to 10^8 and 10^9 particles at 4096^2: a_eq_e on one H100 (1.30 s at 10^9
  // on an H200, 1.32 s modelled), a_eq_e = FALSE on one H200 (0.27 and 1.57 s).
  double gpu_particle[2] = {8.1e-10, 1.27e-9};
  double gpu_covered[2] = {3.06e-11, 1.84e-11};
  // Drawing on the host, per particle, per thread (a_eq_e, then not).
  double host_particle[2] = {1.28e-7, 2.8e-7};
  // Combining the images, per pixel: within a node through its shared memory, and between nodes
  // (12 bytes a pixel, about twice, at 12.5 GB/s); a_eq_e, then the layers of a_eq_e = FALSE.
  double node_pixel[2] = {1.2e-9, 2.6e-9};
  double network_pixel[2] = {1.9e-9, 3.8e-9};
  // a_eq_e = FALSE: each splat a process passes on to another, seconds: through host memory and MPI
  // (two processes of a node). Between the GPUs of a node, per particle of the snapshot: the draw
  // keys counted, each range written in a pass of its own over the share and copied GPU to GPU,
  // which come to the same whatever the GPUs (0.085-0.088 s at 10^9 on 2 and on 4 x H200,
  // 0.011-0.012 s at 10^8); and per splat that travels, reaching it in the other process's GPU
  // memory (CUDA IPC), which the node's processes do one after another: 32 bytes at about 5 ms a
  // GB of what the whole node opens (at 10^9 on 4 x H200 0.07-0.08 s on two GPUs, 0.12-0.14 s on
  // four, each range in an allocation of its own, cuda/device_particles.h: copy_split_ranges;
  // 0.14-0.16 and 0.49-0.56 s where each process opened the others' whole shares).
  double exchange_splat = 5.2e-8;
  double gpu_exchange_particle = 1e-10;
  double gpu_open_splat = 1.6e-10;
  // And per pixel, the GPUs' split: the layer (six floats a pixel) drawn over the image and
  // brought to the host, and the wait for the slowest process (2 x H200, 10^8 at 4096^2).
  double gpu_layer_pixel = 4e-9;
  // What drawing on several GPUs adds, per process of the fullest node beyond the first (at
  // least one): the GPUs' starts at once, which the driver takes one after another and the read
  // no longer hides, and the processes' normalisation and write contending. 0.13-0.19 s at 10^8
  // on 2 x H200 by either a_eq_e (rank 0's gpu_start 0.09-0.12 s against 0.02-0.04 s alone, +0.02
  // and +0.03 s); on 4 x H200 rank 0's gpu_start 0.13 s alone, 0.29-0.33 s of 2, 0.58-0.64 s of
  // 4, and the total of 4 at 10^8 0.25-0.39 s above one GPU's.
  double gpu_start_each = 0.15;
  // Bytes of memory a particle takes on the process that holds it, about.
  double particle_bytes = 64;
  // Bytes of GPU memory a particle kept there takes with a view's working memory: its fields and
  // scratch as DeviceParticles lays them out (cuda/device_particles.cu), one more with types,
  // eight more with three colours. The GPUs' split needs a process's share whole so (a view
  // drawn in windows is split through host memory), which upload() gives where it takes at most
  // half the GPU's free memory, and at most 2^30 particles; k processes sharing a GPU fit where
  // each share takes at most 1 / (k + 1) of it. What is not free: the context, the staging
  // buffers and the image, about 2 GB.
  double gpu_particle_bytes = 76, gpu_type_bytes = 1, gpu_colour_bytes = 8;
  double gpu_reserved_bytes = 2e9;
  double gpu_window_particles = 1073741824;
};

struct ShareEstimate {
  bool alone = false;  // rank 0 draws the frame alone
  double alone_seconds = 0, all_seconds = 0;
  bool alone_fits = true;  // rank 0's node has the memory for every particle
  bool gpu_split = false;  // a_eq_e = FALSE on all: the GPUs split the draw order (their memory holds it)
};

ShareEstimate estimate_share(const ShareWork& work, const ShareCosts& costs = {});

// The report's note: "mpi_mode = auto: rank 0 alone draws this frame (modelled: ...)".
std::string describe_share(const ShareEstimate& e, const ShareWork& work);

}  // namespace splotch
