// The processes of an MPI run, as the pipeline needs them (docs/design.md section 6): which one this
// is, agreement on failures, and the few reductions of the data-parallel mode. A build without
// MPI (the default; splotch/mpi/no_mpi.cc) has one process and no MPI library at all; `make MPI=1`
// links splotch/mpi/mpi_comm.cc.
//
// Failures follow one rule so that no process waits forever for one that has given up: work
// that may fail on some processes only is followed by first_error(), which every process calls
// the same number of times, before any other collective call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/particle_array.h"

namespace splotch {

// A failure every process has heard of (from Comm::first_error), thrown on all of them at once;
// main() reports it as the user error it (most often) is, once, from rank 0.
struct AgreedError : UserError {
  using UserError::UserError;
};

// How an image reaches rank 0 (Comm::sum_to_root, Comm::composite_to_root). Within a node the
// processes put their images in memory they share and each reduces one band of the image from
// all of them (node); between nodes, rank 0 takes in the other nodes' images (direct), or each
// node reduces one band of the image from every node and rank 0 gathers the bands (bands).
// automatic: node memory within each node, then across nodes directly with 2 or 3 nodes for the
// sum and by bands all else (mpi_comm.cc says why). direct and bands alone, without the node's
// memory, are for the benchmark (tools/reduce_bench.cc times each way).
enum class ImageReduction { automatic, direct, bands };

class Comm {
 public:
  // Starts MPI for the life of the object where the build has it and a launcher started the
  // process (splotch/mpi/launcher.h); otherwise this is the one process, as in the default build.
  // main() makes one.
  Comm(int& argc, char**& argv);
  ~Comm();
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  // Whether MPI was started (bin/splotch_mpi under a launcher): the process's end is then
  // MPI_Finalize's.
  bool with_mpi() const { return with_mpi_; }
  // Seconds MPI took to start in this process (MPI_Init_thread); negative without MPI.
  double start_seconds() const { return start_seconds_; }
  // What the user should know of how the process was started ("" for nothing), for a warning.
  const std::string& launch_warning() const { return launch_warning_; }
  // With MPI, the OpenMP threads this process takes where OMP_NUM_THREADS is not set: the cores it
  // may run on, shared with the node's processes that may run on them too (0: no advice). And
  // what the user should know where the launcher bound it to fewer cores than its share of the
  // node's ("" for nothing; Open MPI's mpirun binds each of 2 processes to one core).
  int thread_share() const { return thread_share_; }
  const std::string& binding_warning() const { return binding_warning_; }
  // Ends every process of the job at once (MPI_Abort) with `status`: for a failure that the
  // others did not hear of and may be waiting for.
  [[noreturn]] void abort(int status) const;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  // How many processes share this one's node (and its memory).
  int node_size() const { return node_size_; }
  // How many nodes the processes are on (for the image reductions: SPLOTCH_NODE_PROCESSES makes
  // groups of a node's processes stand in for nodes).
  int nodes() const;
  // Which node this process is on: the rank of the node's first process, the same on all of them.
  int node_id() const { return node_id_; }
  // Which of the GPUs it sees this process uses (one GPU per process): its rank among the
  // processes of its node that see the same GPUs (CUDA_VISIBLE_DEVICES). So where a launcher gives
  // each process a GPU of its own (Slurm's --gpu-bind), each uses its first. SPLOTCH_PROCESSES_PER_GPU=k
  // has k consecutive processes share each GPU.
  int gpu_index() const { return gpu_index_; }

  // Returns once every process has called it, waiting asleep: MPI's blocking calls poll a core
  // while they wait, and a thread of each OpenMP region of the node's other processes would share
  // that core (waiting 1.6 s in MPI_Recv took 1.14 s of CPU on 2 cores here; asleep, 0.03 s).
  // Collective.
  void wait_for_all() const;
  // Every process passes its error ("" for none) and gets the first one by rank, "" when none
  // failed; with several processes the message says which failed, unless all did.
  std::string first_error(const std::string& local) const;
  // Element-wise minimum of `mins` and maximum of `maxs` over all processes, in place.
  void min_max(std::vector<float>& mins, std::vector<float>& maxs) const;
  std::uint64_t sum(std::uint64_t value) const;
  // Whether `value` holds on every process.
  bool all(bool value) const;
  // Readies what the image reductions within a node need for images of `floats` floats a
  // process (`layers`: for composite_to_root), its memory shared by the node's processes and
  // touched on a thread of its own, so that its first use does not wait for it. Collective.
  // Optional: the reductions do it otherwise.
  void prepare_reduction(std::size_t floats, bool layers) const;
  // The element-wise sum over all processes, in place on rank 0 (other ranks' values are left
  // as they were).
  void sum_to_root(float* values, std::size_t count, ImageReduction how = ImageReduction::automatic) const;
  // The element-wise sum over all processes, in place on every process.
  void sum(std::vector<std::uint64_t>& values) const;
  // Rank 0's `values` on every process.
  void broadcast(std::vector<std::uint64_t>& values) const;
  // Every process's `mine` (of one length on all), process after process.
  std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) const;
  // Records of `record_bytes` passed between all processes: `send` holds those for process 0, then
  // those for process 1, ..., `to[p]` records for process p. Returns what came, process 0's first;
  // `from[p]` says how many records came from process p. A process without the memory for what
  // comes makes all of them throw.
  ParticleArray<char> exchange(const ParticleArray<char>& send, const std::vector<std::size_t>& to,
                               std::size_t record_bytes, std::vector<std::size_t>& from) const;
  // Composites the processes' partial images, in process order, into rank 0's `rgb` (three floats
  // per pixel; other ranks' are left as they were): `layers` holds six floats per pixel, the colour
  // C (RGB) a process drew over black and the transmittance T (RGB) of its splats, and may be
  // overwritten. Process p's layer lies over those of processes before it: C = C_last + T_last
  // (... + T_1 C_0). By bands each process composites a band of the pixels from every process's
  // layer (direct send), so that no process's work and traffic grow with the number of processes.
  void composite_to_root(float* layers, std::size_t pixels, float* rgb,
                         ImageReduction how = ImageReduction::automatic) const;

