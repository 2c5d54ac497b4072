// The processes of an MPI run (make MPI=1): MPI_COMM_WORLD, where a launcher started the process;
// otherwise the one process, without MPI. MPI is called from the main thread only
// (MPI_THREAD_FUNNELED); OpenMP and the GPU's start-up thread do not call it.
#include <mpi.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "splotch/mpi/comm.h"
#include "splotch/mpi/launcher.h"

namespace splotch {
namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// Waits for `request` asleep, a millisecond at a time: MPI's own waits poll a core, which slows
// the threads of the node's other processes.
void sleep_until_done(MPI_Request& request) {
  int done = 0;
  while (!done) {
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// MPI counts are ints: larger arrays go in pieces.
constexpr std::size_t max_count = std::size_t(1) << 30;

// Between nodes the image reductions go to rank 0 directly (rank 0 takes in every other node's
// image: through a tree for the sum, one after the other for the compositing, whose operation is
// not commutative) or by bands (each node reduces one band of the image from every node, and rank
// 0 gathers the bands: each moves about two images whatever the number of nodes).
// tests/bench/bench_reduce.sh at 4096^2 on a 16-core node, through MPI between processes (seconds,
// direct / bands): the sum 0.20 / 0.40 with 2 processes, 0.49 / 0.42 with 4, 0.75 / 0.51 with 16;
// the compositing 0.44 / 0.25 with 2, 0.89 / 0.28 with 4, 3.11 / 0.60 with 16. So by bands from
// these numbers on. Within a node the processes share memory instead (Comm::Node).
constexpr int sum_by_bands_from = 4, composite_by_bands_from = 2;

bool by_bands(ImageReduction how, int processes, int from, std::size_t n) {
  if (n > std::size_t(INT_MAX)) return false;  // MPI's counts and offsets are ints
  return how == ImageReduction::bands || (how == ImageReduction::automatic && processes >= from);
}

// `n` items cut into one band per process: process q's from at[q], count[q] long.
struct Bands {
  std::vector<int> count, at;
  Bands(std::size_t n, int processes) : count(std::size_t(processes)), at(std::size_t(processes)) {
    for (int q = 0; q < processes; ++q) {
      const std::size_t begin = n * std::size_t(q) / std::size_t(processes);
      const std::size_t end = n * std::size_t(q + 1) / std::size_t(processes);
      at[std::size_t(q)] = int(begin);
      count[std::size_t(q)] = int(end - begin);
    }
  }
};

// A communicator and this process's place in it.
struct Group {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
};

Group group_of(MPI_Comm comm) {
  Group g;
  g.comm = comm;
  if (comm == MPI_COMM_NULL) return g;
  MPI_Comm_rank(comm, &g.rank);
  MPI_Comm_size(comm, &g.size);
  return g;
}

// `count` floats from `from` to `to` on all threads: a 4096^2 image is 200 MB, and one thread
// copies it in about 0.05 s.
void copy_floats(float* to, const float* from, std::size_t count) {
  const long pieces = long((count + (1 << 20) - 1) >> 20);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < pieces; ++k) {
    const std::size_t begin = std::size_t(k) << 20, end = std::min(count, begin + (std::size_t(1) << 20));
    std::copy(from + begin, from + end, to + begin);
  }
}

// The sum of `count` floats over a group, in place on its rank 0: `band` holds this process's
// band of them where by bands.
void reduce_sum(const Group& g, float* values, std::size_t count, bool bands, ParticleArray<float>& band) {
  if (g.size == 1) return;
  if (!bands) {  // in pieces: MPI's counts are ints
    for (std::size_t done = 0; done < count; done += max_count) {
      const int n = int(std::min(max_count, count - done));
      float* v = values + done;
      check(MPI_Reduce(g.rank == 0 ? MPI_IN_PLACE : v, g.rank == 0 ? v : nullptr, n, MPI_FLOAT, MPI_SUM, 0, g.comm),
            "MPI_Reduce");
    }
    return;
  }
  const Bands b(count, g.size);
  check(MPI_Reduce_scatter(values, band.data(), b.count.data(), MPI_FLOAT, MPI_SUM, g.comm), "MPI_Reduce_scatter");
  check(MPI_Gatherv(band.data(), b.count[std::size_t(g.rank)], MPI_FLOAT, values, b.count.data(), b.at.data(),
                    MPI_FLOAT, 0, g.comm),
        "MPI_Gatherv");
}

// MPI_Init_thread with SIGINT and SIGTERM blocked in this thread, so that the threads MPI starts
// (Open MPI's progress and PMIx threads), which inherit its signal mask, never take them: the
// process's own handling (the server's stop on Ctrl-C, io/interrupt_cleanup.h) runs instead of
// the default end by the signal, which is what `--serve` stopped by Ctrl-C met when one of them
// took it.
void start_mpi(int& argc, char**& argv) {
  sigset_t interrupts, before;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &interrupts, &before);
  int provided = 0;
  const int code = MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  check(code, "MPI_Init_thread");
}

}  // namespace

