#include "io/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "params/user_error.h"

namespace splotch {
namespace {

// Whether a file of at least 64 MiB has under half of 64 samples spread over it (64 KiB each) in
// the page cache: mincore() on a mapping of it, which reads nothing. Smaller files, or where the
// look fails, count as cached.
bool mostly_uncached(int fd, std::size_t size) {
  constexpr std::size_t least = std::size_t(64) << 20, samples = 64, sample = std::size_t(64) << 10;
  if (size < least) return false;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return false;
  const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident(sample / page);
  std::size_t in = 0, looked = 0;
  for (std::size_t k = 0; k < samples; ++k) {
    const std::size_t at = (size - sample) / (samples - 1) * k / page * page;
    if (::mincore(static_cast<char*>(map) + at, sample, resident.data()) != 0) continue;
    for (unsigned char r : resident) in += r & 1;
    looked += resident.size();
  }
  ::munmap(map, size);
  return looked > 0 && 2 * in < looked;
}

}  // namespace

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
  cold_ = mostly_uncached(fd_, size_);
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
