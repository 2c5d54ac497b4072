// Wall time of a run's stages (steady clock: a clock set back mid-run must not give negative times).
#pragma once

#include <chrono>

namespace splotch {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  // Seconds since the last lap (or the start).
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - lap_start_).count();
    lap_start_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point start_, lap_start_ = start_;
};

}  // namespace splotch
