// Telling the kernel, a bounded stretch ahead of the reading, which ranges of a cold snapshot file
// will be read next (InputFile::will_need). Threads that each read their own piece with pread
// leave the kernel's readahead nothing sequential to follow, so a cold file comes no faster than
// one request at a time; hinted, the kernel keeps the disk's queue full. Hinting every range at
// once would ask for the whole snapshot to be read into memory before the reader has used any
// (44 GB for 10^9 particles): the hints run at most `ahead` bytes beyond the range being read.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "io/input_file.h"

namespace splotch {

class ReadAhead {
 public:
  struct Range {
    const InputFile* file;
    std::size_t offset, bytes;
  };
  using Hint = std::function<void(const Range&)>;
  // 1 GiB: on the H100 node (disk 1.4 to 1.7 GB/s) the read is as fast as with the whole file
  // hinted up front.
  static constexpr std::size_t default_ahead = std::size_t(1) << 30;

  // `ranges` in the order they are read (threads taking them in turn); `hint` tells the kernel
  // (the file's will_need(), which does nothing for a file in the page cache). The first `ahead`
  // bytes are hinted now.
  explicit ReadAhead(std::vector<Range> ranges, std::size_t ahead = default_ahead, Hint hint = will_need);
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // Range k is about to be read (from any thread): every range that begins less than `ahead`
  // bytes after its end is hinted, each once (claimed in order; threads may hint them out of it).
  void reading(std::size_t k);

 private:
  static void will_need(const Range& r) { r.file->will_need(r.offset, r.bytes); }
  void hint_before(std::size_t limit);  // the ranges that begin before byte `limit` of the reading

  std::vector<Range> ranges_;
  std::vector<std::size_t> end_;  // bytes up to the end of each range
  std::size_t ahead_;
  Hint hint_;
  bool any_cold_ = false;             // none: nothing to hint, nothing to count
  std::atomic<std::size_t> next_{0};  // the first range not yet hinted
};

}  // namespace splotch
