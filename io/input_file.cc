#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "params/user_error.h"

namespace splotch {
namespace {

// Whether under half of 64 pages spread over the file are in the page cache: each is read with
// RWF_NOWAIT, which gives it only when cached (EAGAIN otherwise) and so waits for no disk.
// (mincore() cannot tell: since Linux 5.0 it reports every page of a file the caller may not
// write as cached.) Where the kernel or file system cannot tell either, the file counts as cached.
bool mostly_uncached(int fd, std::size_t size) {
  constexpr std::size_t samples = 64;
  const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
  if (size < page) return false;
  std::vector<char> buffer(page);
  std::size_t in = 0;
  for (std::size_t k = 0; k < samples; ++k) {
    const std::size_t at = (size - page) / (samples - 1) * k / page * page;
    iovec v{buffer.data(), page};
    const ssize_t got = ::preadv2(fd, &v, 1, off_t(at), RWF_NOWAIT);
    if (got < 0 && errno != EAGAIN) return false;  // (EOPNOTSUPP: no way to tell)
    if (got == ssize_t(std::min(page, size - at))) ++in;
  }
  return 2 * in < samples;
}

}  // namespace

InputFile::InputFile(const std::string& path, Hints hints, std::size_t look_from) : path_(path) {
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
  cold_ = hints == Hints::always || (size_ >= look_from && mostly_uncached(fd_, size_));
}

void InputFile::will_need(std::size_t offset, std::size_t bytes) const {
  if (cold_ && bytes > 0) (void)::posix_fadvise(fd_, off_t(offset), off_t(bytes), POSIX_FADV_WILLNEED);
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
