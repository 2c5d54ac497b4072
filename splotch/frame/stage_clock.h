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
    add_seconds(report_.stages, name, clock_.lap());
    pace();
  }
  // The time since the last stage ended counts in none (a wait for the other processes).
  void untimed() { clock_.lap(); }
  // A load starts: the time since the last stage ended (the memory check before it, and a scene's
  // or the server's own steps; a single frame's settings and headers are its `plan` stage), which
  // counts as reading.
  double load_starts() { return clock_.lap(); }
  // The stages of a snapshot's load, as it timed them, the first with `before` added (an
  // interpolated frame's two loads add up).
  void loaded(const LoadedSnapshot& loaded, double before) {
    for (std::size_t k = 0; k < loaded.stages.size(); ++k)
      add_seconds(report_.stages, loaded.stages[k].first, loaded.stages[k].second + (k == 0 ? before : 0.0));
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
