#include "splotch/serve/serve_run.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include "errors/user_error.h"
#include "splotch/serve/movie_run.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/view_server.h"

namespace splotch {
namespace {

// (serve_work_budget)
constexpr double pixels_per_thread = 2.5e10;

}  // namespace

std::string serve_url(const HttpOptions& http, int port) {
  const std::string host = http.host == "0.0.0.0" || http.host == "::" ? "HOST" : http.host;
  return "http://" + host + ":" + std::to_string(port) + "/?token=" + http.token;
}

std::string serve_banner(const std::string& parameter_file, const HttpOptions& http, int port) {
  const std::string p = std::to_string(port);
  std::string text = "splotch: serving " + parameter_file + " at\n\n    " + serve_url(http, port) +
                     "\n\nOpen it in a browser (Ctrl-C here stops the server).";
  if (http.host == "127.0.0.1" || http.host == "localhost")
    text += " On a remote machine, make a tunnel from your own:\n\n    ssh -L " + p + ":127.0.0.1:" + p +
            " USER@THIS-MACHINE\n\nand open the URL above there.";
  else
    text += " It listens on " + http.host +
            ": anyone who can reach that address and has the URL's token can view (not change) the "
            "snapshot's pictures.";
  return text + "\n";
}

double serve_work_budget() { return pixels_per_thread * omp_get_max_threads(); }

std::string default_palette_directory() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "testdata/palettes";
  return (exe.parent_path().parent_path() / "testdata" / "palettes").string();
}

int serve(ParamFile params, ServeOptions options, Console& console) {
  if (options.http.token.empty()) options.http.token = random_token();
  const std::string name = params.name();
  // SIGINT and SIGTERM are waited for by one thread (below), not delivered to the others.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  ViewServerOptions view_options;
  view_options.palette_directory = options.palette_directory;
  view_options.work_budget = serve_work_budget();
  ViewServer views(std::move(params), view_options);
  ViewQueue queue([&](const ViewJob& job) { return views.draw(job); });
  MovieRun movie(queue);
  HttpServer http(views, queue, movie, options.http);

  // Ctrl-C (or SIGTERM) while the snapshot is read ends the process at once; while serving, the
  // first stops the server once the picture being drawn is done (no view waiting is drawn, a
  // movie stops), and a second one ends the process at once.
  enum Phase { reading, serving, ended };
  std::atomic<int> phase{reading};
  std::thread waiter([&] {
    int received = 0;
    sigwait(&signals, &received);
    if (phase == ended) return;  // (woken by the end below)
    if (phase == reading) {
      std::fputs("\nsplotch: stopped while reading the snapshot\n", stderr);
      std::_Exit(128 + received);  // 130 for SIGINT, 143 for SIGTERM
    }
    console.report("\nsplotch: stopping the server after the picture being drawn (Ctrl-C again: at once)\n");
    movie.cancel();
    queue.stop();
    // A signal before listen() began: stop() would find nothing to stop yet.
    while (!http.listening() && phase != ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    http.stop();
    sigwait(&signals, &received);
    if (phase == ended) return;
    std::fputs("splotch: stopped at once\n", stderr);
    std::_Exit(128 + received);
  });
  // However this ends (an error in the first picture, say), the waiter is woken to end first.
  struct EndWaiter {
    std::thread& waiter;
    std::atomic<int>& phase;
    ~EndWaiter() {
      phase = ended;
      pthread_kill(waiter.native_handle(), SIGTERM);
      waiter.join();
    }
  } end_waiter{waiter, phase};

  console.report("splotch: reading the snapshot and drawing the .par's view ...\n");
  const std::optional<ViewResult> first = queue.submit(ViewJob{"", {}, false});
  if (first && first->error) std::rethrow_exception(first->error);
  for (const auto& [header, value] : first->headers)
    if (header == "X-Splotch-Warnings") console.warning(value);
  const int port = http.bind();
  // Serving from before the banner: a Ctrl-C as soon as it shows stops the server (a signal
  // before listen() is waited out above), not the read long done.
  phase = serving;
  std::fputs(serve_banner(name, options.http, port).c_str(), stdout);
  std::fflush(stdout);
  http.listen();
  // A movie's frame being drawn is finished (a second Ctrl-C still ends the process at once).
  movie.cancel();
  movie.wait();
  queue.stop();
  const std::size_t drawn = queue.drawn();
  console.report("splotch: the server stopped (" + std::to_string(drawn) + (drawn == 1 ? " picture" : " pictures") +
                 " drawn)\n");
  return 0;
}

}  // namespace splotch