 private:
  friend class NodeTurns;
  // The processes of this node and the memory they share for the images (mpi_comm.cc).
  struct Node;
  std::unique_ptr<Node> node_;

  int rank_ = 0, size_ = 1, node_size_ = 1, node_id_ = 0, gpu_index_ = 0;
  bool with_mpi_ = false;
  double start_seconds_ = -1;
  std::string launch_warning_, binding_warning_;
  int thread_share_ = 0;
};

// Runs `work`, which may fail on some processes only, and then has every process learn of the
// first failure (Comm::first_error), which all throw as an AgreedError. `out_of_memory` names what
// a process ran out of memory for. Without several processes, `work` runs and its errors pass
// through as they are.
template <class Work>
void agreed(const Comm* comm, const std::string& out_of_memory, Work&& work) {
  if (!comm || comm->size() == 1) return work();
  std::string failure, known;
  try {
    work();
  } catch (const AgreedError& e) {  // all know it already, with the failing process named
    failure = known = e.what();
  } catch (const std::bad_alloc&) { failure = "out of memory " + out_of_memory; } catch (const std::exception& e) {
    failure = *e.what() ? e.what() : "an error without a message";
  }
  const std::string error = comm->first_error(failure);
  if (!error.empty()) throw AgreedError(known.empty() ? error : known);
}

// The numbers 0, 1, 2, ... each handed to whichever process asks for the next one first: work
// (the frames of a scene) dealt out as processes become free, so that a process with slow frames
// takes fewer. Making and destroying one are collective; next() is not. (With MPI a one-sided
// fetch-and-add on rank 0's memory: no process waits for rank 0 to finish what it is doing,
// where the MPI transport does atomics itself, as shared memory within a node does.)
class SharedCounter {
 public:
  explicit SharedCounter(const Comm& comm);
  ~SharedCounter();
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;

  std::uint64_t next();

 private:
  struct Window;
  std::unique_ptr<Window> window_;  // null without MPI
  std::uint64_t local_ = 0;         // without MPI
};

// The processes of a node one after the other, by rank: each takes its turn once the one before
// it has passed it on. For work that every process does alike and that contends for the node's
// memory and cores, the first read of a snapshot that each process of dealt-out frames holds
// whole: on 2 x H100 two processes reading, normalising and copying 10^8 particles at once took
// 0.8 s each before their first frame, one alone 0.27 s with all the cores. The turns run
// within SPLOTCH_NODE_PROCESSES's groups where that is set. Neither making one nor its calls are
// collective; a process that has not passed its turn passes it when the object goes, so that the
// next one never waits for one that had nothing to do (but destroy it before a collective call
// that the next process may reach only after its turn).
class NodeTurns {
 public:
  explicit NodeTurns(const Comm& comm) : comm_(comm) {}
  ~NodeTurns();
  NodeTurns(const NodeTurns&) = delete;
  NodeTurns& operator=(const NodeTurns&) = delete;

  // Waits, asleep, for this process's turn: true for the first call, which has taken it; later
  // ones return false at once.
  bool take();
  // Passes the turn on to the node's next process, taking it first where not yet taken (the
  // first call; later ones return at once).
  void pass();
  // The threads of a process in its turn, which has `own` threads: its node's processes' (the
  // others wait, or draw on their GPUs), at most the cores it may run on (so more than `own` only
  // where OMP_NUM_THREADS shares the cores out).
  int threads(int own) const;

 private:
  const Comm& comm_;
  bool taken_ = false, passed_ = false;
};

}  // namespace splotch
