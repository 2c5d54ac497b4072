// Helpers of the server's tests (tests/test_serve*.cc): a small snapshot and its .par, a gate that
// holds the queue's drawing until a test opens it, a server listening on a thread of the test, and
// bin/splotch --serve as a process.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/byte_order.h"
#include "io/image_reader.h"
#include "params/param_file.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/http_server.h"
#include "splotch/serve/movie_run.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"
#include "tests/support/test_support.h"

namespace splotch::serve_testing {

using namespace splotch::testing;

// Waits (without a time limit of its own: the test's is doctest's and CI's) until `done`.
template <class F>
void wait_until(F done) {
  while (!done()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// A raw table of 2000 particles in two clumps (x y z hsml I C1, big-endian) and a .par that draws
// it to `outfile`; returns the .par's path.
inline std::string clumps_par(const TempDir& dir, const std::string& outfile, const std::string& more = "") {
  std::mt19937 random(7);
  std::normal_distribution<float> spread(0, 6);
  std::vector<float> words;
  for (int i = 0; i < 2000; ++i) {
    const float centre = i % 2 ? 35.0f : 65.0f;
    const std::array<float, 6> r = {centre + spread(random), 50 + spread(random), 50 + spread(random), 1.5f,
                                    1.0f + float(i % 7),     1.0f + float(i % 13)};
    words.insert(words.end(), r.begin(), r.end());
  }
  swap_bytes_4(words.data(), words.size());
  const std::string bin =
      dir.write("clumps.bin", std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  return dir.write("clumps.par", "simtype = 0\ninfile = " + bin +
                                     "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                                     "palette0 = testdata/palettes/fire.pal\ncamera_x = 50\ncamera_y = -60\n"
                                     "camera_z = 50\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\nxres = 160\n"
                                     "yres = 120\nfov = 50\nbrightness0 = 2\ncolor_log0 = TRUE\noutfile = " +
                                     outfile + "\n" + more);
}

inline ViewServerOptions test_options() {
  ViewServerOptions o;
  o.palette_directory = "testdata/palettes";
  return o;
}

inline std::string bytes_of(const ViewResult& r) { return r.body; }

// A picture's header `name` (X-Splotch-*), "" where it has none.
inline std::string header(const ViewResult& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "";
}

// Holds the queue's thread in a picture's drawing until the test opens it, and counts the
// pictures that came to it: the tests order their threads by it, never by time.
class Gate {
 public:
  explicit Gate(bool open) : open_(open) {}
  void pass() {
    std::unique_lock<std::mutex> lock(m_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
  }
  void wait_entered(int n) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }
  void set(bool open) {
    {
      std::lock_guard<std::mutex> lock(m_);
      open_ = open;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool open_;
  int entered_ = 0;
};

// A picture's bytes decoded (through a file: the readers take paths).
inline Image8 decode(const TempDir& dir, const std::string& bytes) {
  return read_image(dir.write("decoded.bin", bytes));
}

// The picture bin/splotch writes for `par` with `keys` on the command line (to `outfile` in `dir`).
inline std::string bin_splotch_picture(const TempDir& dir, const std::string& par, const KeyValues& keys,
                                       const std::string& outfile = "plain.png") {
  std::string overrides;
  for (const auto& [k, v] : keys) overrides += " " + k + "=" + v;
  const CommandResult r = run_command("bin/splotch --quiet " + par + " outfile=" + dir.file(outfile) + overrides);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return read_file(dir.file(outfile));
}

// The snapshot alone's parameters (bin/splotch --init `snapshot`) with `more` (a smaller picture,
// say) and an outfile in `dir`, written to dir/snap.par.
inline std::string init_par(const TempDir& dir, const std::string& snapshot, const std::string& more) {
  const CommandResult init = run_command("bin/splotch --init " + snapshot);
  INFO(init.err);
  REQUIRE(init.status == 0);
  return dir.write("snap.par", init.out + more + "outfile = " + dir.file("s.png") + "\n");
}

inline bool contains_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The server's first picture, drawn as serve() draws it.
inline void start(ViewServer& views) {
  const ViewResult first = views.draw(ViewJob{"", {}, false});
  REQUIRE(first.status == 200);
}

// A server on a free port of 127.0.0.1, listening on a thread of its own until the end of scope.
// `held`: every picture after the first is held in its drawing until release().
struct RunningServer {
  ViewServer views;
  Gate gate{true};  // the first picture is not held
  ViewQueue queue;
  MovieRun movie;
  HttpServer http;
  int port = 0;
  std::thread thread;

  RunningServer(const std::string& par, bool held, ListenerLimits limits = {},
                ViewServerOptions options = test_options())
      : views(ParamFile::read(par), options),
        queue([this](const ViewJob& job) {
          gate.pass();
          return views.draw(job);
        }),
        movie(queue),
        http(views, queue, movie, HttpOptions{"127.0.0.1", 0, "s3cret", limits}) {
    REQUIRE(queue.submit(ViewJob{"", {}, false})->status == 200);
    if (held) gate.set(false);
    port = http.bind();
    thread = std::thread([this] { http.listen(); });
  }
  ~RunningServer() {
    release();
    http.stop();
    thread.join();
  }
  void release() { gate.set(true); }
  void wait_entered(int n) { gate.wait_entered(n); }
};

// A socket connected to the server on this machine's `port`.
inline int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(std::uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  return fd;
}

inline std::string raw_exchange(int port, const std::string& request) {
  httplib::Client probe("127.0.0.1", port);  // (only to be sure the server listens)
  const int fd = connect_to(port);
  REQUIRE(::send(fd, request.data(), request.size(), 0) == ssize_t(request.size()));
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) answer.append(buffer, std::size_t(n));
  ::close(fd);
  return answer;
}

// bin/splotch started with `args`, its standard output read line by line until the URL it prints.
struct ServerProcess {
  pid_t pid = -1;
  std::string url, out;
  int port = 0;
  std::string token;

  explicit ServerProcess(const std::string& args, const std::string& err_file) {
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(pipe_fds[1], 1);
      ::close(pipe_fds[0]);
      ::execl("/bin/sh", "sh", "-c", ("exec bin/splotch " + args + " 2>" + err_file).c_str(), (char*)nullptr);
      ::_exit(127);
    }
    ::close(pipe_fds[1]);
    char c;
    while (::read(pipe_fds[0], &c, 1) == 1) {
      out += c;
      // The banner ends with the way to open the URL.
      if (c == '\n' && (out.find("above there.") != std::string::npos || out.find("can view") != std::string::npos))
        break;
    }
    ::close(pipe_fds[0]);
    const std::size_t colon = out.find("127.0.0.1:"), at = out.find("/?token=");
    if (colon == std::string::npos || at == std::string::npos) return;
    port = std::stoi(out.substr(colon + 10, at - colon - 10));
    token = out.substr(at + 8, out.find('\n', at) - at - 8);
  }
  // SIGINT, as Ctrl-C; the exit status.
  int stop() {
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

}  // namespace splotch::serve_testing
