// The pipeline of one frame (DESIGN.md section 1):
//   read -> normalize -> geometry -> colour -> sort -> render -> post-process -> write,
// timed stage by stage. Each stage's options come from Settings; the stages know nothing of the
// parameter file.
#pragma once

#include <string>

#include "io/particle_set.h"
#include "params/param_file.h"
#include "splotch/console.h"
#include "splotch/run_report.h"

namespace splotch {

// The particles of the last frame's snapshot as read and normalised (invalid ones dropped,
// smoothing lengths estimated), kept for the next frame of a scene: a frame whose input and
// normalisation keys are the same (a camera move, say) takes a copy instead of reading and
// normalising again.
struct ParticleCache {
  std::string signature;  // the input and normalisation keys and values that made them; empty: none
  ParticleSet particles;
  std::size_t read = 0, dropped = 0;
};

// Which frame a run renders: its number (the image's name), whether it is a frame of a scene file,
// and whether an existing image is left alone (resume).
struct FrameOptions {
  int number = 0;
  bool in_scene = false;
  bool resume = false;
  bool warn_unused = true;  // the scene runner warns once, not per frame
  ParticleCache* cache = nullptr;
};

// Renders the frame `params` describes and writes the image and its used.par (with `resume`,
// an image that exists already is not rendered again: RunReport::skipped).
RunReport render_frame(ParamFile& params, Console& console, const FrameOptions& frame = {});

}  // namespace splotch
