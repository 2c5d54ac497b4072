// OpenMP threads that may be more than 32 sleep between loops unless the user chose how they wait
// (splotch/app/thread_waiting.h): the rule on an environment, and bin/splotch's own environment
// once it has started again (read from /proc while it waits for its parameter file, a FIFO).
#include <doctest/doctest.h>
#include <omp.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "splotch/app/thread_waiting.h"
#include "tests/held_program.h"
#include "tests/test_support.h"

using namespace splotch::testing;

namespace {

const std::vector<std::string> policy_names = {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME"};

// The NAME=value entries of process `pid`'s starting environment (that of its newest exec).
std::vector<std::string> environment_of(pid_t pid) {
  const std::string bytes = read_file("/proc/" + std::to_string(pid) + "/environ");
  std::vector<std::string> entries;
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t end = bytes.find('\0', at);
    entries.push_back(bytes.substr(at, end - at));
    at = end == std::string::npos ? bytes.size() : end + 1;
  }
  return entries;
}

bool holds(const std::vector<std::string>& entries, const std::string& entry) {
  for (const std::string& e : entries)
    if (e == entry) return true;
  return false;
}

// The environment of bin/splotch, started without the variables `unset` and with the entries `add`
// (NAME=value), once it waits for its parameter file (after any new start).
std::vector<std::string> started_environment(const std::vector<std::string>& unset,
                                             const std::vector<std::string>& add = {}) {
  TempDir dir;
  const std::string par = dir.file("scene.par");
  REQUIRE(::mkfifo(par.c_str(), 0644) == 0);
  HeldProgram splotch({"bin/splotch", par}, dir.file("stdout"), dir.file("stderr"), unset, add);
  splotch.go();
  const int writer = open_when_read(splotch, par);
  INFO(read_file(dir.file("stderr")));
  REQUIRE(writer >= 0);
  const std::vector<std::string> entries = environment_of(splotch.pid());
  ::kill(splotch.pid(), SIGTERM);
  splotch.wait();
  ::close(writer);
  return entries;
}

}  // namespace

TEST_CASE("waiting_policy_chosen: any of OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME, by its whole name") {
  const char* none[] = {"PATH=/usr/bin", "OMP_NUM_THREADS=8", "OMP_WAIT_POLICYX=1", "XOMP_WAIT_POLICY=1", nullptr};
  CHECK_FALSE(splotch::waiting_policy_chosen(none));
  const char* empty[] = {nullptr};
  CHECK_FALSE(splotch::waiting_policy_chosen(empty));
  CHECK_FALSE(splotch::waiting_policy_chosen(nullptr));
  for (const char* entry : {"OMP_WAIT_POLICY=active", "GOMP_SPINCOUNT=1000", "KMP_BLOCKTIME=0", "OMP_WAIT_POLICY="}) {
    INFO(entry);
    const char* one[] = {"PATH=/usr/bin", entry, nullptr};
    CHECK(splotch::waiting_policy_chosen(one));
  }
}

TEST_CASE("bin/splotch on more than 32 threads or cores runs them sleeping, unless the user chose how they wait") {
  auto policy_set = [](const std::vector<std::string>& entries) {
    for (const std::string& e : entries)
      if (e.rfind("OMP_WAIT_POLICY=", 0) == 0) return true;
    return false;
  };
  SUBCASE("33 threads, nothing chosen: started again, the same process, with OMP_WAIT_POLICY = PASSIVE") {
    CHECK(holds(started_environment(policy_names, {"OMP_NUM_THREADS=33"}), "OMP_WAIT_POLICY=PASSIVE"));
  }
  SUBCASE("32 threads: as it was started, unless the machine has more cores") {
    const bool many_cores = omp_get_num_procs() > 32;
    CHECK(policy_set(started_environment(policy_names, {"OMP_NUM_THREADS=32"})) == many_cores);
  }
  SUBCASE("a choice of the user's is kept") {
    const std::vector<std::string> entries =
        started_environment(policy_names, {"OMP_NUM_THREADS=64", "GOMP_SPINCOUNT=1234"});
    CHECK(holds(entries, "GOMP_SPINCOUNT=1234"));
    CHECK_FALSE(policy_set(entries));
  }
}
