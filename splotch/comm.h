// The processes of an MPI run, as the pipeline needs them (DESIGN.md section 6): which one this
// is, agreement on failures, and the few reductions of the data-parallel mode. A build without
// MPI (the default; splotch/no_mpi.cc) has one process and no MPI library at all; `make MPI=1`
// links splotch/mpi_comm.cc.
//
// Failures follow one rule so that no process waits forever for one that has given up: work
// that may fail on some processes only is followed by first_error(), which every process calls
// the same number of times, before any other collective call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace splotch {

class Comm {
 public:
  // Starts MPI (when built with it) for the life of the object; main() makes one.
  Comm(int& argc, char**& argv);
  ~Comm();
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  // Every process passes its error ("" for none) and gets the first one by rank, "" when none
  // failed; with several processes the message says which failed.
  std::string first_error(const std::string& local) const;
  // Element-wise minimum of `mins` and maximum of `maxs` over all processes, in place.
  void min_max(std::vector<float>& mins, std::vector<float>& maxs) const;
  std::uint64_t sum(std::uint64_t value) const;
  // The element-wise sum over all processes, in place on rank 0 (other ranks' values are left
  // as they were).
  void sum_to_root(float* values, std::size_t count) const;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace splotch
