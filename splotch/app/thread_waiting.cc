#include "splotch/app/thread_waiting.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "splotch/mpi/launcher.h"

namespace splotch {
namespace {

bool starts_with(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

// A debugger or tracer attached (gdb, strace): it would see the program start twice.
bool traced() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("TracerPid:", 0) == 0) return std::atoi(line.c_str() + 10) != 0;
  return false;
}

}  // namespace

bool waiting_left_as_is(const char* const* environment) {
  static const char* const chosen[] = {
      "OMP_WAIT_POLICY=", "OMP_WAIT_POLICY_", "GOMP_SPINCOUNT=",    "KMP_BLOCKTIME=", "KMP_LIBRARY=",
      "OMP_PROC_BIND=",   "OMP_PLACES=",      "GOMP_CPU_AFFINITY=", "KMP_AFFINITY="};
  for (; environment && *environment; ++environment) {
    for (const char* prefix : chosen)
      if (starts_with(*environment, prefix)) return true;
    if (starts_with(*environment, "LD_PRELOAD=") && std::strstr(*environment, "vgpreload")) return true;
  }
  return false;
}

bool more_than_32_threads(int threads, int cores, bool mpi_launched) {
  return std::max(threads, mpi_launched ? cores : 0) > 32;
}

void start_again_with_sleeping_threads(char** argv) {
  const bool launched = !mpi_launch([](const char* name) { return std::getenv(name); }).by.empty();
  if (!more_than_32_threads(omp_get_max_threads(), omp_get_num_procs(), launched)) return;
  if (waiting_left_as_is(environ) || omp_get_proc_bind() != omp_proc_bind_false || traced()) return;
  // The program's file by name; not the dynamic loader run by hand, whose arguments differ.
  char path[4096];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return;
  path[length] = '\0';
  const char* slash = std::strrchr(path, '/');
  const char* name = slash ? slash + 1 : path;
  if (starts_with(name, "ld-") || starts_with(name, "ld.so")) return;
  if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  // The same process (its id, files, signals, binding and MPI launcher's variables kept), a new
  // program image.
  ::execv(path, argv);
  ::unsetenv("OMP_WAIT_POLICY");  // no new start (the file gone or replaced): the run goes on as it was
}

}  // namespace splotch
