// Interrupted runs (issue 36, section 5): SIGINT or SIGTERM removes the picture's temporary file,
// says in one line what was interrupted, and ends the process by the signal (a shell's $? 130 or
// 143). In the process (a child of the test, io/interrupt_cleanup.h alone), and bin/splotch held
// without any timing: its picture written into a FIFO that is not read (the write stage), its
// parameter file a FIFO that is not closed (the reading); for the default build and, where it is
// built, the MPI build started without a launcher.
// The cases that run bin/splotch as a user does: tests/end_to_end/test_interrupt_run.cc.
#include <dirent.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/interrupt_cleanup.h"
#include "tests/support/held_program.h"
#include "tests/support/test_support.h"

using namespace splotch::testing;

namespace {

// Runs `body` in a child process with its stderr in `err`; the child's waitpid status.
template <class Body>
int in_child(const std::string& err, Body&& body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("InterruptHandling: the newest note said, its temporary file removed, the process ended by the signal") {
  TempDir dir;
  const std::string temporary = dir.file("out.png.tmp.1"), err = dir.file("err");
  SUBCASE("SIGTERM while writing") {
    const int status = in_child(err, [&] {
      splotch::InterruptHandling handling(true);
      splotch::InterruptNote rendering("rendering scene.par");
      splotch::InterruptNote writing("writing out.png; no picture written", temporary);
      write_file(temporary, "half a picture");
      ::raise(SIGTERM);
    });
    CHECK(WIFSIGNALED(status));
    CHECK(shell_status(status) == 143);
    CHECK(read_file(err) == "splotch: interrupted (SIGTERM) while writing out.png; no picture written\n");
    CHECK_FALSE(file_exists(temporary));
  }
  SUBCASE("SIGINT after the file was renamed: the note before it is said") {
    const int status = in_child(err, [&] {
      splotch::InterruptHandling handling(true);
      splotch::InterruptNote rendering("rendering scene.par");
      splotch::InterruptNote writing("writing out.png; no picture written", temporary);
      write_file(temporary, "a whole picture");
      writing.end();
      ::raise(SIGINT);
    });
    CHECK(shell_status(status) == 130);
    CHECK(read_file(err) == "splotch: interrupted (SIGINT) while rendering scene.par\n");
    CHECK(file_exists(temporary));  // (its final name, in a real run)
  }
  SUBCASE("no note: the line alone; a process that does not speak (MPI ranks but 0) says nothing") {
    CHECK(shell_status(in_child(err, [] {
            splotch::InterruptHandling handling(true);
            ::raise(SIGINT);
          })) == 130);
    CHECK(read_file(err) == "splotch: interrupted (SIGINT)\n");
    CHECK(shell_status(in_child(err, [&] {
            splotch::InterruptHandling handling(false);
            splotch::InterruptNote writing("writing out.png", temporary);
            write_file(temporary, "x");
            ::raise(SIGTERM);
          })) == 143);
    CHECK(read_file(err) == "");
    CHECK_FALSE(file_exists(temporary));
  }
  SUBCASE("a signal the process was started ignoring stays ignored; the handling before comes back") {
    const int status = in_child(err, [] {
      ::signal(SIGINT, SIG_IGN);
      struct sigaction before = {}, now = {};
      ::sigaction(SIGTERM, nullptr, &before);  // (the test runner's)
      {
        splotch::InterruptHandling handling(true);
        ::raise(SIGINT);  // ignored
      }
      ::sigaction(SIGTERM, nullptr, &now);
      if (now.sa_handler != before.sa_handler) ::_exit(3);
    });
    CHECK(WIFEXITED(status));
    CHECK(shell_status(status) == 0);
    CHECK(read_file(err) == "");
  }
}

TEST_CASE("InterruptNote: at most 16 at once; a note longer than its slot is cut, not refused") {
  std::vector<std::unique_ptr<splotch::InterruptNote>> notes;
  for (int i = 0; i < 16; ++i) notes.push_back(std::make_unique<splotch::InterruptNote>("note"));
  CHECK_THROWS_AS(splotch::InterruptNote("one more"), std::logic_error);
  notes.pop_back();
  CHECK_NOTHROW(splotch::InterruptNote("one more"));
  notes.clear();

  TempDir dir;
  const std::string err = dir.file("err");
  in_child(err, [] {
    splotch::InterruptHandling handling(true);
    splotch::InterruptNote rendering(std::string(2000, 'x'));
    ::raise(SIGINT);
  });
  CHECK(read_file(err) == "splotch: interrupted (SIGINT) while " + std::string(511, 'x') + "\n");
}
