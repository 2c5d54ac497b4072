#include "splotch/scene_run.h"

#include <cstdio>

#include "params/user_error.h"
#include "splotch/file_paths.h"
#include "splotch/pipeline.h"
#include "splotch/run_report.h"
#include "splotch/scene_file.h"

namespace splotch {

std::string SceneSummary::text() const {
  char line[400];
  const double whole = seconds > 0 ? seconds : 1;
  std::snprintf(line, sizeof line,
                "scene: %d frames: %d rendered, %d skipped (resume), %d failed, in %.3f s (%.3f s per rendered "
                "frame; %d snapshot reads; reading %.0f%% and rendering %.0f%% of the run's time)\n",
                frames, rendered, skipped, failed, seconds, rendered ? seconds / rendered : 0.0, reads,
                100 * read_seconds / whole, 100 * render_seconds / whole);
  return line;
}

SceneSummary render_scene(ParamFile& params, Console& console) {
  Stopwatch clock;
  std::string path = params.get<std::string>("scene_file");
  // A relative name: from the working directory, else from the parameter file's directory.
  if (!path.empty() && path[0] != '/' && !path_exists(path) && path_exists(directory_of(params.name()) + path))
    path = directory_of(params.name()) + path;
  SceneSelection selection;
  selection.start = params.get<int>("scene_start", 0);
  selection.increment = params.get<int>("scene_incr", 1);
  selection.last = params.get<int>("last_scene", -1);
  const bool resume = params.get<bool>("resume", false);
  const std::vector<SceneFrame> frames = read_scene_file(path, selection);

  SceneSummary summary;
  summary.frames = int(frames.size());
  ParticleCache cache;  // the snapshot of the frame before, while the input keys stay the same
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const SceneFrame& f = frames[k];
    ParamFile p = params;
    for (const auto& [key, value] : f.values) p.set(key, value, f.origin);
    FrameOptions options;
    options.number = f.number;
    options.in_scene = true;
    options.resume = resume;
    options.warn_unused = k == 0;
    options.cache = &cache;
    Stopwatch frame_clock;
    char line[400];
    try {
      const RunReport r = render_frame(p, console, options);
      if (r.skipped) {
        ++summary.skipped;
        std::snprintf(line, sizeof line, "frame %zu of %zu (%s): %s exists, skipped\n", k + 1, frames.size(),
                      f.origin.c_str(), r.image_path.c_str());
        console.report(line);
        continue;
      }
      ++summary.rendered;
      summary.read_seconds += r.stage_seconds("read") + r.stage_seconds("hsml");
      summary.render_seconds += r.stage_seconds("render");
      const double left = clock.seconds() / double(k + 1) * double(frames.size() - k - 1);
      ++(r.reused ? summary.reads_saved : summary.reads);
      std::snprintf(line, sizeof line, "frame %zu of %zu (%s): %s in %.3f s%s; about %.0f s left\n", k + 1,
                    frames.size(), f.origin.c_str(), r.image_path.c_str(), frame_clock.seconds(),
                    r.reused ? " (snapshot kept from the frame before)" : "", left);
      console.report(line);
    } catch (const UserError& e) {
      ++summary.failed;
      console.warning("frame " + std::to_string(k + 1) + " of " + std::to_string(frames.size()) + " (" + f.origin +
                      ") failed: " + e.what());
    }
  }
  summary.seconds = clock.seconds();
  return summary;
}

}  // namespace splotch
