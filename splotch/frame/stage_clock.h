// The frame's stages timed into its report, one after another. Between stages the GPU's start-up
// (when there is one) gets the chance to give back the OpenMP thread it borrowed
// (splotch/render/gpu_startup.h).
#pragma once

#include <optional>
#include <string>

#include "splotch/frame/run_report.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/util/stopwatch.h"

namespace splotch {

class StageClock {
 public:
  StageClock(RunReport& report, std::optional<GpuStartup>& gpu) : report_(report), gpu_(gpu) {}

  // The time since the last stage ended is stage `name`'s (added to its time so far: a frame of
  // several views runs the stages from geometry on once per view).
  void done(const char* name) {
    const double seconds = clock_.lap();
    for (auto& stage : report_.stages)
      if (stage.first == name) {
        stage.second += seconds;
        pace();
        return;
      }
    report_.stages.push_back({name, seconds});
    pace();
  }
  // The time since the last stage ended counts in none (a wait for the other processes).
  void untimed() { clock_.lap(); }
  // A load starts: the time since the last stage ended (the settings, which read headers, and
  // the palettes), which counts as reading.
  double load_starts() { return clock_.lap(); }
  // The stages of a snapshot's load, as it timed them, the first with `before` added.
  void loaded(const LoadedSnapshot& loaded, double before) {
    report_.stages.insert(report_.stages.end(), loaded.stages.begin(), loaded.stages.end());
    report_.stages[0].second += before;
    clock_.lap();
    pace();
  }
  void pace() {
    if (gpu_) gpu_->pace_threads();
  }
  double seconds() const { return clock_.seconds(); }

 private:
  Stopwatch clock_;
  RunReport& report_;
  std::optional<GpuStartup>& gpu_;
};

}  // namespace splotch
