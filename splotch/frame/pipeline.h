// The pipeline of one frame (docs/design.md section 1):
//   read -> normalize -> geometry -> colour -> sort -> render -> post-process -> write,
// timed stage by stage. Each stage's options come from Settings; the stages know nothing of the
// parameter file.
#pragma once

#include "params/param_file.h"
#include "splotch/frame/frame_options.h"
#include "splotch/frame/run_report.h"
#include "splotch/util/console.h"

namespace splotch {

// Renders the frame `params` describes and writes the image and its used.par (with `resume`,
// an image that exists already is not rendered again: RunReport::skipped).
RunReport render_frame(ParamFile& params, Console& console, const FrameOptions& frame = {});

}  // namespace splotch
