// The server's HTTP side under load (issue 36, section 8): many browsers, slow connections, a
// second server on a port in use. splotch/serve/http_listener.h, splotch/serve/view_server.h.
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "splotch/serve/http_listener.h"
#include "tests/support/serve_test_support.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;
using namespace splotch::serve_testing;

namespace {

// Whether the server closed `fd` (reading whatever it answered first); waits without a limit.
void wait_closed(int fd) {
  char buffer[4096];
  while (::recv(fd, buffer, sizeof buffer, 0) > 0) {}
}

// Whether `fd` is open and unanswered now.
bool open_and_silent(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) == 0;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("serve: after more browsers than records are kept, /info still answers (the first picture's ranges)") {
  TempDir dir;
  ViewServerOptions options = test_options();
  options.max_records = 3;
  ViewServer views(ParamFile::read(clumps_par(dir, dir.file("served.png"))), options);
  start(views);
  const std::string first_info = views.info_json();
  // (the page's title names the snapshot: the .par's infile)
  CHECK(first_info.find("\"snapshot\":\"" + ParamFile::read(clumps_par(dir, dir.file("x.png"))).peek("infile") +
                        "\"") != std::string::npos);
  // What the page draws over the picture: the length unit (a raw table declares none), the
  // colour field of each type, the palettes' colours.
  CHECK(first_info.find("\"length_unit\":\"code length\",\"length_per_code\":1") != std::string::npos);
  CHECK(first_info.find("\"colour_labels\":[") != std::string::npos);
  CHECK(first_info.find("\"colour_vector\":[false]") != std::string::npos);  // (its C1 through palette0)
  CHECK(first_info.find("\"palette_colours\":{") != std::string::npos);
  CHECK(first_info.find("\"#000000\"") != std::string::npos);
  for (int c = 0; c < 5; ++c)
    REQUIRE(views.draw(ViewJob{"c" + std::to_string(c), {{"color_min0", "2"}, {"color_max0", "9"}}, false}).status ==
            200);
  // The first picture's record went for the browsers' (only 3 are kept), its ranges stay.
  CHECK_FALSE(views.used_par(""));
  CHECK_FALSE(views.used_par("c1"));
  CHECK(views.used_par("c4"));
  CHECK(views.info_json() == first_info);
  CHECK(views.info_json("c0") == first_info);  // its own went with its record
  CHECK(views.info_json("c4").find("\"colour_used\":[2,9]") != std::string::npos);
}

TEST_CASE("serve over HTTP: 260 browsers, then a new page's /info and view are answered (issue 36's case)") {
  TempDir dir;
  RunningServer server(clumps_par(dir, dir.file("served.png")), false);
  httplib::Client client("127.0.0.1", server.port);
  for (int c = 0; c < 260; ++c) {
    const auto r = client.Get("/view?token=s3cret&xres=8&yres=6&client=c" + std::to_string(c));
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  const auto info = client.Get("/info?token=s3cret");
  REQUIRE(info);
  CHECK(info->status == 200);
  CHECK(info->body.find("\"ptypes\":1") != std::string::npos);
  const auto own = client.Get("/info?token=s3cret&client=c0");
  REQUIRE(own);
  CHECK(own->status == 200);
  CHECK(client.Get("/view?token=s3cret&client=new&xres=8&yres=6")->status == 200);
}

TEST_CASE("serve over HTTP: a port in use is refused, saying so; never shared with the other server") {
  HttpListener first;
  const int port = first.bind("127.0.0.1", 0);
  REQUIRE(port > 0);
  HttpListener second;
  const std::string why = message_of([&] { second.bind("127.0.0.1", port); });
  CHECK(why.find("the port is taken") != std::string::npos);
  CHECK(why.find("--port N") != std::string::npos);
  // On every address too (another process listening on 0.0.0.0 holds 127.0.0.1's port).
  HttpListener any;
  const int any_port = any.bind("0.0.0.0", 0);
  HttpListener local;
  CHECK(message_of([&] { local.bind("127.0.0.1", any_port); }).find("the port is taken") != std::string::npos);
  CHECK(message_of([&] { local.bind("no-such-host.invalid", 0); }).find("not an address of this machine") !=
        std::string::npos);
  // bin/splotch --serve on it ends with the error (status 1) instead of serving half the requests.
  TempDir dir;
  const CommandResult r =
      run_command("bin/splotch --serve " + clumps_par(dir, dir.file("served.png")) + " --port " + std::to_string(port));
  CHECK(r.status == 1);
  CHECK(r.err.find("the port is taken") != std::string::npos);
  CHECK(r.out.find("/?token=") == std::string::npos);
}

TEST_CASE(
    "serve over HTTP: slow connections hold nobody up, and one whose request is not whole within its bound is "
    "closed (an injected clock)") {
  TempDir dir;
  std::atomic<double> now{1000};
  ListenerLimits limits;
  limits.clock = [&] { return now.load(); };
  limits.request_seconds = 10;
  limits.idle_seconds = 5;
  RunningServer server(clumps_par(dir, dir.file("served.png")), false, limits);
  // 8 connections with a request line and a header (more to come), 8 with half a request line,
  // and one that has sent nothing: more than cpp-httplib's pool of 8 threads.
  std::vector<int> slow;
  for (int k = 0; k < 8; ++k) {
    slow.push_back(connect_to(server.port));
    const std::string part = "GET /info?token=s3cret HTTP/1.1\r\nX-Slow: 1\r\n";
    REQUIRE(::send(slow.back(), part.data(), part.size(), 0) == ssize_t(part.size()));
  }
  for (int k = 0; k < 8; ++k) {
    slow.push_back(connect_to(server.port));
    REQUIRE(::send(slow.back(), "GET /inf", 8, 0) == 8);
  }
  slow.push_back(connect_to(server.port));
  // (Each request's bound is set from its first byte, the idle one's wait from its start.)
  wait_until([&] { return server.http.open_connections() == slow.size() && server.http.requests_begun() == 16; });
  // Another browser is answered meanwhile, at once (the clock does not move).
  httplib::Client client("127.0.0.1", server.port);
  const auto info = client.Get("/info?token=s3cret");
  REQUIRE(info);
  CHECK(info->status == 200);
  for (const int fd : slow) CHECK(open_and_silent(fd));
  // 9 s on: each may still finish its request (the idle one has waited past its 5 s: closed).
  now = 1009;
  wait_closed(slow.back());
  for (std::size_t k = 0; k + 1 < slow.size(); ++k) CHECK(open_and_silent(slow[k]));
  // A header every 3 s does not stretch the bound: 11 s after their first byte they are closed.
  for (std::size_t k = 0; k + 1 < slow.size(); ++k) REQUIRE(::send(slow[k], "X", 1, 0) == 1);
  now = 1011;
  for (const int fd : slow) {
    wait_closed(fd);
    ::close(fd);
  }
  wait_until([&] { return server.http.open_connections() <= 1; });  // (the client's, kept alive)
  const auto again = client.Get("/info?token=s3cret");
  REQUIRE(again);
  CHECK(again->status == 200);
}

TEST_CASE("serve over HTTP: beyond the most connections a new one is answered 503 at once, and serving goes on") {
  TempDir dir;
  ListenerLimits limits;
  limits.max_connections = 3;
  limits.clock = [] { return 0.0; };  // (the idle connections wait for ever)
  RunningServer server(clumps_par(dir, dir.file("served.png")), false, limits);
  std::vector<int> open;
  for (int k = 0; k < 3; ++k) open.push_back(connect_to(server.port));
  wait_until([&] { return server.http.open_connections() == 3; });
  // (Read before anything is sent: the answer comes at once, and a request left unread would have
  // the close reset the connection.)
  const int extra = connect_to(server.port);
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(extra, buffer, sizeof buffer, 0)) > 0;) answer.append(buffer, std::size_t(n));
  ::close(extra);
  CHECK(answer.find(" 503 ") != std::string::npos);
  CHECK(answer.find("3 connections are open") != std::string::npos);
  for (const int fd : open) ::close(fd);
  wait_until([&] { return server.http.open_connections() == 0; });
  httplib::Client client("127.0.0.1", server.port);
  CHECK(client.Get("/info?token=s3cret")->status == 200);
  CHECK(client.Put("/info?token=s3cret", std::string(100, 'x'), "text/plain")->status == 405);
}
