#include "splotch/serve/http_listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>

#include "errors/user_error.h"

namespace splotch {
namespace {

// Waits on a socket are cut into slices this long, so that a stop, or a test's clock, is seen.
constexpr int slice_ms = 100;

std::string address_text(const sockaddr_storage& a, socklen_t size, int& port) {
  char host[NI_MAXHOST] = "", service[NI_MAXSERV] = "";
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&a), size, host, sizeof host, service, sizeof service,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "";
  port = std::atoi(service);
  return host;
}

// A connection's bytes for cpp-httplib's request processing: reads buffered (it reads a request's
// line a byte at a time), each request's reads bounded as a whole by its deadline.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(int fd, const ListenerLimits& limits, std::function<double()> clock,
                   const std::atomic<bool>& stopping)
      : fd_(fd), limits_(limits), clock_(std::move(clock)), stopping_(stopping) {}

  using httplib::Stream::write;
  bool is_readable() const override { return start_ < end_ || wait(POLLIN, deadline_); }
  // (An answer being written goes out even when the server stops.)
  bool is_writable() const override { return wait(POLLOUT, clock_() + limits_.write_seconds, false); }
  ssize_t read(char* out, size_t size) override {
    if (start_ == end_) {
      if (!wait(POLLIN, deadline_)) {
        late_ = true;
        return -1;
      }
      const ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, 0);
      if (n <= 0) return n;
      start_ = 0;
      end_ = std::size_t(n);
    }
    const std::size_t n = std::min(size, end_ - start_);
    std::memcpy(out, buffer_ + start_, n);
    start_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* data, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(fd_, data, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip = peer(true, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip = peer(false, port); }
  socket_t socket() const override { return fd_; }

  // A read of the request found its time up (or the server stopping): the connection ends, after
  // the answer cpp-httplib gives an incomplete request.
  bool late() const { return late_; }
  // Waits for the next request's first byte until `idle_deadline`; false when none came (or the
  // server stops, or the client closed). From its first byte, a request has request_seconds.
  bool next_request(double idle_deadline) {
    if (start_ == end_ && !wait(POLLIN, idle_deadline)) return false;
    deadline_ = clock_() + limits_.request_seconds;
    return true;
  }

 private:
  bool wait(short events, double deadline, bool heed_stop = true) const {
    for (;;) {
      const double left = deadline - clock_();
      if (left <= 0 || (heed_stop && stopping_)) return false;
      pollfd p{fd_, events, 0};
      const int n = ::poll(&p, 1, int(std::min<double>(slice_ms, left * 1000 + 1)));
      if (n > 0) return true;  // (an error or a hang-up too: the read or write then says which)
      if (n < 0 && errno != EINTR) return false;
    }
  }
  std::string peer(bool remote, int& port) const {
    sockaddr_storage a{};
    socklen_t size = sizeof a;
    port = 0;
    const int got = remote ? ::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &size)
                           : ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
    return got == 0 ? address_text(a, size, port) : "";
  }

  int fd_;
  const ListenerLimits& limits_;
  std::function<double()> clock_;
  const std::atomic<bool>& stopping_;
  double deadline_ = 0;
  bool late_ = false;
  char buffer_[4096];
  std::size_t start_ = 0, end_ = 0;
};

// A connection beyond the limit hears why, at once, instead of waiting unanswered.
void refuse_busy(int fd, std::size_t open) {
  const std::string text =
      "splotch: " + std::to_string(open) + " connections are open to this server, its most; try again in a moment\n";
  const std::string answer =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: "
      "1\r\nConnection: close\r\nContent-Length: " +
      std::to_string(text.size()) + "\r\n\r\n" + text;
  (void)::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(fd, SHUT_WR);
  ::close(fd);
}

}  // namespace

