// The pipeline of one frame (DESIGN.md section 1):
//   read -> normalize -> geometry -> colour -> sort -> render -> post-process -> write,
// timed stage by stage. Each stage's options come from Settings; the stages know nothing of the
// parameter file.
#pragma once

#include "params/param_file.h"
#include "splotch/console.h"
#include "splotch/run_report.h"

namespace splotch {

// Renders the frame `params` describes and writes the image and its used.par.
RunReport render_frame(ParamFile& params, Console& console);

}  // namespace splotch
