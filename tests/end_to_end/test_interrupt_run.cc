// Interrupted runs (issue 36, section 5): SIGINT or SIGTERM removes the picture's temporary file,
// says in one line what was interrupted, and ends the process by the signal (a shell's $? 130 or
// 143). In the process (a child of the test, io/interrupt_cleanup.h alone), and bin/splotch held
// without any timing: its picture written into a FIFO that is not read (the write stage), its
// parameter file a FIFO that is not closed (the reading); for the default build and, where it is
// built, the MPI build started without a launcher.
// Here the cases that run bin/splotch as a user does; the others: tests/unit/test_interrupt.cc.
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

// The names in `dir` that start with `prefix`.
std::vector<std::string> entries(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  REQUIRE(d != nullptr);
  while (const dirent* e = ::readdir(d))
    if (std::string(e->d_name).rfind(prefix, 0) == 0) names.push_back(e->d_name);
  ::closedir(d);
  return names;
}

// A small scene: a block of particles, raw and little-endian, drawn as a TGA (larger than a
// FIFO's smallest buffer, so that its writer waits for a reader).
std::string small_scene(const TempDir& dir) {
  std::vector<float> blocks;
  const int n = 512;
  for (int field = 0; field < 6; ++field)
    for (int i = 0; i < n; ++i) {
      const float value[6] = {
          40.0f + float(i % 8) * 2.5f, 40.0f + float(i / 8 % 8) * 2.5f, 40.0f + float(i / 64) * 2.5f, 2.0f, 1.0f,
          1.0f + float(i % 5)};
      blocks.push_back(value[field]);
    }
  const std::string bin =
      dir.write("block.bin", std::string(reinterpret_cast<const char*>(blocks.data()), blocks.size() * 4));
  return "simtype = 1\ninfile = " + bin +
         "\nnum_blocks = 6\nswap_endian = FALSE\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
         "palette0 = testdata/palettes/fire.pal\ncamera_x = 50\ncamera_y = -40\ncamera_z = 50\n"
         "lookat_x = 50\nlookat_y = 50\nlookat_z = 50\nxres = 128\nyres = 128\nfov = 40\npictype = 0\n";
}

// bin/splotch, and the MPI build where it is built (run without a launcher, as a user runs it).
std::vector<std::string> binaries() {
  std::vector<std::string> b = {"bin/splotch"};
  if (file_exists("bin/splotch_mpi")) b.push_back("bin/splotch_mpi");
  return b;
}

const char* name_of(int signal) { return signal == SIGINT ? "SIGINT" : "SIGTERM"; }

}  // namespace

TEST_CASE("bin/splotch interrupted while writing its picture: no temporary file, one line, ended by the signal") {
  for (const std::string& binary : binaries())
    for (int signal : {SIGTERM, SIGINT}) {
      INFO(binary << ", " << name_of(signal));
      TempDir dir;
      const std::string par = dir.write("scene.par", small_scene(dir)), out = dir.file("out.tga");
      HeldProgram splotch({binary, par, "outfile=" + out}, dir.file("stdout"), dir.file("stderr"));
      // The temporary file the picture goes to is a FIFO, read here only enough to see that the
      // writing began: the writer then waits for room in the FIFO's buffer (one page).
      const std::string temporary = out + ".tmp." + std::to_string(splotch.pid());
      REQUIRE(::mkfifo(temporary.c_str(), 0644) == 0);
      const int reader = ::open(temporary.c_str(), O_RDONLY | O_NONBLOCK);
      REQUIRE(reader >= 0);
      ::fcntl(reader, F_SETPIPE_SZ, 4096);
      splotch.go();
      pollfd p = {reader, POLLIN, 0};
      const bool writing = wait_for(splotch, [&] { return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN); });
      INFO(read_file(dir.file("stderr")));
      REQUIRE(writing);
      REQUIRE_FALSE(splotch.ended());
      ::kill(splotch.pid(), signal);
      const int status = splotch.wait();
      ::close(reader);
      CHECK(WIFSIGNALED(status));
      CHECK(shell_status(status) == (signal == SIGINT ? 130 : 143));
      CHECK(read_file(dir.file("stderr")) == std::string("splotch: interrupted (") + name_of(signal) +
                                                 ") while writing " + out + "; no picture written\n");
      CHECK(entries(dir.path(), "out.tga").empty());  // neither the picture nor its temporary file
    }
}

TEST_CASE("bin/splotch interrupted while reading: one line, nothing written, ended by the signal") {
  for (const std::string& binary : binaries()) {
    INFO(binary);
    TempDir dir;
    const std::string scene = small_scene(dir), par = dir.file("scene.par"), out = dir.file("out.tga");
    // The parameter file is a FIFO that gets half the file and is not closed: the reading waits.
    REQUIRE(::mkfifo(par.c_str(), 0644) == 0);
    HeldProgram splotch({binary, par, "outfile=" + out}, dir.file("stdout"), dir.file("stderr"));
    splotch.go();
    const int writer = open_when_read(splotch, par);
    INFO(read_file(dir.file("stderr")));
    REQUIRE(writer >= 0);
    const std::string half = scene.substr(0, scene.size() / 2);
    REQUIRE(::write(writer, half.data(), half.size()) == ssize_t(half.size()));
    ::kill(splotch.pid(), SIGINT);
    const int status = splotch.wait();
    ::close(writer);
    CHECK(shell_status(status) == 130);
    CHECK(read_file(dir.file("stderr")) == "splotch: interrupted (SIGINT) while reading " + par + "\n");
    CHECK(entries(dir.path(), "out.tga").empty());
  }
}
