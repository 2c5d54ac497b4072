// The server's HTTP side (bin/splotch --serve), on cpp-httplib: the page, a browser's views
// (coalesced by ViewQueue), what the page needs to know, and the Save of the view's .par.
//
//   GET /?token=T                      the page (splotch/serve/serve_page.h)
//   GET /view?token=T&client=C&quality=full|reduced&KEY=VALUE...
//                                      a picture: PNG (full) or JPEG (reduced); 204 when a newer
//                                      view of the same client took its place (one being drawn
//                                      stops), 400 beyond the work budget (view_server.h)
//   GET /info?token=T                  JSON: types and ranges, palettes, the first view's keys
//   GET /par?token=T&client=C          the record (used.par) of C's last full picture
//   GET /scene?token=T&frames=N&keys=K the scene file of a recorded path (splotch/serve/recorded_path.h)
//   GET /movie?token=T&client=C&frames=N&keys=K&KEY=VALUE...   what rendering that path here would
//                                      take, and its frames' names (JSON, splotch/serve/movie_plan.h);
//                                      with confirm=1 renders it (202), as a scene's frames
//   GET /movie/progress?token=T, /movie/cancel?token=T
//
// Every request carries the token that the server printed at its start (403 without it): a
// machine's other users reach its 127.0.0.1 too. A request the server refuses gets 400 with what
// is wrong, and the server goes on serving. An address asking more than 200 a second (beyond a
// burst of 400) gets 429 (splotch/serve/request_rate.h). The sockets are
// splotch/serve/http_listener.h's: a port in use is refused, a request must come whole within its
// bound, and each connection has a thread of its own.
#pragma once

#include <memory>
#include <string>

#include "splotch/serve/http_listener.h"
#include "splotch/serve/movie_run.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"

namespace splotch {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  std::string token;
  ListenerLimits limits = {};
};

// A token of 128 random bits, as 32 hex digits.
std::string random_token();

class HttpServer {
 public:
  HttpServer(ViewServer& views, ViewQueue& queue, MovieRun& movie, HttpOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the address; returns the port. Throws UserError when it cannot (the port taken, say:
  // never shared with another process).
  int bind();
  // Serves until stop() is called (from another thread).
  void listen();
  bool listening() const;  // listen() has begun serving
  void stop();
  std::size_t open_connections() const;  // (the tests)
  std::size_t requests_begun() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace splotch
