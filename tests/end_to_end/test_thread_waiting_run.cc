// OpenMP threads that may be more than 32 sleep between loops unless the user chose how they wait
// or bound them (splotch/app/thread_waiting.h): bin/splotch's own environment and arguments once
// it has started (read from /proc while it waits for its parameter file, a FIFO). The rules:
// tests/unit/test_thread_waiting.cc.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "splotch/app/thread_waiting.h"
#include "tests/support/held_program.h"
#include "tests/support/test_support.h"

using namespace splotch::testing;

namespace {

// What the test's environment may hold that would change the program's choice.
const std::vector<std::string> choice_names = {
    "OMP_WAIT_POLICY", "OMP_WAIT_POLICY_ALL", "GOMP_SPINCOUNT",    "KMP_BLOCKTIME", "KMP_LIBRARY",
    "OMP_PROC_BIND",   "OMP_PLACES",          "GOMP_CPU_AFFINITY", "KMP_AFFINITY",  "OMP_NUM_THREADS"};

// `bytes` split at NUL characters (a /proc file of strings).
std::vector<std::string> strings_of(const std::string& bytes) {
  std::vector<std::string> entries;
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t end = bytes.find('\0', at);
    entries.push_back(bytes.substr(at, end - at));
    at = end == std::string::npos ? bytes.size() : end + 1;
  }
  return entries;
}

struct Started {
  std::vector<std::string> environment, arguments;
};

// bin/splotch, started with the test's environment less `choice_names` and with `add` (NAME=value
// entries), as it is once it waits for its parameter file (after any new start).
Started started(const std::vector<std::string>& add) {
  TempDir dir;
  const std::string par = dir.file("scene.par");
  REQUIRE(::mkfifo(par.c_str(), 0644) == 0);
  HeldProgram splotch({"bin/splotch", par, "xres=64"}, dir.file("stdout"), dir.file("stderr"), choice_names, add);
  splotch.go();
  const int writer = open_when_read(splotch, par);
  INFO(read_file(dir.file("stderr")));
  REQUIRE(writer >= 0);
  const std::string pid = std::to_string(splotch.pid());
  Started s{strings_of(read_file("/proc/" + pid + "/environ")), strings_of(read_file("/proc/" + pid + "/cmdline"))};
  ::kill(splotch.pid(), SIGTERM);
  splotch.wait();
  ::close(writer);
  return s;
}

bool holds(const std::vector<std::string>& entries, const std::string& entry) {
  for (const std::string& e : entries)
    if (e == entry) return true;
  return false;
}

bool policy_set(const std::vector<std::string>& entries) {
  for (const std::string& e : entries)
    if (e.rfind("OMP_WAIT_POLICY=", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("bin/splotch on more than 32 threads runs them sleeping, unless the user chose how they wait or bound them") {
  SUBCASE("33 threads, nothing chosen: started again, the same process and arguments, OMP_WAIT_POLICY = PASSIVE") {
    const Started s = started({"OMP_NUM_THREADS=33", "SPLOTCH_MPI=0"});
    CHECK(holds(s.environment, "OMP_WAIT_POLICY=PASSIVE"));
    REQUIRE(s.arguments.size() == 3);
    CHECK(s.arguments[0] == "bin/splotch");
    CHECK(s.arguments[2] == "xres=64");
  }
  SUBCASE("32 threads, no MPI launcher: as it was started") {
    CHECK_FALSE(policy_set(started({"OMP_NUM_THREADS=32", "SPLOTCH_MPI=0"}).environment));
  }
  SUBCASE("a choice of the user's is kept") {
    const Started s = started({"OMP_NUM_THREADS=64", "GOMP_SPINCOUNT=1234", "SPLOTCH_MPI=0"});
    CHECK(holds(s.environment, "GOMP_SPINCOUNT=1234"));
    CHECK_FALSE(policy_set(s.environment));
  }
  SUBCASE("threads bound to places: not started again (libgomp has bound the first thread to one place)") {
    CHECK_FALSE(policy_set(
        started({"OMP_NUM_THREADS=33", "OMP_PROC_BIND=close", "OMP_PLACES=cores", "SPLOTCH_MPI=0"}).environment));
  }
}
