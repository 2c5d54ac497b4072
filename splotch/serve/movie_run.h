// The server renders a recorded path as a movie (the page's "Render movie here"): its frames
// written as a scene's are (the .par's outfile with the frame's number, and each frame's used.par),
// one after another through the view queue, so that browsers go on being served between frames.
// One movie at a time; the page follows it through progress() and may cancel it.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "splotch/serve/browser_keys.h"
#include "splotch/serve/view_queue.h"

namespace splotch {

struct MovieProgress {
  bool running = false, cancelled = false;
  int done = 0, total = 0, failed = 0;
  std::string last_file, last_error;
  double seconds = 0;  // since the start
};

class MovieRun {
 public:
  explicit MovieRun(ViewQueue& queue) : queue_(queue) {}
  ~MovieRun();  // cancels a movie and waits for its frame
  MovieRun(const MovieRun&) = delete;
  MovieRun& operator=(const MovieRun&) = delete;

  // Starts rendering the frames (each the keys of one picture) under `outfile` (empty: the .par's);
  // false when a movie is running.
  bool start(std::vector<KeyValues> frames, std::string outfile = "");
  // Stops, the frame being drawn at its next step (splotch/serve/view_queue.h: ViewCancelled).
  void cancel();
  MovieProgress progress() const;
  // Waits for the movie to end (the tests).
  void wait();

 private:
  void run(std::vector<KeyValues> frames, const std::string& outfile);

  ViewQueue& queue_;
  mutable std::mutex mutex_;
  MovieProgress progress_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> cancel_{false};
  std::shared_ptr<std::atomic<bool>> frame_cancelled_;  // the frame being drawn's
  std::thread thread_;
};

}  // namespace splotch
