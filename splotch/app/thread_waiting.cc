#include "splotch/app/thread_waiting.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace splotch {

bool waiting_policy_chosen(const char* const* environment) {
  for (; environment && *environment; ++environment)
    for (const char* name : {"OMP_WAIT_POLICY=", "GOMP_SPINCOUNT=", "KMP_BLOCKTIME="})
      if (std::strncmp(*environment, name, std::strlen(name)) == 0) return true;
  return false;
}

void start_again_with_sleeping_threads(char** argv) {
  if (std::max(omp_get_num_procs(), omp_get_max_threads()) <= 32 || waiting_policy_chosen(environ)) return;
  // The program's file by name (valgrind answers with its client's, where /proc/self/exe itself
  // would start valgrind's tool); not the dynamic loader run by hand, whose arguments differ.
  char path[4096];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return;
  path[length] = '\0';
  const char* slash = std::strrchr(path, '/');
  const char* name = slash ? slash + 1 : path;
  if (std::strncmp(name, "ld-", 3) == 0 || std::strncmp(name, "ld.so", 5) == 0) return;
  if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  // The same process (its id, files, signals and MPI launcher's variables kept), a new program image.
  ::execv(path, argv);
  ::unsetenv("OMP_WAIT_POLICY");  // no new start (the file gone or replaced): the run goes on as it was
}

}  // namespace splotch
