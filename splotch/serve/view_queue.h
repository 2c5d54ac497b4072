// The server's requests for pictures, coalesced (bin/splotch --serve): while a browser drags, it
// asks for a picture per mouse move, faster than they can be drawn. Of one browser's requests
// waiting, only the newest is drawn; the older ones are answered at once as superseded (no queue
// of stale frames), and one being drawn is cancelled. Browsers are served in turn, in the order
// their waiting requests came, and one picture is drawn at a time (the held snapshot and the GPU
// are one). A request whose browser has gone (it closed the connection) is dropped if it waits,
// cancelled if it is drawn: the drawing looks at ViewJob::cancelled between its steps and throws
// ViewCancelled.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace splotch {

struct ViewJob {
  std::string client;  // the browser's own name for itself (a page draws one view at a time)
  std::vector<std::pair<std::string, std::string>> keys;
  bool reduced = false;      // while the mouse moves: a smaller picture of fewer particles, as JPEG
  int frame = -1;            // a movie's frame: written as a scene's frame of this number is
  std::string outfile = "";  // a movie's frame: the name its number goes in (empty: the .par's outfile)
  // Set when the picture is no longer wanted (a newer view of the same browser, the browser gone,
  // a movie cancelled); submit() makes one when the job has none.
  std::shared_ptr<std::atomic<bool>> cancelled = nullptr;
  bool wanted() const { return !cancelled || !*cancelled; }
};

// What a drawing throws when it finds its job cancelled.
class ViewCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "the picture was cancelled: no longer wanted"; }
};

struct ViewResult {
  int status = 200;
  std::string content_type, body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::exception_ptr error;  // what the drawing threw (status 500), for the caller to rethrow
};

class ViewQueue {
 public:
  // `draw` makes a job's answer; it runs on the queue's own thread, one job at a time.
  // `max_waiting`: browsers with a request waiting, beyond which a request is refused (503).
  explicit ViewQueue(std::function<ViewResult(const ViewJob&)> draw, std::size_t max_waiting = 64);
  ~ViewQueue();  // stop(), and waits for the submitters to have their answers
  ViewQueue(const ViewQueue&) = delete;
  ViewQueue& operator=(const ViewQueue&) = delete;

  // Waits for the job's answer; none when a newer job of the same client took its place, or the
  // job was cancelled. `still_wanted`, when given, is asked now and then while the job waits or is
  // drawn (a browser that closed its connection): false drops or cancels the job.
  std::optional<ViewResult> submit(ViewJob job, const std::function<bool()>& still_wanted = {});
  // No job is drawn from now on but the one being drawn: the waiting ones, and any submitted
  // later, are answered 503 (the server is stopping).
  void stop();

  std::size_t drawn() const;          // jobs drawn so far
  std::size_t waiting() const;        // browsers with a job waiting (not being drawn)
  std::size_t superseded() const;     // jobs answered as superseded
  std::size_t cancelled() const;      // jobs that stopped drawing, or were dropped waiting, as no longer wanted
  bool drawing_told_to_stop() const;  // the job being drawn is no longer wanted (the tests)

 private:
  void run();

  std::function<ViewResult(const ViewJob&)> draw_;
  std::size_t max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  struct Waiting {
    std::uint64_t ticket;
    ViewJob job;
  };
  std::map<std::string, Waiting> waiting_;  // by client: its newest job
  std::deque<std::string> turn_;            // clients with a job waiting, in the order they came
  std::map<std::uint64_t, ViewResult> done_;
  std::set<std::uint64_t> dropped_;
  std::uint64_t next_ticket_ = 0;
  std::uint64_t drawing_ = 0;  // the ticket of the job being drawn (0: none)
  std::string drawing_client_;
  std::shared_ptr<std::atomic<bool>> drawing_cancelled_;
  std::size_t drawn_ = 0, superseded_ = 0, cancelled_ = 0;
  bool stopping_ = false;
  int submitters_ = 0;  // in submit() now
  std::thread worker_;  // last: it starts once the members above exist
};

}  // namespace splotch
