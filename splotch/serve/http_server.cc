#include "splotch/serve/http_server.h"

#include <httplib.h>

#include <cstdio>
#include <random>
#include <utility>

#include "params/user_error.h"
#include "splotch/serve/serve_page.h"

namespace splotch {
namespace {

// The parameters of a request that are the server's, not rendering keys.
bool server_parameter(const std::string& key) {
  return key == "token" || key == "client" || key == "quality" || key == "seq";
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

struct HttpServer::Impl {
  ViewServer& views;
  ViewQueue& queue;
  HttpOptions options;
  httplib::Server server;

  Impl(ViewServer& v, ViewQueue& q, HttpOptions o) : views(v), queue(q), options(std::move(o)) {}

  bool allowed(const httplib::Request& req, httplib::Response& res) const {
    if (same_token(req.get_param_value("token"), options.token)) return true;
    refuse(res, 403, "this server needs the token it printed at its start: open the URL it printed (.../?token=...)");
    return false;
  }

  void routes() {
    server.set_payload_max_length(64 * 1024);
    server.set_read_timeout(10, 0);
    server.set_write_timeout(10, 0);
    server.set_keep_alive_max_count(1000);
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      refuse(res, 500, "internal error while answering this request");
    });
    server.Get("/", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      res.set_header("Cache-Control", "no-store");
      res.set_content(serve_page(), "text/html; charset=utf-8");
    });
    server.Get("/info", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      res.set_header("Cache-Control", "no-store");
      res.set_content(views.info_json(), "application/json");
    });
    server.Get("/par", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      const std::optional<std::string> record = views.used_par(req.get_param_value("client"));
      if (!record) return refuse(res, 404, "no full picture of this browser yet: let the view come to rest, then save");
      res.set_header("Content-Disposition", "attachment; filename=\"view.par\"");
      res.set_header("Cache-Control", "no-store");
      res.set_content(*record, "text/plain; charset=utf-8");
    });
    server.Get("/view", [this](const httplib::Request& req, httplib::Response& res) {
      if (!allowed(req, res)) return;
      ViewJob job;
      job.client = req.get_param_value("client");
      if (job.client.empty() || job.client.size() > 64)
        return refuse(res, 400, "a view needs client=NAME (1 to 64 characters): the page's own name");
      const std::string quality = req.has_param("quality") ? req.get_param_value("quality") : "full";
      if (quality != "full" && quality != "reduced")
        return refuse(res, 400, "quality = '" + quality + "': full or reduced");
      job.reduced = quality == "reduced";
      KeyValues query;
      for (const auto& [key, value] : req.params)
        if (!server_parameter(key)) query.emplace_back(key, value);
      try {
        job.keys = browser_keys(query, views.ptypes(), views.palettes(), views.limits());
      } catch (const BadRequest& e) { return refuse(res, 400, e.what()); }
      const std::optional<ViewResult> result = queue.submit(std::move(job));
      res.set_header("Cache-Control", "no-store");
      if (!result) {
        res.status = 204;  // a newer view of this browser's took its place
        return;
      }
      res.status = result->status;
      for (const auto& [name, value] : result->headers) res.set_header(name, value);
      res.set_content(result->body, result->content_type);
    });
  }
};

HttpServer::HttpServer(ViewServer& views, ViewQueue& queue, HttpOptions options)
    : impl_(std::make_unique<Impl>(views, queue, std::move(options))) {
  impl_->routes();
}

HttpServer::~HttpServer() = default;

int HttpServer::bind() {
  const HttpOptions& o = impl_->options;
  if (o.port == 0) {
    const int port = impl_->server.bind_to_any_port(o.host);
    if (port < 0) throw UserError("cannot listen on " + o.host + " (is it an address of this machine?)");
    return port;
  }
  if (!impl_->server.bind_to_port(o.host, o.port))
    throw UserError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                    " (the port is taken, or the address is not this machine's): give another with --port N");
  return o.port;
}

void HttpServer::listen() { impl_->server.listen_after_bind(); }

void HttpServer::stop() { impl_->server.stop(); }

}  // namespace splotch
