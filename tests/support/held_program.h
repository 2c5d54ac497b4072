// A program run by a test, held before its start until the test is ready for it (files named by
// its pid made first), and waited for without any timing (tests/unit/test_interrupt.cc,
// tests/unit/test_thread_waiting.cc).
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace splotch::testing {

// The status a shell reports for a process that `raw` (a waitpid status) describes.
inline int shell_status(int raw) {
  return WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// A program started with `args` (no shell between: its pid is the child's), its stdout and
// stderr in files, held before exec until go(), so that files named by its pid can be made first.
class HeldProgram {
 public:
  // `unset`: names of environment variables the program starts without; `add`: NAME=value
  // entries it starts with (in place of the test's own value of NAME).
  HeldProgram(const std::vector<std::string>& args, const std::string& out, const std::string& err,
              std::vector<std::string> unset = {}, const std::vector<std::string>& add = {})
      : add_(add) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& entry : add_) unset.push_back(entry.substr(0, entry.find('=')));
    std::vector<char*> envp;  // (made here: the child calls only async-signal-safe functions)
    for (char** e = environ; *e; ++e)
      if (std::none_of(unset.begin(), unset.end(), [&](const std::string& name) {
            return std::strncmp(*e, (name + "=").c_str(), name.size() + 1) == 0;
          }))
        envp.push_back(*e);
    for (std::string& entry : add_) envp.push_back(entry.data());
    envp.push_back(nullptr);
    int go[2];
    REQUIRE(::pipe2(go, O_CLOEXEC) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {  // only async-signal-safe calls until exec
      ::close(go[1]);
      char c;
      if (::read(go[0], &c, 1) != 1) ::_exit(126);
      const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      ::dup2(o, STDOUT_FILENO);
      ::dup2(e, STDERR_FILENO);
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    ::close(go[0]);
    go_ = go[1];
  }
  ~HeldProgram() {
    if (go_ >= 0) ::close(go_);
    if (!ended_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  HeldProgram(const HeldProgram&) = delete;
  HeldProgram& operator=(const HeldProgram&) = delete;

  pid_t pid() const { return pid_; }
  void go() {
    REQUIRE(::write(go_, "g", 1) == 1);
    ::close(go_);
    go_ = -1;
  }
  // Whether it has ended (then status() is its waitpid status).
  bool ended() {
    if (!ended_ && ::waitpid(pid_, &status_, WNOHANG) == pid_) ended_ = true;
    return ended_;
  }
  int wait() {
    if (!ended_ && ::waitpid(pid_, &status_, 0) == pid_) ended_ = true;
    return status_;
  }

 private:
  std::vector<std::string> add_;
  pid_t pid_ = -1;
  int go_ = -1, status_ = -1;
  bool ended_ = false;
};

// Waits for `condition` while `program` runs, at most 5 minutes (a guard against a hang, not a
// timing: the test goes on as soon as the condition holds). Whether it held.
template <class Condition>
bool wait_for(HeldProgram& program, Condition&& condition) {
  for (int i = 0; i < 30000; ++i) {
    if (condition()) return true;
    if (program.ended()) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The writing end of FIFO `path`, opened once `program` has opened it for reading (it then waits
// for what the test writes); -1 where the program ended first.
inline int open_when_read(HeldProgram& program, const std::string& path) {
  int writer = -1;
  wait_for(program, [&] {
    writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);  // ENXIO until the reading opened it
    return writer >= 0;
  });
  return writer;
}

}  // namespace splotch::testing
