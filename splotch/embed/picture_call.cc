#include "splotch/embed/picture_call.h"

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/app/input_kind.h"
#include "splotch/frame/picture.h"
#include "splotch/frame/pipeline.h"
#include "splotch/scene/scene_run.h"
#include "splotch/settings/settings.h"
#include "splotch/settings/starter_parameters.h"
#include "splotch/util/console.h"

namespace splotch {

ParamFile call_parameters(const PictureCall& call) {
  ParamFile params = call.arrays ? starter_parameters_of_arrays(*call.arrays, ptype0_override(call.keys))
                                 : read_parameter_file(call.input, call.keys);
  if (call.arrays) yield_to_overrides(params, call.keys);
  for (const std::string& k : call.keys) params.set_from_command_line(k);
  // A picture kept in memory needs no file; where none is named, the name save() takes by default:
  // the input's, as a snapshot's first picture has it (a map's figure too, with its palette).
  if (!params.has("outfile")) {
    std::string name = call.input.substr(call.input.rfind('/') == std::string::npos ? 0 : call.input.rfind('/') + 1);
    if (const std::size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.erase(dot);
    params.set("outfile", name + ".png", "the picture call (no outfile given)");
  }
  return params;
}

PictureResult draw_picture(const PictureCall& call, RenderSession& session, const std::atomic<bool>* stop) {
  ParamFile params = call_parameters(call);
  // The keys bin/splotch asks before a frame, in its order (used.par lists them as they were asked).
  if (params.get<bool>("server", false))
    throw UserError(params.origin("server") +
                    ": server = TRUE starts the browser explorer, which a picture call "
                    "does not: leave it out, or start bin/splotch --serve");
  if (analysis_only(params))
    throw UserError(std::string(params.has("AnalyzeSimulationOnly") ? "AnalyzeSimulationOnly = TRUE" : "ptypes = 0") +
                    " draws nothing: what the snapshot holds is splotch.info's (bin/splotch --info)");
  if (snapshot_ids_only(params))
    throw UserError("the keys ask for the snapshot's IDs, which bin/splotch prints; a picture call draws a picture");
  if (!params.get<std::string>("scene_file", "").empty())
    throw UserError(params.origin("scene_file") +
                    ": a scene's frames are written by bin/splotch; a picture call draws one frame");
  if (read_mpi_mode(params) == MpiMode::frames)
    throw UserError(params.origin("mpi_mode") +
                    ": mpi_mode = frames deals out a scene's frames to MPI processes; "
                    "a picture call is one process");
  Console console{Console::Holding{}};
  FrameOptions frame;
  frame.keep_pictures = true;
  frame.stop = stop;
  frame.arrays = call.arrays;
  if (call.arrays && !session.cache()) session.keep_snapshots();  // (drawn from as they are, never written)
  FrameRun run(params, console, session, frame);
  run.load();
  PictureResult out;
  out.report = run.draw();
  std::vector<KeptPicture> pictures = run.take_pictures();
  out.image_path = run.plan().settings.output.path;
  out.report.image_path.clear();  // (nothing was written: the report says no "wrote")
  out.used_par = used_par_text(params, pictures.empty() ? NormalizedRanges{} : pictures.front().ranges);
  if (call.arrays) out.used_par = record_of_arrays(std::move(out.used_par));
  for (KeptPicture& p : pictures) out.images.push_back(std::move(p.image));
  out.maps = run.take_maps();
  out.warnings = console.held_warnings();
  return out;
}

}  // namespace splotch
