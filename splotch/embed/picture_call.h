// One picture asked for by a caller in another language (the Python module, python/): the
// parameter file or snapshot and the key=value overrides of a command line, drawn as bin/splotch
// draws them, the pictures kept in memory instead of written. What bin/splotch would print comes
// back as data: the run's report, its warnings, and the used.par text that renders it again.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "io/column_snapshot.h"
#include "io/image.h"
#include "params/param_file.h"
#include "splotch/frame/pipeline.h"
#include "splotch/frame/render_session.h"
#include "splotch/frame/run_report.h"

namespace splotch {

struct PictureCall {
  std::string input;              // a parameter file, or a snapshot alone (its first picture's keys)
  std::vector<std::string> keys;  // "key=value", as bin/splotch's arguments after the input
  // Instead of `input`: particles in memory (io/memory_arrays.h), drawn with the first picture's
  // keys chosen from their fields (as for a snapshot alone) and `keys` over them. The session
  // keeps them as a snapshot (the arrays are never written), so its later calls read nothing.
  std::shared_ptr<const ColumnSnapshot> arrays;
};

struct PictureResult {
  std::vector<Image> images;  // one per view (two for a stereo pair)
  std::vector<KeptMap> maps;  // instead, with a map key: one per view
  std::string used_par;       // what bin/splotch writes beside the picture
  std::string image_path;     // where bin/splotch would have written it (outfile)
  RunReport report;
  std::vector<std::string> warnings;  // each as bin/splotch says it, without "splotch: warning: "
};

// The parameters of `call`: its parameter file, or the first picture's keys of its snapshot or
// arrays, with its keys over them, and an outfile (the input's name) where none is given.
ParamFile call_parameters(const PictureCall& call);

// Draws the picture `call` names with `session`'s GPU and kept particles. `stop`, set while it
// draws, leaves the tiles not yet begun (the caller drops the picture). A problem the user can
// fix is a UserError with bin/splotch's message.
PictureResult draw_picture(const PictureCall& call, RenderSession& session, const std::atomic<bool>* stop = nullptr);

}  // namespace splotch