// Memory that the processes of a node share (an MPI shared-memory window): a segment of each
// process's, which every process of the node reads and writes where it lies.
struct SharedWindow {
  MPI_Win window = MPI_WIN_NULL;
  std::size_t floats = 0;        // the window's floats per process
  std::vector<float*> segments;  // each process's, by its rank on the node
  // Touches this process's segment (Comm::prepare_reduction): the first touch of 200 MB of shared
  // pages took 0.07 s on the H200 node, which a frame's read hides.
  std::thread toucher;

  SharedWindow() = default;
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;
  ~SharedWindow() { release(); }
  // The segment is this process's to write (the toucher is done).
  void ready() {
    if (toucher.joinable()) toucher.join();
  }
  void release() {
    ready();
    if (window == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(window);
    MPI_Win_free(&window);
    floats = 0;
    segments.clear();
  }
  // A window of at least `count` floats per process (collective on `node`); false where this
  // process could not have it.
  bool reserve(std::size_t count, const Group& node) {
    ready();
    if (count <= floats) return true;
    release();
    // Open MPI backs the window with a file in /dev/shm, which a container may keep small (64 MB
    // under Docker): where it has not the room, the allocation fails on some processes while the
    // others wait in it. So the node's first process looks, and all go on or give up together.
    int room = 1;
    if (node.rank == 0) {
      struct statvfs shm;
      const double wanted = double(node.size) * double(count) * sizeof(float) + double(64 << 20);
      if (::statvfs("/dev/shm", &shm) == 0) room = double(shm.f_bavail) * double(shm.f_frsize) >= wanted ? 1 : 0;
    }
    check(MPI_Bcast(&room, 1, MPI_INT, 0, node.comm), "MPI_Bcast");
    if (!room) return false;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each segment in its own process's pages
    float* base = nullptr;
    const int code = MPI_Win_allocate_shared(MPI_Aint(std::max<std::size_t>(count, 1) * sizeof(float)),
                                             int(sizeof(float)), info, node.comm, &base, &window);
    MPI_Info_free(&info);
    // (a failure here may be this process's alone, with the others still inside the call)
    check(code, "MPI_Win_allocate_shared");
    MPI_Win_set_errhandler(window, MPI_ERRORS_RETURN);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
    segments.assign(std::size_t(node.size), nullptr);
    for (int q = 0; q < node.size; ++q) {
      MPI_Aint bytes = 0;
      int unit = 0;
      check(MPI_Win_shared_query(window, q, &bytes, &unit, &segments[std::size_t(q)]), "MPI_Win_shared_query");
    }
    floats = count;
    return true;
  }
  // What every process of the node wrote to the window before is seen by all of them after.
  void synchronize(const Group& node) const {
    check(MPI_Win_sync(window), "MPI_Win_sync");
    check(MPI_Barrier(node.comm), "MPI_Barrier");
    check(MPI_Win_sync(window), "MPI_Win_sync");
  }
};

namespace {

// The OpenMP threads of a process where OMP_NUM_THREADS is not set: the cores it may run on
// (its affinity, as the launcher bound it) over the node's processes that may run on them too;
// and a warning where the binding gives it fewer cores than its share of the node's.
struct CoreShare {
  int threads = 0;
  std::string warning;
};
CoreShare share_cores(MPI_Comm node, int node_size, int rank) {
  CoreShare share;
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (::sched_getaffinity(0, sizeof mine, &mine) != 0) return share;
  std::vector<cpu_set_t> all(static_cast<std::size_t>(node_size));
  check(MPI_Allgather(&mine, int(sizeof mine), MPI_BYTE, all.data(), int(sizeof mine), MPI_BYTE, node),
        "MPI_Allgather");
  // The node's processes that may run on some core of this one's (itself among them).
  int sharers = 0;
  for (const cpu_set_t& other : all) {
    cpu_set_t both;
    CPU_AND(&both, &mine, &other);
    if (CPU_COUNT(&both) > 0) ++sharers;
  }
  const int cores = CPU_COUNT(&mine);
  share.threads = std::max(1, cores / std::max(1, sharers));
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0 && cores < online / node_size)
    share.warning = "process " + std::to_string(rank) + " may run on " + std::to_string(cores) + " of its node's " +
                    std::to_string(online) +
                    " cores: the launcher bound it (Open MPI's mpirun binds each process to one core, or with "
                    "more than 2 processes to one socket); mpirun --bind-to none lets the node's processes share "
                    "its cores (each then takes its share of threads), or give each its cores "
                    "(--map-by slot:PE=N)";
  return share;
}

}  // namespace

