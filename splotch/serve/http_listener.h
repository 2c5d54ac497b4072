// The server's sockets (bin/splotch --serve): the listening socket, refused when another process
// holds the port, and a thread for each connection, whose requests are read and answered by
// cpp-httplib's request processing (splotch/serve/http_server.h).
//
// Why not cpp-httplib's own loop: it serves connections from a pool of max(8, cores - 1) threads
// and bounds each read of a request, not the request: 8 connections sending a header every 3 s
// held every thread, before any token check, and the server answered nobody. Here a connection
// waits for a thread of its own, a request's line and headers must come whole within
// request_seconds of its first byte, and a connection that waits longer than idle_seconds for its
// next request is closed. cpp-httplib's listening socket also takes SO_REUSEPORT, so that a second
// server on a port in use started silently and the two shared its requests.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Stream;
}

namespace splotch {

struct ListenerLimits {
  double request_seconds = 10;        // from a request's first byte to the end of its headers
  double idle_seconds = 5;            // a connection's wait for its next request
  double write_seconds = 10;          // a write that makes no progress for this long ends the connection
  std::size_t max_connections = 128;  // beyond: a new connection is answered 503 and closed
  std::size_t max_requests = 1000;    // on one connection
  // Seconds on a steady clock; null: std::chrono::steady_clock. Tests inject one, so that no
  // bound depends on how fast the machine is.
  std::function<double()> clock;
};

class HttpListener {
 public:
  // Answers one request read from the stream; `last` asks it to close the connection after, and
  // it sets `closed` when the client asked that. False: the connection ends.
  using Answer = std::function<bool(httplib::Stream& stream, bool last, bool& closed)>;

  explicit HttpListener(ListenerLimits limits = {});
  ~HttpListener();  // stop(), and the connections ended
  HttpListener(const HttpListener&) = delete;
  HttpListener& operator=(const HttpListener&) = delete;

  // Listens on host:port (0: any free port) and returns the port; throws UserError saying what to
  // do when it cannot (the port taken, the address not this machine's).
  int bind(const std::string& host, int port);
  // Accepts and serves connections until stop(); returns when every connection has ended.
  void listen(const Answer& answer);
  bool listening() const { return listening_; }
  // No more connections; those open end after the request they are answering.
  void stop();

  // Whether the client of the connection the calling thread serves has closed it (a browser that
  // gave up its request); false on a thread that serves none.
  bool caller_peer_gone() const;
  std::size_t open_connections() const;                           // with a thread serving them
  std::size_t requests_begun() const { return requests_begun_; }  // whose first byte came

 private:
  struct Connection {
    int fd;
    std::thread thread;
    bool ended = false;
  };
  double now() const;
  void serve(Connection& c, const Answer& answer);
  void reap(bool all);

  ListenerLimits limits_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false}, listening_{false};
  std::atomic<std::size_t> requests_begun_{0};
  mutable std::mutex mutex_;
  std::condition_variable ended_;
  std::list<Connection> connections_;
  std::map<std::thread::id, int> by_thread_;  // the connection each thread serves
};

}  // namespace splotch