HttpListener::HttpListener(ListenerLimits limits) : limits_(std::move(limits)) {
  if (!limits_.clock)
    limits_.clock = [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
}

HttpListener::~HttpListener() {
  stop();
  reap(true);
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

double HttpListener::now() const { return limits_.clock(); }

int HttpListener::bind(const std::string& host, int port) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found)
    throw UserError("cannot listen on " + where + ": '" + host + "' is not an address of this machine (--host)");
  int error = 0;
  for (addrinfo* a = found; a && listen_fd_ < 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    // SO_REUSEADDR alone: a port in TIME_WAIT from a server just stopped is taken again, one that
    // another process listens on is not (SO_REUSEPORT would share it with that process).
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 128) == 0) {
      listen_fd_ = fd;
    } else {
      error = errno;
      ::close(fd);
    }
  }
  ::freeaddrinfo(found);
  if (listen_fd_ < 0) {
    if (error == EADDRINUSE)
      throw UserError("cannot listen on " + where +
                      ": the port is taken (another server, perhaps a bin/splotch --serve already running): give "
                      "another with --port N (0: any free one)");
    throw UserError("cannot listen on " + where + " (" + std::strerror(error) +
                    "): give another port with --port N, or an address of this machine with --host");
  }
  sockaddr_storage bound{};
  socklen_t size = sizeof bound;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &size);
  int actual = port;
  address_text(bound, size, actual);
  return actual;
}

void HttpListener::listen(const Answer& answer) {
  listening_ = true;
  while (!stopping_ && listen_fd_ >= 0) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, slice_ms) <= 0) {
      reap(false);
      continue;
    }
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    reap(false);
    if (fd < 0) {
      // Out of descriptors: the connections open must end first.
      if (errno == EMFILE || errno == ENFILE) ::poll(nullptr, 0, slice_ms);
      continue;
    }
    // A picture goes out as its headers and its body: without this, Nagle's algorithm holds the
    // body until the browser acknowledges the headers, which it delays (40 ms a picture).
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t open = std::size_t(
        std::count_if(connections_.begin(), connections_.end(), [](const Connection& c) { return !c.ended; }));
    if (open >= limits_.max_connections) {
      refuse_busy(fd, open);
      continue;
    }
    connections_.push_back(Connection{fd, {}, false});
    Connection& c = connections_.back();
    try {
      c.thread = std::thread([this, &c, &answer] { serve(c, answer); });
    } catch (const std::system_error&) {  // no thread to be had (EAGAIN): this connection is refused
      ::close(fd);
      connections_.pop_back();
    }
  }
  reap(true);
  listening_ = false;
}

void HttpListener::serve(Connection& c, const Answer& answer) {
  double idle_deadline = now() + limits_.idle_seconds;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    by_thread_[std::this_thread::get_id()] = c.fd;
  }
  ConnectionStream stream(c.fd, limits_, limits_.clock, stopping_);
  try {
    for (std::size_t n = 0; n < limits_.max_requests; ++n, idle_deadline = now() + limits_.idle_seconds) {
      if (!stream.next_request(idle_deadline)) break;
      ++requests_begun_;
      bool closed = false;
      const bool last = n + 1 == limits_.max_requests || stopping_;
      if (!answer(stream, last, closed) || closed || last || stream.late()) break;
    }
  } catch (...) {
    // (Out of memory, say, outside a handler: cpp-httplib answers a handler's exceptions itself.)
  }
  std::lock_guard<std::mutex> lock(mutex_);
  by_thread_.erase(std::this_thread::get_id());
  ::close(c.fd);
  c.ended = true;
  ended_.notify_all();
}

void HttpListener::reap(bool all) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (all)
    ended_.wait(lock, [&] {
      return std::all_of(connections_.begin(), connections_.end(), [](const Connection& c) { return c.ended; });
    });
  for (auto c = connections_.begin(); c != connections_.end();) {
    if (!c->ended) {
      ++c;
      continue;
    }
    c->thread.join();  // (it has nothing left to do but return)
    c = connections_.erase(c);
  }
}

void HttpListener::stop() { stopping_ = true; }

bool HttpListener::caller_peer_gone() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto at = by_thread_.find(std::this_thread::get_id());
  if (at == by_thread_.end()) return false;
  pollfd p{at->second, POLLIN | POLLRDHUP, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) return true;
  char byte;
  return ::recv(at->second, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

std::size_t HttpListener::open_connections() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return by_thread_.size();
}

}  // namespace splotch