// The processes of one node, which share memory. The images: each process puts its image (or
// layer) in a window they share, and each reduces one band of the pixels from all of them,
// reading the others' images where they lie; on the 2-GPU H200 node the sum of two 4096^2 images
// took 0.019 s so, against 0.132 s by MPI_Reduce (MPI's shared-memory transport, one thread
// summing). The window is kept for the next image of the run.
struct Comm::Node {
  Group node;     // this node's processes (SPLOTCH_NODE_PROCESSES: at most that many of them)
  Group leaders;  // the first process of each node; MPI_COMM_NULL on the others
  int nodes = 1;  // how many, on every process
  // Whether the node's processes have consecutive ranks, on every node: then the node's layers
  // composite in rank order.
  bool consecutive = false;
  SharedWindow images;

  ~Node() {
    images.release();
    if (leaders.comm != MPI_COMM_NULL) MPI_Comm_free(&leaders.comm);
    if (node.comm != MPI_COMM_NULL) MPI_Comm_free(&node.comm);
  }
  // This process's band of `n` items of the node.
  std::pair<std::size_t, std::size_t> band(std::size_t n) const {
    return {n * std::size_t(node.rank) / std::size_t(node.size),
            n * std::size_t(node.rank + 1) / std::size_t(node.size)};
  }
};

Comm::Comm(int& argc, char**& argv) {
  const Launch launch = mpi_launch([](const char* name) { return std::getenv(name); });
  launch_warning_ = launch.warning;
  if (launch.by.empty()) return;  // started by hand: one process, as in the default build
  for (const auto& [name, value] : launch.settings) ::setenv(name.c_str(), value.c_str(), 0);
  const auto began = std::chrono::steady_clock::now();
  start_mpi(argc, argv);
  start_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  with_mpi_ = true;
  // Errors come back as codes (and become exceptions) rather than ending the job unexplained.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size_);
  node_id_ = rank_;
  check(MPI_Bcast(&node_id_, 1, MPI_INT, 0, node), "MPI_Bcast");
  const CoreShare cores = share_cores(node, node_size_, rank_);
  thread_share_ = cores.threads;
  binding_warning_ = cores.warning;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const int sees = int(std::hash<std::string>{}(visible ? visible : "*") & 0x7fffffff);
  MPI_Comm same_gpus;
  check(MPI_Comm_split(node, sees, node_rank, &same_gpus), "MPI_Comm_split");
  MPI_Comm_rank(same_gpus, &gpu_index_);
  MPI_Comm_free(&same_gpus);
  // SPLOTCH_PROCESSES_PER_GPU=k: k processes share each GPU (to try the scaling model with more
  // processes than GPUs; a GPU's memory is then shared too).
  const char* per_gpu = std::getenv("SPLOTCH_PROCESSES_PER_GPU");
  if (per_gpu && std::atoi(per_gpu) > 1) gpu_index_ /= std::atoi(per_gpu);
  // For the image reductions: the node's processes, or groups of SPLOTCH_NODE_PROCESSES of them
  // standing in for nodes (tests and benchmarks of several nodes on one).
  node_ = std::make_unique<Node>();
  const char* per_node = std::getenv("SPLOTCH_NODE_PROCESSES");
  const int group = per_node && std::atoi(per_node) > 0 ? std::atoi(per_node) : node_size_;
  check(MPI_Comm_split(node, node_rank / group, node_rank, &node_->node.comm), "MPI_Comm_split");
  MPI_Comm_free(&node);
  node_->node = group_of(node_->node.comm);
  check(MPI_Comm_split(MPI_COMM_WORLD, node_->node.rank == 0 ? 0 : MPI_UNDEFINED, rank_, &node_->leaders.comm),
        "MPI_Comm_split");
  node_->leaders = group_of(node_->leaders.comm);
  int first = rank_;  // the node's first process's rank
  check(MPI_Bcast(&first, 1, MPI_INT, 0, node_->node.comm), "MPI_Bcast");
  int leader = node_->node.rank == 0 ? 1 : 0;
  check(MPI_Allreduce(&leader, &node_->nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  node_->consecutive = all(rank_ == first + node_->node.rank);
}

int Comm::nodes() const { return node_ ? node_->nodes : 1; }

void Comm::wait_for_all() const {
  if (!with_mpi_ || size_ == 1) return;
  MPI_Request request;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  sleep_until_done(request);
}

Comm::~Comm() {
  // The collective calls that end MPI (the node's window freed, MPI_Finalize) poll a core while
  // they wait: a process done early (the others of a frame rank 0 draws alone) waits asleep.
  try {
    wait_for_all();
  } catch (const std::exception&) {  // (MPI_Finalize says what is wrong)
  }
  node_.reset();  // its window and communicators before MPI's end
  if (with_mpi_) MPI_Finalize();
}

void Comm::abort(int status) const {
  if (with_mpi_) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);  // (MPI_Abort does not return)
}

std::string Comm::first_error(const std::string& local) const {
  if (size_ == 1) return local;
  const int mine = local.empty() ? INT_MAX : rank_, failed = local.empty() ? 0 : 1;
  int first = INT_MAX, failures = 0;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == INT_MAX) return "";
  check(MPI_Allreduce(&failed, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  std::string message = rank_ == first ? local : std::string();
  int length = int(message.size());
  check(MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD), "MPI_Bcast");
  message.resize(std::size_t(length));
  check(MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD), "MPI_Bcast");
  // What every process met (a key's bad value) needs no process named.
  if (failures == size_) return message;
  return "process " + std::to_string(first) + " of " + std::to_string(size_) + ": " + message;
}

