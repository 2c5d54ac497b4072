// A snapshot file opened for positioned reads (pread), so that threads can read disjoint parts of
// it at once; errors name the file and the byte.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace splotch {

class InputFile {
 public:
  // Whether the reads are hinted (will_need): when the file is cold, or always (tests).
  enum class Hints { when_cold, always };
  // Files smaller than this are taken as cached: their read is short either way.
  static constexpr std::size_t look_from_default = std::size_t(64) << 20;

  // A directory or a missing file: UserError. A file of at least `look_from` bytes is looked at
  // to see whether it is cold.
  explicit InputFile(const std::string& path, Hints hints = Hints::when_cold,
                     std::size_t look_from = look_from_default);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  std::size_t size() const { return size_; }
  // Exactly `bytes` from `offset`; a short file is an error.
  void read_at(void* dest, std::size_t bytes, std::size_t offset) const;
  // Says that [offset, offset + bytes) will be read soon, when the file is cold. The kernel then
  // reads the range ahead, which the threads' positioned reads, each on its own piece, do not make
  // it do (io/read_ahead.h hints a bounded stretch ahead of them). On the H100 node a cold 2.4 GB
  // file came at 1.62 GB/s so, 1.40 without (dd: 1.7). A file in the page cache gets no hint:
  // there it would only cost a walk of its pages.
  void will_need(std::size_t offset, std::size_t bytes) const;
  // Whether the file is cold: under half of it in the page cache (io/page_cache.h), or no way to
  // tell (a hint costs little). Looked at once, when first asked, so that the openings that only
  // read a header (the format, the counts) look at nothing. Safe from several threads.
  bool cold() const;

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
  Hints hints_;
  std::size_t look_from_;
  mutable std::once_flag looked_;
  mutable bool cold_ = false;
};

}  // namespace splotch
