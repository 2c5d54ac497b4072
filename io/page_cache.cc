#include "io/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace splotch {
namespace {

constexpr std::size_t samples = 64;

std::size_t page_size() { return std::size_t(::sysconf(_SC_PAGESIZE)); }

// Whether mincore tells this caller the truth about the file's pages.
bool mincore_tells(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return false;
  return ::geteuid() == 0 || st.st_uid == ::geteuid() || ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
}

std::optional<double> cached_share_by_mincore(int fd, std::size_t size) {
  const std::size_t page = page_size();
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return std::nullopt;
  std::size_t in = 0, looked = 0;
  for (std::size_t k = 0; k < samples; ++k) {
    unsigned char resident = 0;
    const std::size_t at = (size - 1) / (samples - 1) * k / page * page;
    if (::mincore(static_cast<char*>(map) + at, 1, &resident) != 0) continue;
    in += resident & 1;
    ++looked;
  }
  ::munmap(map, size);
  if (looked == 0) return std::nullopt;
  return double(in) / double(looked);
}

}  // namespace

std::vector<std::size_t> looked_pages(std::size_t pages, std::uint64_t seed) {
  std::vector<std::size_t> looked;
  if (pages == 0) return looked;
  std::uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  for (std::size_t k = 0; k < samples; ++k) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
    const std::size_t first = pages * k / samples, last = pages * (k + 1) / samples;
    looked.push_back(first + (last > first ? state % (last - first) : 0));
  }
  return looked;
}

std::optional<double> cached_share_by_reads(int fd, std::size_t size, std::uint64_t seed) {
  const std::size_t page = page_size(), pages = size / page;
  if (pages == 0) return std::nullopt;
  std::vector<char> buffer(page);
  std::size_t in = 0;
  for (const std::size_t p : looked_pages(pages, seed)) {
    iovec v{buffer.data(), page};
    const ssize_t got = ::preadv2(fd, &v, 1, off_t(p * page), RWF_NOWAIT);
    if (got < 0 && errno != EAGAIN) return std::nullopt;  // EOPNOTSUPP, say: no way to tell
    if (got == ssize_t(page)) ++in;
  }
  return double(in) / double(samples);
}

std::optional<double> cached_share(int fd, std::size_t size, const std::string& path, std::uint64_t seed) {
  if (size == 0) return std::nullopt;
  if (mincore_tells(fd, path))
    if (const std::optional<double> share = cached_share_by_mincore(fd, size)) return share;
  return cached_share_by_reads(fd, size, seed);
}

}  // namespace splotch
