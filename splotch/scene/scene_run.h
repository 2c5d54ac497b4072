// A run of a scene file: every frame it chooses rendered in order, each with the parameter file
// plus that frame's values (splotch/scene/scene_file.h). A frame that fails is reported and the run goes
// on with the next; `resume = TRUE` leaves frames whose image exists alone, so that a killed batch
// job can be started again. A line per frame says how far the run is and how long is left. The
// frames share the particles of a snapshot (read once for a fly-through), the snapshot read ahead
// for a later frame, and the GPU's session.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "params/param_file.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;
class RenderSession;

struct SceneSummary {
  int frames = 0, rendered = 0, skipped = 0, failed = 0;
  int processes = 1;                            // the MPI processes the frames were dealt out to (1: rendered in turn)
  int reads = 0, reads_saved = 0;               // rendered frames that read their snapshot, or kept the one before
  int reads_ahead = 0;                          // of `reads`: those done in the background while a frame rendered
  double seconds = 0;                           // the whole run
  double read_seconds = 0, render_seconds = 0;  // summed over the rendered frames
  // This process's rendered frames: each stage's seconds summed, in the order the stages first
  // ran, and when its first frame began and its last ended (seconds into the run): where a movie's
  // time goes, and how long a process dealt frames waited for the others at the end.
  std::vector<std::pair<std::string, double>> stages;
  double first_frame_start = -1, last_frame_end = 0;
  // Of the render stage, on a GPU: its part, and the host's part (splats larger than the tile
  // boundary, on CPU threads meanwhile) with the splats it drew.
  double gpu_seconds = 0, host_part_seconds = 0;
  std::size_t host_part_splats = 0;
  std::string gpu;  // the GPU that drew them (its PCI bus id): which one each process of an MPI run had

  // "stages over N frames: read 0.52 s, ...": this process's line (text() gives it where the
  // frames were not dealt out).
  std::string stage_text() const;

  std::string text() const;
};

// Renders the frames of the scene file that `params` names (scene_file, scene_start, scene_incr,
// last_scene, resume, scene_read_ahead). Once a frame has its particles, the next frame that
// needs another snapshot has it read in the background, when the memory available is at least
// twice what the current snapshot takes and scene_read_ahead allows: auto (the default) when the
// current snapshot took 0.05 s or more to load, TRUE always, FALSE never.
// With an MPI run's `comm` of several processes, mpi_mode chooses: `data`, each frame rendered by
// all of them; `frames`, the frames dealt out to them one at a time as they become free, each
// process rendering and writing whole frames and saying so on `process_console` (its own voice;
// null: `console`); `auto` (the default), frames when every process has the memory for the first
// frame's snapshot and there are more frames than processes or shares cannot draw them (frames
// between snapshots, smoothing lengths from the nearest neighbours). The summary's counts are
// those of all processes.
// `session` keeps what the frames share (the GPU's start, the snapshots and their copies on the
// GPU) beyond the scene: the caller frees it, or leaves it to the process's end (a run that ends
// without waiting for the GPU's teardown need not wait for 10^8 particles' release either).
SceneSummary render_scene(ParamFile& params, Console& console, RenderSession& session, const Comm* comm = nullptr,
                          Console* process_console = nullptr);

enum class MpiMode { automatic, data, frames };
MpiMode read_mpi_mode(ParamFile& params);

// scene_read_ahead: auto, TRUE or FALSE.
enum class ReadAhead { automatic, always, never };
ReadAhead read_ahead_mode(ParamFile& params);
// Whether a scene reads the next snapshot while a frame renders, after the current snapshot took
// `load_seconds` to load: auto only from 0.05 s (a quicker read gains nothing, and reading in the
// background slows the frame). A pure decision, so that tests give it times instead of measuring.
bool worth_reading_ahead(ReadAhead mode, double load_seconds);

}  // namespace splotch
