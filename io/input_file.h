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

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

}  // namespace splotch
