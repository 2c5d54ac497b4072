// RunReport: what a run did and how long each stage took, printed at the end of a run (and parsed
// by tests/bench/bench.sh, so keep the "  <stage> <seconds> s" lines stable).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_renderer.h"
#include "splotch/util/stopwatch.h"
#include "splotch/util/vec3.h"

namespace splotch {

// Adds `seconds` to the entry called `name` (the views of a frame, the frames of a scene add up),
// or appends one: a report's stages and their parts keep the order they first ran in.
void add_seconds(std::vector<std::pair<std::string, double>>& named, const std::string& name, double seconds);

// A camera placed from the data (no camera given: splotch/stages/camera_placement.h), and which of
// lookat and sky were placed with it (the others were given).
struct PlacedCamera {
  Vec3 position, lookat, sky;
  bool lookat_placed = false, sky_placed = false;
};

struct RunReport {
  std::string image_path, renderer;
  std::string processes;  // of an MPI run that drew the frame together: "2 processes on 2 GPUs"
  int width = 0, height = 0, threads = 1;
  std::size_t particles_read = 0, particles_dropped = 0, particles_active = 0;
  std::vector<std::string> notes;   // what the user should know of how the input was taken (one line each)
  std::vector<std::string> ranges;  // per type, the colour and intensity ranges found in the data and used
  bool show_ranges = true;          // false for a map, whose values are not the picture's colours
  std::optional<CudaReport> gpu;    // a GPU render: how the splats were divided, and its parts' times
  // The camera placed from the data, for a caller that keeps it (the server's later views).
  std::optional<PlacedCamera> placed_camera;
  std::vector<std::pair<std::string, double>> stages;  // name, seconds
  // The exchange stage's parts (a_eq_e = FALSE over several processes), name and seconds.
  std::vector<std::pair<std::string, double>> exchange_parts;
  // The same where the GPUs split the draw order (splotch/frame/gpu_split.h), within the render.
  std::vector<std::pair<std::string, double>> gpu_split_parts;
  double total_seconds = 0;
  double peak_memory_mib = 0;
  // Seconds from the process's start to the frame's start (the program's and, under MPI, MPI's
  // start: mpi_start_seconds of it); negative where not known (or not an MPI run).
  double process_age_at_start = -1, mpi_start_seconds = -1;
  bool skipped = false;     // resume: the image existed already
  bool reused = false;      // the particles came from the previous frame of a scene, not the snapshot
  bool read_ahead = false;  // the snapshot was read in the background while the frame before rendered
  std::string between;      // a frame between two snapshots: where, and the particles matched (for a scene's line)
  int snapshot_reads = -1;  // a frame between two snapshots: how many of them it read (0 to 2); -1 otherwise
  // The factor exposure = auto chose where it was the default (no exposure, no brightnessN given);
  // 0 otherwise. A scene keeps its first for the frames after (splotch/scene/scene_run.h).
  double default_exposure = 0;

  double stage_seconds(const std::string& name) const;  // 0 when the stage did not run

  std::string text() const;
};

// The largest resident memory of this process so far.
double peak_memory_mib();
// Seconds since this process started (from /proc: to about 0.01 s); negative where not known.
double process_age_seconds();

}  // namespace splotch
