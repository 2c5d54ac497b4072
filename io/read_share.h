// Which part of a snapshot one process of an MPI run reads (DESIGN.md section 6): of each render
// type's particles, taken in file order over all files, the part-th of `parts` contiguous slices,
// whose sizes differ by one at most. A slice follows the files, so where a snapshot has many files
// a process reads whole files, or nearly; where it has few, a piece of each block or dataset.
#pragma once

#include <cstddef>
#include <utility>

namespace splotch {

struct ReadShare {
  int part = 0, parts = 1;

  bool whole() const { return parts == 1; }
  // [first, last) of `total` particles.
  std::pair<std::size_t, std::size_t> of(std::size_t total) const {
    return {slice_start(total, part), slice_start(total, part + 1)};
  }
  std::size_t size_of(std::size_t total) const {
    const auto [first, last] = of(total);
    return last - first;
  }

 private:
  std::size_t slice_start(std::size_t total, int k) const {
    // total * k / parts without overflow for any total below 2^64 / 2^31
    return std::size_t((unsigned __int128)total * unsigned(k) / unsigned(parts));
  }
};

}  // namespace splotch
