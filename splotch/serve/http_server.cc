#include "splotch/serve/http_server.h"

#include <httplib.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <utility>

#include "errors/user_error.h"
#include "splotch/serve/json_text.h"
#include "splotch/serve/map_view.h"
#include "splotch/serve/recorded_path.h"
#include "splotch/serve/request_rate.h"
#include "splotch/serve/serve_page.h"

namespace splotch {
namespace {

// Each address's requests (splotch/serve/request_rate.h): the page, one picture in flight at a
// time, asks at most about 100 a second of a small snapshot on a fast machine.
constexpr double requests_per_second = 200, request_burst = 400;

// The parameters of a request that are the server's, not rendering keys.
bool server_parameter(const std::string& key) {
  return key == "token" || key == "client" || key == "quality" || key == "frames" || key == "keys" || key == "confirm";
}

// A page's name for itself: letters, digits, '-' and '_' (the server's own jobs have other names).
bool client_name(const std::string& c) {
  if (c.empty() || c.size() > 64) return false;
  for (const char ch : c)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') return false;
  return true;
}

// Compares in time independent of where the strings differ.
bool same_token(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

void refuse(httplib::Response& res, int status, const std::string& why) {
  res.status = status;
  res.set_content("splotch: " + why + "\n", "text/plain");
}

}  // namespace

std::string random_token() {
  std::random_device device;
  std::string out;
  char hex[9];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(hex, sizeof hex, "%08x", unsigned(device()));
    out += hex;
  }
  return out;
}

// cpp-httplib's server, its request processing called on the listener's connections.
class RequestProcessor : public httplib::Server {
 public:
  using httplib::Server::process_request;
};

struct HttpServer::Impl {
  ViewServer& views;
  ViewQueue& queue;
  MovieRun& movie;
  HttpOptions options;
  RequestProcessor server;
  HttpListener listener;
  RequestRate rate{requests_per_second, request_burst};

  Impl(ViewServer& v, ViewQueue& q, MovieRun& m, HttpOptions o)
      : views(v), queue(q), movie(m), options(std::move(o)), listener(options.limits) {}

  // The request's rendering keys, checked.
  KeyValues rendering_keys(const httplib::Request& req) const {
    KeyValues query;
    for (const auto& [key, value] : req.params)
      if (!server_parameter(key)) query.emplace_back(key, value);
    return views.checked_keys(query);
  }

  // The recorded path of a request: its frames through its keyframes.
  std::vector<CameraKey> path(const httplib::Request& req) const {
    const int frames = browser_frame_count(req.get_param_value("frames"));
    try {
      return keyframe_path(browser_keyframes(req.get_param_value("keys")), frames);
    } catch (const UserError& e) {
      throw BadRequest(e.what());  // (a sky along the view, say)
    }
  }

  bool allowed(const httplib::Request& req, httplib::Response& res) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (!rate.allow(req.remote_addr, now)) {
      res.set_header("Retry-After", "1");
      refuse(res, 429,
             "too many requests from " + req.remote_addr + ": at most " + std::to_string(int(rate.per_second())) +
                 " a second; wait a second and ask again (one picture in flight at a time is what the page does)");
      return false;
    }
    if (same_token(req.get_param_value("token"), options.token)) return true;
    refuse(res, 403, "this server needs the token it printed at its start: open the URL it printed (.../?token=...)");
    return false;
  }

