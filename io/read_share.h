// Which part of a snapshot one process of an MPI run reads (docs/design.md section 6). Where the
// snapshot has at least as many files as there are parts, and they are of sizes that share out
// about evenly, whole files: the files in order, split where the particles to read (of all render
// types together) are shared out evenly. Otherwise, of
// each render type's particles, taken in file order over all files, the part-th of `parts`
// contiguous slices, whose sizes differ by one at most: a piece of each block or dataset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace splotch {

struct ReadShare {
  ReadShare() = default;
  ReadShare(int part_, int parts_) : part(part_), parts(parts_) {}

  int part = 0, parts = 1;
  // The particles of each file type in each file ([file][type]), when one process has read every
  // file's header for all: the readers then open only the files of this share. Empty: they
  // read every file's header themselves.
  std::vector<std::vector<std::uint64_t>> file_counts;

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
  // type n's particles in file f. Whole files when there are at least as many as parts and they
  // can be shared out so that no part holds more than 5/4 of an even share (a file goes to the part
  // whose even slice of all the particles to read holds the file's middle); slices otherwise.
  std::vector<std::pair<std::size_t, std::size_t>> ranges(const std::vector<std::vector<std::size_t>>& counts,
                                                          std::size_t types) const {
    std::vector<std::pair<std::size_t, std::size_t>> out(types, {0, 0});
    std::size_t all = 0;
    std::vector<std::size_t> in_file;
    for (const auto& file : counts) {
      in_file.push_back(0);
      for (std::size_t n = 0; n < types; ++n) in_file.back() += file[n];
      all += in_file.back();
    }
    // Each file's part, and the largest part.
    std::vector<int> part_of;
    std::vector<std::size_t> held(std::size_t(parts), 0);
    std::size_t before = 0;
    for (std::size_t f = 0; f < counts.size(); ++f) {
      const std::size_t middle = before + in_file[f] / 2;
      int k = all == 0 ? 0 : int((unsigned __int128)middle * unsigned(parts) / all);
      if (k >= parts) k = parts - 1;
      part_of.push_back(k);
      held[std::size_t(k)] += in_file[f];
      before += in_file[f];
    }
    std::size_t largest = 0;
    for (std::size_t h : held) largest = h > largest ? h : largest;
    const bool whole_files = counts.size() >= std::size_t(parts) && 4 * std::size_t(parts) * largest <= 5 * all;
    for (std::size_t n = 0; n < types; ++n) {
      if (!whole_files) {
        std::size_t total = 0;
        for (const auto& file : counts) total += file[n];
        out[n] = of(total);
        continue;
      }
      for (std::size_t f = 0; f < counts.size(); ++f) {
        if (part_of[f] < part) out[n].first += counts[f][n];
        if (part_of[f] <= part) out[n].second += counts[f][n];
      }
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
