// The pipeline of one frame (DESIGN.md section 1):
//   read -> normalize -> geometry -> colour -> sort -> render -> post-process -> write,
// timed stage by stage. Each stage's options come from Settings; the stages know nothing of the
// parameter file.
#pragma once

#include <ostream>

#include "params/param_file.h"
#include "splotch/console.h"
#include "splotch/run_report.h"

namespace splotch {

// Renders the frame `params` describes and writes the image and its used.par.
RunReport render_frame(ParamFile& params, Console& console);

// Reads the snapshot and prints per-type counts and field ranges; renders nothing.
void print_snapshot_info(ParamFile& params, Console& console, std::ostream& out);

}  // namespace splotch