  // A browser's view: its picture, drawn by the queue (or dropped for a newer one of the browser's).
  void answer_view(const httplib::Request& req, httplib::Response& res) {
    if (!allowed(req, res)) return;
    ViewJob job;
    job.client = req.get_param_value("client");
    if (!client_name(job.client))
      return refuse(res, 400, "a view needs client=NAME (1 to 64 letters, digits, - or _): the page's own name");
    if (req.get_param_value_count("quality") > 1 || req.get_param_value_count("client") > 1)
      return refuse(res, 400, "quality and client are given once");
    const std::string quality = req.has_param("quality") ? req.get_param_value("quality") : "full";
    if (quality != "full" && quality != "reduced")
      return refuse(res, 400, "quality = '" + quality + "': full or reduced");
    job.reduced = quality == "reduced";
    try {
      job.keys = rendering_keys(req);
    } catch (const BadRequest& e) { return refuse(res, 400, e.what()); }
    // A browser that gave up (closed the connection) has its picture dropped or cancelled.
    const std::optional<ViewResult> result =
        queue.submit(std::move(job), [this] { return !listener.caller_peer_gone(); });
    res.set_header("Cache-Control", "no-store");
    if (!result) {
      res.status = 204;  // a newer view of this browser's took its place
      return;
    }
    res.status = result->status;
    for (const auto& [name, value] : result->headers) res.set_header(name, value);
    res.set_content(result->body, result->content_type);
  }

  // A movie of the recorded path: its plan first, then (confirm=1) started in the background.
  void answer_movie(const httplib::Request& req, httplib::Response& res) {
    if (!allowed(req, res)) return;
    std::vector<KeyValues> frames;
    KeyValues keys;
    try {
      keys = rendering_keys(req);
      const std::vector<CameraKey> through = path(req);
      // (between two snapshots of an evenly numbered series the server draws as the scene does)
      if (!frames_at_snapshots(through, views.series()) && views.series_step() == 0)
        throw BadRequest(
            "the path goes through time, between snapshots, which the server draws only on an evenly "
            "numbered series (" +
            views.series_step_note() +
            "): Save scene file, and bin/splotch view.par scene_file=path.txt draws its frames "
            "between snapshots (matched by ID)");
      frames = movie_frames(through, keys);
    } catch (const BadRequest& e) { return refuse(res, 400, e.what()); }
    // Asked first: what it will take (a movie of 10^5 frames at 4096^2 takes days and terabytes).
    const MoviePlan plan = views.plan_movie(req.get_param_value("client"), int(frames.size()), keys);
    res.set_header("Cache-Control", "no-store");
    if (req.get_param_value("confirm") != "1") return res.set_content(movie_plan_json(plan), "application/json");
    if (!plan.fits())
      return refuse(res, 507,
                    "the movie's frames would take about " + json_number(plan.bytes / 1e9) + " GB; the disk of " +
                        plan.first_file + " has " + json_number(plan.free_bytes / 1e9) +
                        " GB free: fewer frames or smaller pictures");
    if (!movie.start(std::move(frames), plan.outfile))
      return refuse(res, 409, "a movie is being rendered: wait for it, or cancel it");
    res.status = 202;
    res.set_content(movie_plan_json(plan), "application/json");
  }

