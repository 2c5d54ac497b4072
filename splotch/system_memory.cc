#include "splotch/system_memory.h"

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
  return available;
}

}  // namespace splotch
