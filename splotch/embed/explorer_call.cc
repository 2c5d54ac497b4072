#include "splotch/embed/explorer_call.h"

#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "errors/user_error.h"
#include "splotch/serve/http_server.h"
#include "splotch/serve/movie_run.h"
#include "splotch/serve/serve_run.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"

namespace splotch {
namespace {

ViewServerOptions view_options(const ExplorerCall& call) {
  ViewServerOptions o;
  o.palette_directory = call.palette_directory;
  o.work_budget = serve_work_budget();
  o.arrays = call.picture.arrays;
  return o;
}

HttpOptions http_options(const ExplorerCall& call) {
  HttpOptions o;
  o.host = call.host;
  o.port = call.port;
  o.token = random_token();
  return o;
}

// The header's warnings, joined by " | " (splotch/serve/view_server.cc), one by one.
std::vector<std::string> split_warnings(const std::string& joined) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= joined.size()) {
    const std::size_t bar = joined.find(" | ", start);
    out.push_back(joined.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 3;
  }
  return out;
}

}  // namespace

// In the order of their making: each part needs the ones above it, and they end in reverse.
struct Explorer::Impl {
  HttpOptions options;
  ViewServer views;
  ViewQueue queue;
  MovieRun movie;
  HttpServer http;
  std::vector<std::string> warnings;
  int port = 0;
  std::thread listening;
  std::atomic<bool> listened{false};  // listen() returned
  bool stopped = false;

  explicit Impl(const ExplorerCall& call)
      : options(http_options(call)),
        views(call_parameters(call.picture), view_options(call)),
        queue([this](const ViewJob& job) { return views.draw(job); }),
        movie(queue),
        http(views, queue, movie, options) {}
};

Explorer::Explorer(const ExplorerCall& call, const std::atomic<bool>* stop) : impl_(std::make_unique<Impl>(call)) {
  Impl& s = *impl_;
  const std::optional<ViewResult> first =
      s.queue.submit(ViewJob{"", {}, false}, [stop] { return stop == nullptr || !*stop; });
  if (!first) throw UserError("the explorer was stopped while reading the snapshot and drawing its first view");
  if (first->error) std::rethrow_exception(first->error);
  if (first->status != 200) throw UserError(first->body);
  for (const auto& [header, value] : first->headers)
    if (header == "X-Splotch-Warnings") s.warnings = split_warnings(value);
  s.port = s.http.bind();
  s.listening = std::thread([&s] {
    try {
      s.http.listen();
    } catch (...) {}  // (a listener that fails ends the serving; stop() still ends the rest)
    s.listened = true;
  });
}

Explorer::~Explorer() { stop(); }

void Explorer::stop() {
  Impl& s = *impl_;
  if (s.stopped) return;
  s.stopped = true;
  s.movie.cancel();
  s.queue.stop();
  if (s.listening.joinable()) {
    // (stop() before listen() began would find nothing to stop: it is waited for)
    while (!s.http.listening() && !s.listened) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    s.http.stop();
    s.listening.join();
  }
  s.movie.wait();
}

int Explorer::port() const { return impl_->port; }
const std::string& Explorer::token() const { return impl_->options.token; }
std::string Explorer::url() const { return serve_url(impl_->options, impl_->port); }
const std::vector<std::string>& Explorer::warnings() const { return impl_->warnings; }
std::size_t Explorer::drawn() const { return impl_->queue.drawn(); }
bool Explorer::serving() const { return !impl_->stopped && !impl_->listened && impl_->http.listening(); }

}  // namespace splotch