  // What every request meets before its page: bounds, methods, errors.
  void guard_requests() {
    server.set_payload_max_length(64 * 1024);
    // (What the answers' Keep-Alive header tells the browser: the listener's bounds.)
    server.set_keep_alive_timeout(time_t(options.limits.idle_seconds));
    server.set_keep_alive_max_count(options.limits.max_requests);
    // Every page is a GET: a body that another method brings is never read (a slow one would hold
    // its connection's thread).
    server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
      if (req.method == "GET") return httplib::Server::HandlerResponse::Unhandled;
      refuse(res, 405, req.method + " is not answered here: the server's pages are GET requests");
      return httplib::Server::HandlerResponse::Handled;
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      refuse(res, 500, "internal error while answering this request");
    });
  }

  void routes() {
    guard_requests();
    server.Get("/", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      res.set_header("Cache-Control", "no-store");
      res.set_content(serve_page(), "text/html; charset=utf-8");
    });
    server.Get("/info", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      res.set_header("Cache-Control", "no-store");
      res.set_content(views.info_json(req.get_param_value("client")), "application/json");
    });
    server.Get("/par", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      const std::optional<std::string> record = views.used_par(req.get_param_value("client"));
      if (!record) return refuse(res, 404, "no full picture of this browser yet: let the view come to rest, then save");
      res.set_header("Content-Disposition", "attachment; filename=\"view.par\"");
      res.set_header("Cache-Control", "no-store");
      res.set_content(*record, "text/plain; charset=utf-8");
    });
    // The values of the browser's last full map (the page's map mode): float32, little-endian, in
    // the picture's rows (row 0 at the top of the image the page shows: the map's row 0).
    server.Get("/map", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      const std::optional<MapFile> map = views.last_map(req.get_param_value("client"));
      if (!map) return refuse(res, 404, "no full map of this browser yet: choose a map and let the view come to rest");
      std::string body(map->values.size() * sizeof(float), '\0');
      for (std::size_t i = 0; i < map->values.size(); ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &map->values[i], sizeof bits);
        for (int b = 0; b < 4; ++b) body[4 * i + std::size_t(b)] = char((bits >> (8 * b)) & 0xff);
      }
      res.set_header("X-Splotch-Map-Size", std::to_string(map->xres) + " " + std::to_string(map->yres));
      // (where its pixels lie, of this map: the page pairs the values with their own frame)
      res.set_header("X-Splotch-Map-Frame", map_frame_text(*map));
      res.set_header("Cache-Control", "no-store");
      res.set_content(body, "application/octet-stream");
    });
    server.Get("/view", [this](const httplib::Request& req, httplib::Response& res) { answer_view(req, res); });
    server.Get("/scene", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      try {
        const std::string text = path_scene_text(path(req), views.series(), views.series_scene_note());
        res.set_header("Content-Disposition", "attachment; filename=\"path.txt\"");
        res.set_content(text, "text/plain; charset=utf-8");
      } catch (const BadRequest& e) { refuse(res, 400, e.what()); }
    });
    server.Get("/movie", [this](const httplib::Request& req, httplib::Response& res) { answer_movie(req, res); });
    server.Get("/movie/progress", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      const MovieProgress p = movie.progress();
      res.set_header("Cache-Control", "no-store");
      res.set_content("{\"running\":" + std::string(p.running ? "true" : "false") +
                          ",\"cancelled\":" + (p.cancelled ? "true" : "false") + ",\"done\":" + std::to_string(p.done) +
                          ",\"total\":" + std::to_string(p.total) + ",\"failed\":" + std::to_string(p.failed) +
                          ",\"last_file\":" + json_string(p.last_file) + ",\"last_error\":" +
                          json_string(p.last_error) + ",\"seconds\":" + json_number(p.seconds) + "}",
                      "application/json");
    });
    server.Get("/movie/cancel", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      movie.cancel();
      res.set_content("{}", "application/json");
    });
  }
};

HttpServer::HttpServer(ViewServer& views, ViewQueue& queue, MovieRun& movie, HttpOptions options)
    : impl_(std::make_unique<Impl>(views, queue, movie, std::move(options))) {
  impl_->routes();
}

HttpServer::~HttpServer() = default;

int HttpServer::bind() { return impl_->listener.bind(impl_->options.host, impl_->options.port); }

void HttpServer::listen() {
  impl_->listener.listen([this](httplib::Stream& stream, bool last, bool& closed) {
    // A request of another method than GET is refused with its body unread: the connection then
    // ends, so that the body is not taken for the next request.
    bool get = true;
    const bool ok = impl_->server.process_request(stream, last, closed,
                                                  [&get](httplib::Request& req) { get = req.method == "GET"; });
    closed = closed || !get;
    return ok;
  });
}

bool HttpServer::listening() const { return impl_->listener.listening(); }

void HttpServer::stop() { impl_->listener.stop(); }

std::size_t HttpServer::open_connections() const { return impl_->listener.open_connections(); }

std::size_t HttpServer::requests_begun() const { return impl_->listener.requests_begun(); }

}  // namespace splotch