void Comm::min_max(std::vector<float>& mins, std::vector<float>& maxs) const {
  if (size_ == 1) return;
  check(MPI_Allreduce(MPI_IN_PLACE, mins.data(), int(mins.size()), MPI_FLOAT, MPI_MIN, MPI_COMM_WORLD),
        "MPI_Allreduce");
  check(MPI_Allreduce(MPI_IN_PLACE, maxs.data(), int(maxs.size()), MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

std::uint64_t Comm::sum(std::uint64_t value) const {
  std::uint64_t total = value;
  if (size_ > 1) check(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return total;
}

bool Comm::all(bool value) const {
  int mine = value ? 1 : 0, every = mine;
  if (size_ > 1) check(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return every != 0;
}

void Comm::prepare_reduction(std::size_t floats, bool layers) const {
  if (size_ == 1) return;
  Node& n = *node_;
  if (layers && !n.consecutive) return;  // (agreed on all) the layers composite through MPI alone
  const bool has = n.node.size == 1 || floats <= n.images.floats;    // (alike on a node's processes)
  if (!all(has || n.images.reserve(floats, n.node)) || has) return;  // (a reduction then goes through MPI alone)
  float* mine = n.images.segments[std::size_t(n.node.rank)];
  n.images.toucher = std::thread([mine, floats] { std::fill(mine, mine + floats, 0.0f); });
}

void Comm::sum_to_root(float* values, std::size_t count, ImageReduction how) const {
  if (size_ == 1) return;
  // The node's shared window, where every process has it; else through MPI alone.
  const bool shared =
      how == ImageReduction::automatic && all(node_->node.size == 1 || node_->images.reserve(count, node_->node));
  Group across = group_of(MPI_COMM_WORLD);
  bool bands = by_bands(how, size_, sum_by_bands_from, count);
  if (shared) {
    if (node_->node.size > 1) {
      Node& n = *node_;
      copy_floats(n.images.segments[std::size_t(n.node.rank)], values, count);
      n.images.synchronize(n.node);
      const auto [begin, end] = n.band(count);
      const long b = long(begin), e = long(end), q_end = n.node.size;
      float* const* seg = n.images.segments.data();
#pragma omp parallel for schedule(static)
      for (long i = b; i < e; ++i) {
        float sum = seg[0][i];
        for (long q = 1; q < q_end; ++q) sum += seg[q][i];
        seg[0][i] = sum;
      }
      n.images.synchronize(n.node);
      if (n.node.rank == 0) copy_floats(values, seg[0], count);
    }
    across = node_->leaders;
    bands = by_bands(how, node_->nodes, sum_by_bands_from, count);
  }
  ParticleArray<float> band;
  agreed(this, "for a band of the image", [&] {
    if (bands && across.comm != MPI_COMM_NULL) band.resize(std::size_t(Bands(count, across.size).count[across.rank]));
  });
  if (across.comm != MPI_COMM_NULL) reduce_sum(across, values, count, bands, band);
}

void Comm::sum(std::vector<std::uint64_t>& values) const {
  if (size_ == 1) return;
  for (std::size_t done = 0; done < values.size(); done += max_count)
    check(MPI_Allreduce(MPI_IN_PLACE, values.data() + done, int(std::min(max_count, values.size() - done)),
                        MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

void Comm::broadcast(std::vector<std::uint64_t>& values) const {
  if (size_ == 1) return;
  std::uint64_t count = values.size();
  check(MPI_Bcast(&count, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  values.resize(std::size_t(count));
  for (std::size_t done = 0; done < values.size(); done += max_count)
    check(MPI_Bcast(values.data() + done, int(std::min(max_count, values.size() - done)), MPI_UINT64_T, 0,
                    MPI_COMM_WORLD),
          "MPI_Bcast");
}

std::vector<std::uint64_t> Comm::gather_all(const std::vector<std::uint64_t>& mine) const {
  if (size_ == 1) return mine;
  std::vector<std::uint64_t> all(mine.size() * std::size_t(size_));
  check(MPI_Allgather(mine.data(), int(mine.size()), MPI_UINT64_T, all.data(), int(mine.size()), MPI_UINT64_T,
                      MPI_COMM_WORLD),
        "MPI_Allgather");
  return all;
}

namespace {

// A datatype of one record, for the life of the object.
class RecordType {
 public:
  explicit RecordType(std::size_t bytes) {
    check(MPI_Type_contiguous(int(bytes), MPI_BYTE, &type_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  ~RecordType() { MPI_Type_free(&type_); }
  RecordType(const RecordType&) = delete;
  RecordType& operator=(const RecordType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// MPI's counts and offsets are ints.
std::vector<int> as_counts(const std::vector<std::size_t>& counts, std::vector<int>& offsets) {
  std::vector<int> out;
  std::size_t at = 0;
  offsets.clear();
  for (std::size_t c : counts) {
    if (c > std::size_t(INT_MAX) || at > std::size_t(INT_MAX))
      throw std::runtime_error("more than 2^31 particles to pass between two processes: use more processes");
    out.push_back(int(c));
    offsets.push_back(int(at));
    at += c;
  }
  return out;
}

// (C, T) of a later process over (C, T) of an earlier one, six floats per pixel: MPI calls it
// with `earlier` the lower ranks' part, and the result goes to `later`.
void composite_over(void* earlier_v, void* later_v, int* pixels, MPI_Datatype*) {
  const float* earlier = static_cast<const float*>(earlier_v);
  float* later = static_cast<float*>(later_v);
  const long n = long(*pixels);
  // MPI calls this on the main thread; the threads it starts do not call MPI.
#pragma omp parallel for schedule(static) if (n > 32768)
  for (long p = 0; p < n; ++p)
    for (long c = 0; c < 3; ++c) {
      later[6 * p + c] += later[6 * p + 3 + c] * earlier[6 * p + c];
      later[6 * p + 3 + c] *= earlier[6 * p + 3 + c];
    }
}

// The colours C of layers (C, T) of six floats a pixel, into `rgb`.
void colours_of(const float* layers, std::size_t pixels, float* rgb) {
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < pixels; ++p)
    for (std::size_t c = 0; c < 3; ++c) rgb[3 * p + c] = layers[6 * p + c];
}

void composite_directly(const Group& g, float* layers, std::size_t pixels) {
  if (g.size == 1) return;
  const RecordType pixel(6 * sizeof(float));
  MPI_Op over;
  check(MPI_Op_create(&composite_over, 0 /* not commutative: in rank order */, &over), "MPI_Op_create");
  try {
    for (std::size_t done = 0; done < pixels; done += max_count / 8) {
      const int n = int(std::min(max_count / 8, pixels - done));
      float* v = layers + 6 * done;
      check(MPI_Reduce(g.rank == 0 ? MPI_IN_PLACE : v, g.rank == 0 ? v : nullptr, n, pixel.get(), over, 0, g.comm),
            "MPI_Reduce");
    }
  } catch (...) {
    MPI_Op_free(&over);
    throw;
  }
  MPI_Op_free(&over);
}

// The processes' layers of group `g` composited, in rank order, into its rank 0's `rgb` (all
// processes of the run call it: they agree on its memory).
void composite_across(const Comm& comm, const Group& g, float* layers, std::size_t pixels, float* rgb, bool bands) {
  // (every process takes part in the agreement on memory; those outside `g` then wait)
  const Bands b(pixels, g.comm == MPI_COMM_NULL ? 1 : g.size);
  const int band = g.comm == MPI_COMM_NULL ? 0 : b.count[std::size_t(g.rank)];
  ParticleArray<float> received, colour;
  agreed(&comm, "for the layers of a band of the image", [&] {
    if (!bands || g.comm == MPI_COMM_NULL) return;
    received.resize(6 * std::size_t(band) * std::size_t(g.size));
    colour.resize(3 * std::size_t(band));
  });
  if (g.comm == MPI_COMM_NULL) return;
  if (!bands) {
    composite_directly(g, layers, pixels);
    if (g.rank == 0) colours_of(layers, pixels, rgb);
    return;
  }
  // What comes: each process's layer of this band, process after process.
  const std::vector<int> from(std::size_t(g.size), band);
  std::vector<int> from_at(static_cast<std::size_t>(g.size));
  for (int p = 0; p < g.size; ++p) from_at[std::size_t(p)] = p * band;
  const RecordType layer(6 * sizeof(float)), pixel(3 * sizeof(float));
  check(MPI_Alltoallv(layers, b.count.data(), b.at.data(), layer.get(), received.data(), from.data(), from_at.data(),
                      layer.get(), g.comm),
        "MPI_Alltoallv");
  // Each later layer over what lies under it: C = C_p + T_p C. (The product of the T is not needed.)
  const float* r = received.data();
  const long n = band, k = g.size;
#pragma omp parallel for schedule(static) if (n > 32768)
  for (long i = 0; i < n; ++i)
    for (long c = 0; c < 3; ++c) {
      float sum = r[6 * i + c];
      for (long p = 1; p < k; ++p) sum = r[6 * (p * n + i) + c] + r[6 * (p * n + i) + 3 + c] * sum;
      colour[std::size_t(3 * i + c)] = sum;
    }
  check(MPI_Gatherv(colour.data(), band, pixel.get(), rgb, b.count.data(), b.at.data(), pixel.get(), 0, g.comm),
        "MPI_Gatherv");
}

}  // namespace

ParticleArray<char> Comm::exchange(const ParticleArray<char>& send, const std::vector<std::size_t>& to,
                                   std::size_t record_bytes, std::vector<std::size_t>& from) const {
  if (size_ == 1) {
    from = to;
    return send;
  }
  std::vector<std::uint64_t> to64(to.begin(), to.end()), from64(to.size());
  check(MPI_Alltoall(to64.data(), 1, MPI_UINT64_T, from64.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD), "MPI_Alltoall");
  from.assign(from64.begin(), from64.end());
  std::size_t total = 0;
  for (std::size_t c : from) total += c;
  ParticleArray<char> received;  // not zero-filled: all of it is written
  std::vector<int> send_counts, receive_counts, send_at, receive_at;
  agreed(this, "for the " + std::to_string(total) + " particles other processes pass it", [&] {
    send_counts = as_counts(to, send_at);
    receive_counts = as_counts(from, receive_at);
    received.resize(total * record_bytes);
  });
  const RecordType record(record_bytes);
  check(MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), record.get(), received.data(),
                      receive_counts.data(), receive_at.data(), record.get(), MPI_COMM_WORLD),
        "MPI_Alltoallv");
  return received;
}

void Comm::composite_to_root(float* layers, std::size_t pixels, float* rgb, ImageReduction how) const {
  if (size_ == 1) return colours_of(layers, pixels, rgb);  // (MPI may not have started)
  // Within each node through its shared window, where every node's processes have consecutive
  // ranks (their layers composite in order) and every process has the window; then across nodes.
  const bool shared = how == ImageReduction::automatic && node_->consecutive &&
                      all(node_->node.size == 1 || node_->images.reserve(6 * pixels, node_->node));
  if (!shared)
    return composite_across(*this, group_of(MPI_COMM_WORLD), layers, pixels, rgb,
                            by_bands(how, size_, composite_by_bands_from, pixels));
  Node& n = *node_;
  if (n.node.size > 1) {
    copy_floats(n.images.segments[std::size_t(n.node.rank)], layers, 6 * pixels);
    n.images.synchronize(n.node);
    // This process's band of the node's pixels: each later layer over what lies under it,
    // C = C_q + T_q C and T = T_q T (the node's T, for the nodes after it), into the first's.
    const auto [begin, end] = n.band(pixels);
    const long b = long(begin), e = long(end), q_end = n.node.size;
    float* const* seg = n.images.segments.data();
#pragma omp parallel for schedule(static)
    for (long p = b; p < e; ++p)
      for (long c = 0; c < 3; ++c) {
        float colour = seg[0][6 * p + c], through = seg[0][6 * p + 3 + c];
        for (long q = 1; q < q_end; ++q) {
          colour = seg[q][6 * p + c] + seg[q][6 * p + 3 + c] * colour;
          through *= seg[q][6 * p + 3 + c];
        }
        seg[0][6 * p + c] = colour;
        seg[0][6 * p + 3 + c] = through;
      }
    n.images.synchronize(n.node);
    if (n.node.rank == 0) copy_floats(layers, seg[0], 6 * pixels);
  }
  composite_across(*this, n.leaders, layers, pixels, rgb, by_bands(how, n.nodes, composite_by_bands_from, pixels));
}

// The turn passes as an empty message from a node's process to the next one.
constexpr int turn_tag = 37;

NodeTurns::~NodeTurns() {
  try {
    pass();
  } catch (const std::exception&) {  // MPI failed: the job ends, and the next process with it
  }
}

bool NodeTurns::take() {
  if (std::exchange(taken_, true)) return false;
  if (!comm_.node_ || comm_.node_->node.rank == 0) return true;
  // Asleep, as wait_for_all: MPI_Recv would poll a core while the process in turn reads.
  MPI_Request request;
  check(MPI_Irecv(nullptr, 0, MPI_BYTE, comm_.node_->node.rank - 1, turn_tag, comm_.node_->node.comm, &request),
        "MPI_Irecv");
  sleep_until_done(request);
  return true;
}

void NodeTurns::pass() {
  take();
  if (std::exchange(passed_, true) || !comm_.node_ || comm_.node_->node.rank + 1 >= comm_.node_->node.size) return;
  check(MPI_Send(nullptr, 0, MPI_BYTE, comm_.node_->node.rank + 1, turn_tag, comm_.node_->node.comm), "MPI_Send");
}

int NodeTurns::threads(int own) const {
  const int node = comm_.node_ ? comm_.node_->node.size : 1;
  return std::max(own, std::min(omp_get_num_procs(), own * node));
}

struct SharedCounter::Window {
  MPI_Win win = MPI_WIN_NULL;
};

SharedCounter::SharedCounter(const Comm& comm) {
  if (!comm.with_mpi()) return;
  window_ = std::make_unique<Window>();
  std::uint64_t* base = nullptr;
  const MPI_Aint bytes = comm.root() ? MPI_Aint(sizeof(std::uint64_t)) : 0;
  check(MPI_Win_allocate(bytes, sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &window_->win),
        "MPI_Win_allocate");
  MPI_Win_set_errhandler(window_->win, MPI_ERRORS_RETURN);
  if (comm.root()) {
    const std::uint64_t zero = 0;
    check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window_->win), "MPI_Win_lock");
    check(MPI_Put(&zero, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T, window_->win), "MPI_Put");
    check(MPI_Win_unlock(0, window_->win), "MPI_Win_unlock");
  }
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");  // no process counts before it is zero
}

SharedCounter::~SharedCounter() {
  if (window_) MPI_Win_free(&window_->win);
}

std::uint64_t SharedCounter::next() {
  if (!window_) return local_++;
  const std::uint64_t one = 1;
  std::uint64_t got = 0;
  check(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window_->win), "MPI_Win_lock");
  check(MPI_Fetch_and_op(&one, &got, MPI_UINT64_T, 0, 0, MPI_SUM, window_->win), "MPI_Fetch_and_op");
  check(MPI_Win_unlock(0, window_->win), "MPI_Win_unlock");
  return got;
}

}  // namespace splotch
