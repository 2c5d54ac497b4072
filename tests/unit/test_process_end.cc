// The end of a run that started the GPU (splotch/app/process_end.h): what was printed comes out,
// the status is the run's, and whoever reads the run's output sees its end at once, though a
// child holding the device files outlives it for a moment.
#include <doctest/doctest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "splotch/app/process_end.h"

namespace splotch {

TEST_CASE("end_leaving_gpu_teardown: output flushed, the run's status, and the output's end seen at once") {
  int out[2];
  REQUIRE(::pipe(out) == 0);
  std::cout.flush();  // (what the test runner printed is not the child's to print again)
  std::fflush(nullptr);
  const pid_t run = ::fork();
  REQUIRE(run >= 0);
  if (run == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::close(out[1]);
    std::cout << "splotch: wrote picture.png\n";  // buffered, not yet written
    end_leaving_gpu_teardown(3);
  }
  ::close(out[1]);
  std::string said;
  bool ended = false;
  char buf[256];
  // The end of the output (every writer's copy closed, the child's too): within a minute, which
  // only a hang exceeds.
  for (int waited = 0; waited < 600 && !ended; ++waited) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t got = ::read(out[0], buf, sizeof buf);
    if (got > 0)
      said.append(buf, std::size_t(got));
    else
      ended = true;
  }
  ::close(out[0]);
  CHECK(ended);
  CHECK(said == "splotch: wrote picture.png\n");
  int status = 0;
  REQUIRE(::waitpid(run, &status, 0) == run);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
}

}  // namespace splotch
