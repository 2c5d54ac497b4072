#include "splotch/serve/movie_run.h"

#include <utility>

namespace splotch {

MovieRun::~MovieRun() {
  cancel_ = true;
  wait();
}

void MovieRun::wait() {
  if (thread_.joinable()) thread_.join();
}

bool MovieRun::start(std::vector<KeyValues> frames, std::string outfile) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (progress_.running) return false;
  if (thread_.joinable()) thread_.join();  // the movie before, ended
  progress_ = MovieProgress();
  progress_.running = true;
  progress_.total = int(frames.size());
  started_ = std::chrono::steady_clock::now();
  cancel_ = false;
  thread_ =
      std::thread([this, f = std::move(frames), name = std::move(outfile)]() mutable { run(std::move(f), name); });
  return true;
}

void MovieRun::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  cancel_ = true;
  if (frame_cancelled_) *frame_cancelled_ = true;
}

MovieProgress MovieRun::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  MovieProgress p = progress_;
  if (p.running) p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return p;
}

void MovieRun::run(std::vector<KeyValues> frames, const std::string& outfile) {
  for (std::size_t k = 0; k < frames.size() && !cancel_; ++k) {
    ViewJob job;
    job.client = "the movie";  // (a page's own name is its random one)
    job.keys = std::move(frames[k]);
    job.frame = int(k);
    job.outfile = outfile;
    job.cancelled = std::make_shared<std::atomic<bool>>(false);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cancel_) break;
      frame_cancelled_ = job.cancelled;
    }
    const std::optional<ViewResult> r = queue_.submit(std::move(job));
    std::lock_guard<std::mutex> lock(mutex_);
    frame_cancelled_.reset();
    if (!r && cancel_) break;  // the frame stopped part way: neither written nor failed
    if (r && r->status == 200) {
      ++progress_.done;
      progress_.last_file = r->body;
    } else {
      ++progress_.failed;
      progress_.last_error = r ? r->body : "superseded";
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  progress_.running = false;
  progress_.cancelled = cancel_;
  progress_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace splotch
