// A snapshot file opened for positioned reads (pread), so that threads can read disjoint parts of
// it at once; errors name the file and the byte.
#pragma once

#include <cstddef>
#include <string>

namespace splotch {

class InputFile {
 public:
  explicit InputFile(const std::string& path);  // a directory or a missing file: UserError
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  std::size_t size() const { return size_; }
  // Exactly `bytes` from `offset`; a short file is an error.
  void read_at(void* dest, std::size_t bytes, std::size_t offset) const;
  // Says that [offset, offset + bytes) will be read soon, when the file is large and mostly not in
  // the page cache (a snapshot just written, or dropped from memory): the kernel then reads all of a
  // reader's ranges ahead at once, which the threads' positioned reads, each on its own piece,
  // do not make it do. On the H100 node a cold 2.4 GB file came at 1.62 GB/s so, 1.40 without (dd:
  // 1.7). A file in the page cache gets no hint: there it would only cost a walk of its pages.
  void will_need(std::size_t offset, std::size_t bytes) const;
  bool cold() const { return cold_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
  bool cold_ = false;
};

}  // namespace splotch
