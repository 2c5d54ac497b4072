// OpenMP threads that may be more than 32 sleep between loops unless the user chose how they wait
// or bound them (splotch/app/thread_waiting.h): the rules. bin/splotch's own environment once it
// has started: tests/end_to_end/test_thread_waiting_run.cc.
#include <doctest/doctest.h>

#include <string>

#include "splotch/app/thread_waiting.h"

TEST_CASE("waiting_left_as_is: a waiting policy chosen, threads bound, or valgrind's preload; by whole names") {
  const char* none[] = {"PATH=/usr/bin",      "OMP_NUM_THREADS=8",       "OMP_WAIT_POLICYX=1",
                        "XOMP_WAIT_POLICY=1", "LD_PRELOAD=/lib/libx.so", nullptr};
  CHECK_FALSE(splotch::waiting_left_as_is(none));
  const char* empty[] = {nullptr};
  CHECK_FALSE(splotch::waiting_left_as_is(empty));
  CHECK_FALSE(splotch::waiting_left_as_is(nullptr));
  for (const char* entry :
       {"OMP_WAIT_POLICY=active", "OMP_WAIT_POLICY=", "OMP_WAIT_POLICY_ALL=active", "OMP_WAIT_POLICY_DEV_0=passive",
        "GOMP_SPINCOUNT=1000", "KMP_BLOCKTIME=0", "KMP_LIBRARY=turnaround", "OMP_PROC_BIND=close", "OMP_PLACES=cores",
        "GOMP_CPU_AFFINITY=0-3", "KMP_AFFINITY=compact",
        "LD_PRELOAD=/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so"}) {
    INFO(entry);
    const char* one[] = {"PATH=/usr/bin", entry, nullptr};
    CHECK(splotch::waiting_left_as_is(one));
  }
}

TEST_CASE("more_than_32_threads: the threads asked for, or the cores of a process an MPI launcher started") {
  CHECK(splotch::more_than_32_threads(33, 2, false));
  CHECK_FALSE(splotch::more_than_32_threads(32, 64, false));
  CHECK(splotch::more_than_32_threads(16, 64, true));  // rank 0 alone may take its node's 64
  CHECK_FALSE(splotch::more_than_32_threads(16, 32, true));
  CHECK_FALSE(splotch::more_than_32_threads(1, 1, false));
}
