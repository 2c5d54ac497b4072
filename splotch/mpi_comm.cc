// The processes of an MPI run (make MPI=1): MPI_COMM_WORLD. MPI is called from the main thread
// only (MPI_THREAD_FUNNELED); OpenMP and the GPU's start-up thread do not call it.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "splotch/comm.h"

namespace splotch {
namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// MPI counts are ints: larger arrays go in pieces.
constexpr std::size_t max_count = std::size_t(1) << 30;

}  // namespace

Comm::Comm(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (and become exceptions) rather than ending the job unexplained.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  MPI_Comm_rank(node, &node_rank_);
  MPI_Comm_size(node, &node_size_);
  MPI_Comm_free(&node);
}

Comm::~Comm() { MPI_Finalize(); }

std::string Comm::first_error(const std::string& local) const {
  if (size_ == 1) return local;
  const int mine = local.empty() ? INT_MAX : rank_;
  int first = INT_MAX;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == INT_MAX) return "";
  std::string message = rank_ == first ? local : std::string();
  int length = int(message.size());
  check(MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD), "MPI_Bcast");
  message.resize(std::size_t(length));
  check(MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD), "MPI_Bcast");
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
  if (size_ > 1)
    check(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return total;
}

bool Comm::all(bool value) const {
  int mine = value ? 1 : 0, every = mine;
  if (size_ > 1) check(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return every != 0;
}

void Comm::sum_to_root(float* values, std::size_t count) const {
  if (size_ == 1) return;
  for (std::size_t done = 0; done < count; done += max_count) {
    const int n = int(std::min(max_count, count - done));
    float* v = values + done;
    check(MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : v, rank_ == 0 ? v : nullptr, n, MPI_FLOAT, MPI_SUM, 0,
                     MPI_COMM_WORLD),
          "MPI_Reduce");
  }
}

struct SharedCounter::Window {
  MPI_Win win = MPI_WIN_NULL;
};

SharedCounter::SharedCounter(const Comm& comm) : window_(std::make_unique<Window>()) {
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

SharedCounter::~SharedCounter() { MPI_Win_free(&window_->win); }

std::uint64_t SharedCounter::next() {
  const std::uint64_t one = 1;
  std::uint64_t got = 0;
  check(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window_->win), "MPI_Win_lock");
  check(MPI_Fetch_and_op(&one, &got, MPI_UINT64_T, 0, 0, MPI_SUM, window_->win), "MPI_Fetch_and_op");
  check(MPI_Win_unlock(0, window_->win), "MPI_Win_unlock");
  return got;
}

}  // namespace splotch
