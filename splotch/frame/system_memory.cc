#include "splotch/frame/system_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace splotch {
namespace {

// The first number of a one-line file (cgroup files); false when absent or "max".
bool read_number(const char* path, std::size_t& value) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return false;
  std::istringstream number(word);
  return static_cast<bool>(number >> value);
}

}  // namespace

std::size_t available_memory_bytes() {
  std::size_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  // cgroup v2, as a batch system confines a job.
  std::size_t limit = 0, used = 0;
  if (read_number("/sys/fs/cgroup/memory.max", limit) && read_number("/sys/fs/cgroup/memory.current", used))
    available = std::min(available, limit > used ? limit - used : 0);
  // An address-space limit (ulimit -v, as some batch systems set): what is left of it. The
  // program's address space is /proc/self/statm's first number, in pages.
  rlimit address_space{};
  std::size_t pages = 0;
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY &&
      read_number("/proc/self/statm", pages)) {
    const std::size_t limit_bytes = std::size_t(address_space.rlim_cur);
    const std::size_t mapped = pages * std::size_t(sysconf(_SC_PAGESIZE));
    available = std::min(available, limit_bytes > mapped ? limit_bytes - mapped : 0);
  }
  return available;
}

}  // namespace splotch
