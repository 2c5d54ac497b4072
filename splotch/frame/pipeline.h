// The pipeline of one frame (docs/design.md section 1):
//   read -> normalize -> geometry -> colour -> sort -> render -> post-process -> write,
// timed stage by stage. Each stage's options come from Settings; the stages know nothing of the
// parameter file.
//
// A frame runs in three steps its caller takes in turn: the plan (FrameRun's constructor), the
// load, the draw. Between the load and the draw a scene starts reading a later snapshot; before
// the load the server checks the plan and hands in its held snapshot. render_frame takes the
// three at once.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "io/image.h"
#include "io/map_writer.h"
#include "params/param_file.h"
#include "splotch/frame/frame_options.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/particle_source.h"
#include "splotch/frame/render_session.h"
#include "splotch/frame/run_report.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

// A finished picture kept for the caller (FrameOptions::keep_pictures), with the ranges its
// normalisation found and used.
struct KeptPicture {
  Image image;
  NormalizedRanges ranges;
};
// A finished map kept for the caller instead of written: its values and record, and its figure
// (where palette0 gives one: a map written as data needs none).
struct KeptMap {
  MapFile record;
  Image8 figure;
};

class FrameRun {
 public:
  // The plan: every key read and checked before the first particle is. With `resume`, a frame
  // whose pictures exist already goes no further (RunReport::skipped), nor does an MPI process
  // whose rank 0 draws the frame alone. `params`, `console` and `session` outlive the run.
  FrameRun(ParamFile& params, Console& console, RenderSession& session, const FrameOptions& frame);
  ~FrameRun();
  FrameRun(const FrameRun&) = delete;
  FrameRun& operator=(const FrameRun&) = delete;

  const FramePlan& plan() const;
  // The particles, read once for all the frame's views: from `source` where the caller gives one
  // (the server's held snapshot), else from the file, the session's cache or this process's share
  // (splotch/frame/particle_source.h). What the session's cache gave, for a scene's read-ahead.
  std::optional<SnapshotLoaded> load(std::unique_ptr<ParticleSource> source = nullptr);
  // Draws every view and writes its picture (or keeps it: FrameOptions::keep_pictures); the
  // frame's report.
  RunReport draw();
  std::vector<KeptPicture> take_pictures();
  std::vector<KeptMap> take_maps();

 private:
  struct Steps;
  std::unique_ptr<Steps> steps_;
};

// The three steps at once: renders the frame `params` describes and writes the image and its
// used.par (with `resume`, an image that exists already is not rendered again).
RunReport render_frame(ParamFile& params, Console& console, RenderSession& session, const FrameOptions& frame = {});

}  // namespace splotch
