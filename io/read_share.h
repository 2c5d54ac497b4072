// Which part of a snapshot one process of an MPI run reads (DESIGN.md section 6). Where the
// snapshot has at least as many files as there are parts, whole files: the files in order, split
// where the particles to read (of all render types together) are shared out evenly. Otherwise, of
// each render type's particles, taken in file order over all files, the part-th of `parts`
// contiguous slices, whose sizes differ by one at most: a piece of each block or dataset.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

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
  // Each render type's [first, last), in file order over all files, from counts[f][n], render
  // type n's particles in file f. With whole files, a file goes to the part whose slice of all the
  // particles to read holds the file's first one.
  std::vector<std::pair<std::size_t, std::size_t>> ranges(const std::vector<std::vector<std::size_t>>& counts,
                                                           std::size_t types) const {
    std::vector<std::pair<std::size_t, std::size_t>> out(types, {0, 0});
    if (counts.size() < std::size_t(parts)) {  // slices
      for (std::size_t n = 0; n < types; ++n) {
        std::size_t total = 0;
        for (const auto& file : counts) total += file[n];
        out[n] = of(total);
      }
      return out;
    }
    std::size_t all = 0;
    for (const auto& file : counts)
      for (std::size_t c : file) all += c;
    const auto [lo, hi] = of(all);
    std::size_t before = 0;  // the particles of the files before
    for (const auto& file : counts) {
      std::size_t in_file = 0;
      for (std::size_t n = 0; n < types; ++n) {
        if (before < lo) out[n].first += file[n];
        if (before < hi) out[n].second += file[n];
        in_file += file[n];
      }
      before += in_file;
    }
    return out;
  }

 private:
  std::size_t slice_start(std::size_t total, int k) const {
    // total * k / parts without overflow for any total below 2^64 / 2^31
    return std::size_t((unsigned __int128)total * unsigned(k) / unsigned(parts));
  }
};

}  // namespace splotch
