#include "splotch/serve/view_queue.h"

#include <algorithm>
#include <chrono>

namespace splotch {
namespace {

// How often a job's submitter asks whether its browser is still there.
constexpr std::chrono::milliseconds still_wanted_interval{50};

}  // namespace

ViewQueue::ViewQueue(std::function<ViewResult(const ViewJob&)> draw, std::size_t max_waiting)
    : draw_(std::move(draw)), max_waiting_(max_waiting), worker_([this] { run(); }) {}

ViewQueue::~ViewQueue() {
  stop();
  worker_.join();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return submitters_ == 0; });
}

void ViewQueue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
}

std::optional<ViewResult> ViewQueue::submit(ViewJob job, const std::function<bool()>& still_wanted) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto busy = [](const std::string& why) {
    return ViewResult{503, "text/plain", why, {{"Retry-After", "1"}}, nullptr};
  };
  if (stopping_) return busy("the server is stopping");
  if (!job.cancelled) job.cancelled = std::make_shared<std::atomic<bool>>(false);
  const std::uint64_t ticket = ++next_ticket_;
  const std::string client = job.client;  // (the job is moved below)
  const auto it = waiting_.find(client);
  // (refused before anything of the client's is given up: a refusal leaves its picture drawn)
  if (it == waiting_.end() && waiting_.size() >= max_waiting_)
    return busy(std::to_string(waiting_.size()) + " browsers are waiting for pictures; try again in a moment");
  // The client's picture being drawn is no longer wanted: this one replaces it.
  if (drawing_ && drawing_client_ == client) *drawing_cancelled_ = true;
  if (it != waiting_.end()) {  // the newer view takes the older one's place in the turn
    dropped_.insert(it->second.ticket);
    ++superseded_;
    it->second = {ticket, std::move(job)};
  } else {
    turn_.push_back(client);
    waiting_.emplace(client, Waiting{ticket, std::move(job)});
  }
  changed_.notify_all();
  ++submitters_;
  // The job being drawn is waited for even when stopping; one that waits is not drawn then.
  auto answered = [&] { return done_.count(ticket) || dropped_.count(ticket) || (stopping_ && drawing_ != ticket); };
  while (!answered()) {
    if (!still_wanted) {
      changed_.wait(lock, answered);
      break;
    }
    if (changed_.wait_for(lock, still_wanted_interval, answered)) break;
    lock.unlock();
    const bool wanted = still_wanted();
    lock.lock();
    if (wanted || answered()) continue;
    const auto mine = waiting_.find(client);
    if (mine != waiting_.end() && mine->second.ticket == ticket) {  // not drawn yet: dropped
      waiting_.erase(mine);
      turn_.erase(std::find(turn_.begin(), turn_.end(), client));
      ++cancelled_;
      dropped_.insert(ticket);
    } else if (drawing_ == ticket) {
      *drawing_cancelled_ = true;  // its drawing stops at its next step
    }
  }
  --submitters_;
  changed_.notify_all();  // (the destructor waits for the submitters)
  if (dropped_.erase(ticket)) return std::nullopt;
  const auto d = done_.find(ticket);
  if (d == done_.end()) return busy("the server is stopping");
  ViewResult result = std::move(d->second);
  done_.erase(d);
  return result;
}

std::size_t ViewQueue::drawn() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return drawn_;
}

std::size_t ViewQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_.size();
}

std::size_t ViewQueue::superseded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return superseded_;
}

std::size_t ViewQueue::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

bool ViewQueue::drawing_told_to_stop() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return drawing_cancelled_ && *drawing_cancelled_;
}

void ViewQueue::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !turn_.empty(); });
    if (stopping_) return;
    const std::string client = turn_.front();
    turn_.pop_front();
    const auto it = waiting_.find(client);
    Waiting w = std::move(it->second);
    waiting_.erase(it);
    drawing_ = w.ticket;
    drawing_client_ = client;
    drawing_cancelled_ = w.job.cancelled;
    lock.unlock();
    ViewResult result;
    bool cancelled = !w.job.wanted();
    try {
      if (!cancelled) result = draw_(w.job);
    } catch (const ViewCancelled&) { cancelled = true; } catch (const std::exception& e) {
      result = {
          500, "text/plain", std::string("splotch: internal error: ") + e.what() + "\n", {}, std::current_exception()};
    } catch (...) { result = {500, "text/plain", "splotch: internal error\n", {}, std::current_exception()}; }
    lock.lock();
    drawing_ = 0;
    drawing_cancelled_.reset();
    if (cancelled) {
      ++cancelled_;
      dropped_.insert(w.ticket);
    } else {
      ++drawn_;
      done_.emplace(w.ticket, std::move(result));
    }
    changed_.notify_all();
  }
}

}  // namespace splotch
