#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>

#include "errors/user_error.h"
#include "io/page_cache.h"

namespace splotch {

InputFile::InputFile(const std::string& path, Hints hints, std::size_t look_from)
    : path_(path), hints_(hints), look_from_(look_from) {
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

bool InputFile::cold() const {
  std::call_once(looked_, [this] {
    if (hints_ == Hints::always) {
      cold_ = true;
    } else if (size_ >= look_from_ && size_ > 0) {
      // A seed from the clock: a look by reads samples other pages than the look before it.
      const auto seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
      const std::optional<double> cached = cached_share(fd_, size_, path_, seed);
      cold_ = !cached || *cached < 0.5;
    }
  });
  return cold_;
}

void InputFile::will_need(std::size_t offset, std::size_t bytes) const {
  if (bytes > 0 && cold()) (void)::posix_fadvise(fd_, off_t(offset), off_t(bytes), POSIX_FADV_WILLNEED);
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
