#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "params/user_error.h"

namespace splotch {

InputFile::InputFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY);
  if (fd_ < 0) throw UserError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    const bool directory = S_ISDIR(st.st_mode);
    ::close(fd_);
    throw UserError("'" + path + "' is " + (directory ? "a directory" : "not a regular file") +
                    ", not a snapshot file");
  }
  size_ = std::size_t(st.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

void InputFile::read_at(void* dest, std::size_t bytes, std::size_t offset) const {
  auto* out = static_cast<char*>(dest);
  while (bytes > 0) {
    ssize_t got = ::pread(fd_, out, bytes, off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw UserError("cannot read '" + path_ + "' at byte " + std::to_string(offset) + ": " +
                      (got < 0 ? std::strerror(errno) : "the file ended early (was it changed while reading?)"));
    out += got;
    bytes -= std::size_t(got);
    offset += std::size_t(got);
  }
}

}  // namespace splotch
