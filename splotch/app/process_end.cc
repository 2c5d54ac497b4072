#include "splotch/app/process_end.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace splotch {
namespace {

// The open file descriptors other than the GPU's device files (/dev/nvidia*, /dev/dxg): those the
// child must close so that it holds nothing of the caller's (a terminal, a pipe, a lock) open.
std::vector<int> descriptors_to_close() {
  std::vector<int> fds;
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) {
    for (int fd = 0; fd <= 2; ++fd) fds.push_back(fd);  // (no /proc: the standard ones at least)
    return fds;
  }
  const int own = ::dirfd(dir);
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == own) continue;
    char target[256] = {};
    const std::string link = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    const bool device = n > 0 && (std::strncmp(target, "/dev/nvidia", 11) == 0 || std::strcmp(target, "/dev/dxg") == 0);
    if (!device) fds.push_back(int(fd));
  }
  ::closedir(dir);
  return fds;
}

}  // namespace

void end_leaving_gpu_teardown(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const std::vector<int> close_in_child = descriptors_to_close();
  int ended[2];
  if (::pipe(ended) == 0) {
    // _Fork, not fork: fork runs the handlers libraries registered with pthread_atfork, which may
    // wait for locks that the process's other threads (the driver's, OpenMP's) hold.
    const pid_t child = ::_Fork();
    if (child == 0) {
      // Only async-signal-safe calls here. The child waits for the parent's end (its pipe's write
      // end closing), so that its own close of the device files is the last one. A Ctrl-C meanwhile
      // ends it silently: the run it belongs to is over (io/interrupt_cleanup.h would say otherwise).
      struct sigaction default_action = {};
      default_action.sa_handler = SIG_DFL;
      ::sigaction(SIGINT, &default_action, nullptr);
      ::sigaction(SIGTERM, &default_action, nullptr);
      for (int fd : close_in_child) ::close(fd);
      ::close(ended[1]);
      char c;
      while (::read(ended[0], &c, 1) < 0 && errno == EINTR) {}
      ::_exit(0);
    }
  }
  ::_exit(status);  // (no child: the teardown is this process's, as it would have been)
}

}  // namespace splotch
