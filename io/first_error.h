// An exception must not leave an OpenMP parallel region: the program would abort without a
// message. Work inside a region runs through FirstError::run, which keeps the first exception;
// the caller rethrows it after the region, so the user still gets the one clear message.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace splotch {

class FirstError {
 public:
  template <class Work>
  void run(Work&& work) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;  // stop the remaining work early
    try {
      work();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      failed_ = true;
    }
  }
  void rethrow_if_any() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace splotch
