#include "splotch/app/thread_waiting.h"

#include <omp.h>
#include <unistd.h>

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
  if (omp_get_max_threads() <= 32 || waiting_policy_chosen(environ)) return;
  if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  // The same process (its id, files, signals and MPI launcher's variables kept), a new program image.
  ::execv("/proc/self/exe", argv);
  ::unsetenv("OMP_WAIT_POLICY");  // no new start (no /proc): the run goes on with the default
}

}  // namespace splotch
