#include "splotch/scene/scene_run.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <system_error>
#include <utility>

#include "cuda/cuda_renderer.h"
#include "errors/user_error.h"
#include "io/hdf5_file.h"
#include "params/number_text.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/particle_source.h"
#include "splotch/frame/pipeline.h"
#include "splotch/frame/run_report.h"
#include "splotch/frame/system_memory.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/scene/scene_file.h"
#include "splotch/settings/settings.h"
#include "splotch/util/file_paths.h"

namespace splotch {

std::string SceneSummary::text() const {
  char line[500];
  // The share of the processes' time together.
  const double whole = (seconds > 0 ? seconds : 1) * processes;
  const std::string dealt = processes > 1 ? " dealt out to " + std::to_string(processes) + " processes" : "";
  std::snprintf(line, sizeof line,
                "scene: %d frame%s%s: %d rendered, %d skipped (resume), %d failed, in %.3f s (%.3f s per rendered "
                "frame; %d snapshot read%s, %d of them while a frame rendered; waiting for reads %.0f%% and rendering "
                "%.0f%% of the run's time)\n",
                frames, frames == 1 ? "" : "s", dealt.c_str(), rendered, skipped, failed, seconds,
                rendered ? seconds / rendered : 0.0, reads, reads == 1 ? "" : "s", reads_ahead,
                100 * read_seconds / whole, 100 * render_seconds / whole);
  return line + (processes > 1 ? std::string() : stage_text());
}

namespace {
std::string fixed3(double seconds) {
  char text[40];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}
}  // namespace

std::string SceneSummary::stage_text() const {
  if (stages.empty()) return "";
  std::string text = "  stages over " + std::to_string(rendered) + (rendered == 1 ? " frame:" : " frames:");
  double sum = 0;
  for (const auto& [name, t] : stages) {
    text += " " + name + " " + fixed3(t) + " s,";
    sum += t;
  }
  char tail[400];
  std::snprintf(tail, sizeof tail, " in all %.3f s; frames from %.3f to %.3f s into the run\n", sum,
                std::max(first_frame_start, 0.0), last_frame_end);
  text += tail;
  if (gpu_seconds > 0 || host_part_seconds > 0) {
    std::snprintf(tail, sizeof tail,
                  "  of the render: the GPU's part %.3f s%s%s; the host's part %.3f s (%zu splats larger than the "
                  "tile boundary, on CPU threads meanwhile)\n",
                  gpu_seconds, gpu.empty() ? "" : " on the GPU at PCI ", gpu.c_str(), host_part_seconds,
                  host_part_splats);
    text += tail;
  }
  return text;
}

namespace {

// How many frames ahead a scene looks for the next snapshot to read: working out a frame's
// signature reads its snapshot's header, so a fly-through of thousands of frames looks only this
// far (the read then starts this many frames early).
constexpr std::size_t look_ahead_frames = 32;

// A snapshot whose loading took less is not read ahead: the background read costs the frame that
// renders meanwhile more than it saves. On the 16-core H100 node, 20-ms frames of the 1e6
// benchmark snapshot (read from the page cache in a few ms) took 1.4 to 2.8 times as long with
// the read ahead, while 1e7 snapshots read from disk (0.1 to 0.2 s) made frames 1.2 to 1.4 times
// faster.
constexpr double read_ahead_worth_seconds = 0.05;

// What a later frame needs, worked out from its keys once: its snapshot and whether it is to be
// rendered at all (resume). `usable` is false when its keys are in error: the frame says so in
// its turn.
struct LaterFrame {
  bool usable = false, exists = false;
  std::string picture;  // its outfile
  std::string signature;
  SnapshotRequest input;
  std::vector<TypeNormalization> normalization;
  // A frame between two snapshots: the second (the first is signature and input).
  std::string second_signature;
  SnapshotRequest second_input;
};

LaterFrame plan_later_frame(ParamFile params, const SceneFrame& f, bool resume) {
  LaterFrame plan;
  try {
    std::string input_keys;
    SettingsFor context;  // as the frame will read them (the renderer does not matter here)
    context.frame = f.number;
    context.in_scene = true;
    context.gpu_available = true;
    context.input_keys = &input_keys;
    const Settings s = read_settings(params, context);
    plan.normalization = normalizations(s);
    plan.signature = snapshot_signature(input_keys, plan.normalization);
    plan.input = s.input;
    if (s.interpolation.between) {
      plan.second_signature = snapshot_signature(s.interpolation.second_input_keys, plan.normalization);
      plan.second_input = s.interpolation.second_input;
    }
    plan.picture = s.output.path;
    plan.exists = resume && path_exists(s.output.path);
    plan.usable = true;
  } catch (const UserError&) {}
  return plan;
}

// The bytes of the snapshot's files: what reading it takes, about (a file holds fields that are
// not read, and its particles take a little more memory once projected).
std::size_t snapshot_file_bytes(const SnapshotRequest& input) {
  std::size_t bytes = 0;
  std::error_code error;
  for (const std::string& f : input.typed.files.empty() ? std::vector<std::string>{input.path} : input.typed.files) {
    const std::uintmax_t size = std::filesystem::file_size(f, error);
    if (!error) bytes += std::size_t(size);
  }
  return bytes;
}

// Reads a later frame's snapshot in the background once a frame has its particles: the first of
// frames [from, to) that needs another snapshot than `signature` (one of `bytes` bytes), unless a
// read is going on already, the memory available is short, or a frame before it has keys in
// error or reads HDF5 where that cannot run on two threads. Works out each later frame's plan
// (which reads its snapshot's header) once.
class ReadAheadPlanner {
 public:
  ReadAheadPlanner(const std::vector<SceneFrame>& frames, std::function<ParamFile(std::size_t)> frame_params,
                   bool resume, SnapshotCache& cache, Console& speaker)
      : frames_(frames),
        frame_params_(std::move(frame_params)),
        resume_(resume),
        cache_(cache),
        speaker_(speaker),
        plans_(frames.size()) {}

  void after_load(std::size_t from, std::size_t to, const std::string& signature, std::size_t bytes) {
    if (cache_.reading_ahead()) return;
    for (std::size_t j = from; j < frames_.size() && j < to; ++j) {
      if (!plans_[j]) plans_[j] = plan_later_frame(frame_params_(j), frames_[j], resume_);
      const LaterFrame& later = *plans_[j];
      if (!later.usable) return;
      if (later.exists) continue;
      // The frame's snapshot (of the two of a frame between snapshots, one) that is neither this
      // frame's nor kept.
      auto needed = [&](const std::string& sig) { return !sig.empty() && sig != signature && !cache_.kept(sig); };
      const bool second = !needed(later.signature) && needed(later.second_signature);
      if (!needed(later.signature) && !second) continue;
      const SnapshotRequest& input = second ? later.second_input : later.input;
      // This frame reads HDF5 headers on this thread while the read runs.
      if (reads_hdf5(input.format) && !hdf5_thread_safe()) return;
      // The next snapshot is likely of the size of this one (the same simulation); the margin
      // covers the reader's and the estimators' working memory.
      const std::size_t available = available_memory_bytes();
      if (available < 2 * bytes) {
        if (!memory_said_)
          speaker_.report("scene: the next snapshot is read after this frame, not during it: " + gib_text(available) +
                          " of memory available, " + gib_text(2 * bytes) + " wanted\n");
        memory_said_ = true;
        return;
      }
      cache_.read_ahead(second ? later.second_signature : later.signature, input, later.normalization);
      return;
    }
  }

 private:
  const std::vector<SceneFrame>& frames_;
  std::function<ParamFile(std::size_t)> frame_params_;
  bool resume_;
  SnapshotCache& cache_;
  Console& speaker_;
  std::vector<std::optional<LaterFrame>> plans_;
  bool memory_said_ = false;
};

// The scene's summary, frame by frame, and each frame's line of the report.
class SceneTally {
 public:
  SceneTally(std::size_t frames, Console& speaker) : frames_(frames), speaker_(speaker) {
    summary.frames = int(frames);
  }
  // Frame k (0-based, `origin` its scene-file line) skipped: its picture exists (resume).
  void skipped(std::size_t k, const std::string& origin, const RunReport& r) {
    ++summary.skipped;
    say("frame %zu of %zu (%s): %s exists, skipped\n", k + 1, frames_, origin.c_str(), r.image_path.c_str());
  }
  // Frame k rendered in `seconds`, `run_seconds` into the run.
  void rendered(std::size_t k, const std::string& origin, const RunReport& r, double seconds, double run_seconds) {
    ++summary.rendered;
    for (const auto& [name, t] : r.stages) add_seconds(summary.stages, name, t);
    if (r.gpu) {
      summary.gpu_seconds += r.gpu->gpu_seconds;
      summary.host_part_seconds += r.gpu->host_seconds;
      summary.host_part_splats += r.gpu->on_host;
      if (!r.gpu->bus_id.empty()) summary.gpu = r.gpu->bus_id;
    }
    if (summary.first_frame_start < 0) summary.first_frame_start = run_seconds - seconds;
    summary.last_frame_end = run_seconds;
    if (summary.rendered == 1) {
      first_width_ = r.width;
      first_height_ = r.height;
    } else if (r.width != first_width_ || r.height != first_height_) {
      speaker_.warning("frame " + std::to_string(k + 1) + " (" + origin + ") is " + std::to_string(r.width) + " x " +
                       std::to_string(r.height) + " pixels, the first frame " + std::to_string(first_width_) + " x " +
                       std::to_string(first_height_) + ": a movie needs frames of one size");
    }
    summary.read_seconds += r.stage_seconds("read") + r.stage_seconds("hsml");
    summary.render_seconds += r.stage_seconds("render");
    const double left = run_seconds / double(k + 1) * double(frames_ - k - 1);
    if (r.snapshot_reads >= 0) {  // between two snapshots: each of the two read or kept
      summary.reads += r.snapshot_reads;
      summary.reads_saved += 2 - r.snapshot_reads;
    } else {
      ++(r.reused ? summary.reads_saved : summary.reads);
    }
    if (r.read_ahead) ++summary.reads_ahead;
    const std::string between = r.between.empty() ? "" : " (" + r.between + ")";
    const bool on_gpu = r.gpu && r.gpu->geometry_on_gpu;  // the frame's stages drawn from a copy on the GPU
    say("frame %zu of %zu (%s): %s%s in %.3f s, %s renderer%s; about %.0f s left\n", k + 1, frames_, origin.c_str(),
        r.image_path.c_str(), between.c_str(), seconds, r.renderer.c_str(),
        r.snapshot_reads == 1 ? " (one of its two snapshots kept from the frames before)"
        : on_gpu && r.reused  ? " (snapshot kept on the GPU from the frame before)"
        : r.reused            ? " (snapshot kept from the frame before)"
        : r.read_ahead        ? (on_gpu ? " (snapshot read while the frame before rendered, and copied to the GPU)"
                                        : " (snapshot read while the frame before rendered)")
        : on_gpu              ? " (snapshot copied to the GPU)"
                              : "",
        left);
    if (summary.rendered == 1)  // what renderer = auto weighed, and that frames are previews, once
      for (const std::string& note : r.notes)
        if (note.rfind("renderer = auto", 0) == 0 || note.rfind("a preview (", 0) == 0)
          speaker_.report("  note: " + note + "\n");
  }
  void failed(std::size_t k, const std::string& origin, const std::string& failure) {
    ++summary.failed;
    speaker_.warning("frame " + std::to_string(k + 1) + " of " + std::to_string(frames_) + " (" + origin +
                     ") failed: " + failure);
  }

  SceneSummary summary;

 private:
  template <class... Args>
  void say(const char* format, Args... args) {
    char line[1200];
    std::snprintf(line, sizeof line, format, args...);
    speaker_.report(line);
  }
  std::size_t frames_;
  Console& speaker_;
  int first_width_ = 0, first_height_ = 0;
};

// The counts and times of every process's frames, on every process (frames dealt out).
void sum_over_processes(SceneSummary& summary, const Comm& comm) {
  summary.processes = comm.size();
  int* counts[] = {&summary.rendered, &summary.skipped,     &summary.failed,
                   &summary.reads,    &summary.reads_saved, &summary.reads_ahead};
  double* seconds[] = {&summary.read_seconds, &summary.render_seconds};  // summed as milliseconds
  std::vector<std::uint64_t> all;
  for (int* c : counts) all.push_back(std::uint64_t(*c));
  for (double* t : seconds) all.push_back(std::uint64_t(*t * 1e3 + 0.5));
  comm.sum(all);
  for (std::size_t k = 0; k < 6; ++k) *counts[k] = int(all[k]);
  for (std::size_t k = 0; k < 2; ++k) *seconds[k] = 1e-3 * double(all[6 + k]);
}

// A movie whose frames each chose their own exposure would flicker: the first frame's choice,
// where it was the default (neither exposure nor a brightnessN given), holds for the frames after
// it. Rank 0 finished the picture and chose it: an MPI run's processes take it from there, so that
// their settings agree. (Frames dealt out to processes each choose their own: said once, below.)
void keep_default_exposure(ParamFile& params, const RunReport& r, const Comm* comm, std::size_t k,
                           const std::string& origin, Console& speaker) {
  double chosen = r.default_exposure;
  if (comm && comm->size() > 1) {
    std::vector<std::uint64_t> bits(1);
    std::memcpy(bits.data(), &chosen, sizeof chosen);
    comm->broadcast(bits);
    std::memcpy(&chosen, bits.data(), sizeof chosen);
  }
  if (!(chosen > 0)) return;
  params.set("exposure", number_text(chosen),
             "exposure = auto of frame " + std::to_string(k + 1) + " (" + origin + ")");
  speaker.report("  note: exposure = auto (neither exposure nor a brightnessN is given) chose " + number_text(chosen) +
                 " for frame " + std::to_string(k + 1) +
                 ", and the frames after it keep that (a movie that does not flicker; give exposure = auto for a "
                 "choice in each frame, or a number)\n");
}

// A resumed scene whose first frame is drawn already: the exposure that frame chose by default
// (its used.par says "exposure = X  # auto") holds for the frames drawn now, as it would have had
// the run not stopped; else the first frame drawn now would choose another, and the movie flicker.
void keep_resumed_exposure(ParamFile& params, const LaterFrame& first, Console& console) {
  if (!first.exists || params.has("exposure")) return;
  const std::string used = first.picture + ".used.par";
  std::ifstream in(used);
  for (std::string line; std::getline(in, line);) {
    const std::size_t eq = line.find('='), auto_at = line.find("# auto");
    if (line.rfind("exposure", 0) != 0 || eq == std::string::npos || auto_at == std::string::npos) continue;
    if (line.find_first_not_of(' ', 8) != eq) continue;  // (another key that begins so)
    const std::size_t from = line.find_first_not_of(' ', eq + 1);
    const std::string value = line.substr(from, line.find(' ', from) - from);
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (!(x > 0) || *end) return;
    params.set("exposure", value, used);
    console.report("  note: exposure = " + value + ", as the first frame chose it (" + used +
                   "): the frames drawn now keep it (a movie that does not flicker)\n");
    return;
  }
}

}  // namespace

ReadAhead read_ahead_mode(ParamFile& params) {
  const std::string text = params.get<std::string>("scene_read_ahead", "auto");
  if (text == "auto") return ReadAhead::automatic;
  return parse_bool(text, params.origin("scene_read_ahead") + ": scene_read_ahead (auto, TRUE or FALSE)")
             ? ReadAhead::always
             : ReadAhead::never;
}

bool worth_reading_ahead(ReadAhead mode, double load_seconds) {
  if (mode == ReadAhead::automatic) return load_seconds >= read_ahead_worth_seconds;
  return mode == ReadAhead::always;
}

MpiMode read_mpi_mode(ParamFile& params) {
  const std::string mode = params.get<std::string>("mpi_mode", "auto");
  if (mode == "auto") return MpiMode::automatic;
  if (mode == "data") return MpiMode::data;
  if (mode == "frames") return MpiMode::frames;
  throw UserError(params.origin("mpi_mode") + ": mpi_mode = '" + mode + "' is not one of auto, data, frames");
}

namespace {

// Why processes each holding a share of the particles cannot draw the scene's frames, where they
// cannot: a frame between two snapshots (the first such row named), or smoothing lengths from
// the nearest neighbours. `reason`, a clause for a note; `error`, what to do.
struct ShareObstacle {
  std::string reason, error;
};
ShareObstacle shares_cannot_draw(const std::vector<SceneFrame>& frames,
                                 const std::function<ParamFile(std::size_t)>& frame_params, const LaterFrame& first,
                                 int processes) {
  for (std::size_t k = 0; k < frames.size(); ++k) {
    std::optional<InterpolationPoint> point;
    try {
      ParamFile p = frame_params(k);
      point = interpolation_point(p);
    } catch (const UserError&) {  // (a row in error fails its own frame)
    }
    if (point)
      return {"its frames between two snapshots need whole snapshots",
              point->origin + ": fidx = " + point->fidx_text + " (interpolation_mode = " + std::to_string(point->mode) +
                  ") is a frame between two snapshots, which several MPI processes each holding a share of the "
                  "particles cannot draw (their IDs would have to be matched across processes); run the scene "
                  "with mpi_mode = frames, which deals whole frames out to the processes"};
  }
  // (first's keys in error: the frame says so in its turn)
  const std::string why = first.usable ? share_obstacle(first.input, processes) : "";
  if (!why.empty())
    return {"smoothing lengths from the nearest neighbours need whole snapshots",
            why + "; or run the scene with mpi_mode = frames, which deals whole frames out to the processes"};
  return {};
}

// Whether an MPI run deals a scene's frames out to its processes (mpi_mode): frames, always; data,
// never; auto, where each process has the memory for a whole snapshot and either there are more
// frames than processes or shares cannot draw them. Says auto's choice; where shares would have to
// draw what they cannot, throws before the first frame. Collective.
// `first`: the scene's first frame, planned.
bool deal_frames(MpiMode mode, const std::vector<SceneFrame>& frames,
                 const std::function<ParamFile(std::size_t)>& frame_params, const LaterFrame& first, const Comm* comm,
                 Console& console) {
  const int processes = comm ? comm->size() : 1;
  if (processes == 1 || mode == MpiMode::frames) return processes > 1;
  const ShareObstacle obstacle = shares_cannot_draw(frames, frame_params, first, processes);
  const bool few = frames.size() <= std::size_t(processes);
  bool deal = false;
  if (mode == MpiMode::automatic && (!few || !obstacle.error.empty())) {
    // Every process holds a whole snapshot then: the node's memory is shared by its processes.
    const std::size_t wanted = 2 * snapshot_file_bytes(first.input);
    deal = comm->all(available_memory_bytes() / std::size_t(comm->node_size()) >= wanted);
  }
  const std::string count = std::to_string(frames.size()) + " frame" + (frames.size() == 1 ? "" : "s") + " for " +
                            std::to_string(processes) + " processes";
  if (mode == MpiMode::automatic && deal && few)
    console.report("  note: mpi_mode = auto: the frames are dealt out to the processes (the scene has " + count +
                   ", but " + obstacle.reason + ")\n");
  if (mode == MpiMode::automatic && !deal)
    console.report("  note: mpi_mode = auto: every process draws each frame, from its share of the particles (" +
                   (few && obstacle.error.empty() ? "the scene has " + count
                                                  : std::string("a process has not the memory for two of the "
                                                                "snapshot's files")) +
                   "); mpi_mode = frames deals whole frames out to the processes instead\n");
  // Said before the first frame, not as each such frame fails among the others.
  if (!deal && !obstacle.error.empty()) throw UserError(obstacle.error);
  return deal;
}

// The scene file read, and what is decided once before the first frame.
struct ScenePlan {
  std::vector<SceneFrame> frames;
  bool resume = false;
  ReadAhead read_ahead = ReadAhead::automatic;  // auto: when the snapshot before took long enough to load
  bool deal = false;                            // the frames dealt out to the processes
  int device = 0;                               // this process's GPU among those it sees
};

ParamFile frame_params(const ParamFile& params, const SceneFrame& f) {
  ParamFile p = params;
  for (const auto& [key, value] : f.values) p.set(key, value, f.origin);
  return p;
}

// What cannot work is said now, once, not by each frame: a directory the pictures cannot go to
// (unless rows name their own), renderer = cuda without a GPU (frames dealt out: before a process
// without one takes most of them by failing each at once), a read ahead that cannot be.
void check_scene(ParamFile& params, const ScenePlan& plan, const Comm* comm, Console& console) {
  bool rows_name_outfile = false;
  for (const SceneFrame& f : plan.frames)
    for (const auto& kv : f.values) rows_name_outfile = rows_name_outfile || kv.first == "outfile";
  if (!rows_name_outfile && params.has("outfile")) {
    ParamFile probe = params;  // (not looked up for the record)
    check_writable_directory(probe.get<std::string>("outfile"), params.origin("outfile") + ": outfile");
  }
  if (comm && comm->size() > 1 && !plan.deal && plan.read_ahead == ReadAhead::always)
    console.warning(params.origin("scene_read_ahead") +
                    ": scene_read_ahead = TRUE reads nothing ahead when every process draws each frame from its "
                    "share (the processes read their shares together, when the frame comes); mpi_mode = frames "
                    "deals whole frames out, each process reading ahead");
  if (params.get<std::string>("renderer", "auto") == "cuda")
    agreed(comm, "", [&] {
      const std::string why = gpu_missing(plan.device);
      if (!why.empty())
        throw UserError(params.origin("renderer") + ": renderer = cuda, but " + why + "; use renderer = host or auto");
    });
}

ScenePlan plan_scene(ParamFile& params, Console& console, RenderSession& session, const Comm* comm) {
  ScenePlan plan;
  const MpiMode mode = read_mpi_mode(params);
  std::string path = params.get<std::string>("scene_file");
  // A relative name: from the working directory, else from the parameter file's directory.
  if (!path.empty() && path[0] != '/' && !path_exists(path) && path_exists(directory_of(params.name()) + path))
    path = directory_of(params.name()) + path;
  SceneSelection selection;
  selection.start = params.get<int>("scene_start", 0);
  selection.increment = params.get<int>("scene_incr", 1);
  selection.last = params.get<int>("last_scene", -1);
  plan.resume = params.get<bool>("resume", false);
  plan.read_ahead = read_ahead_mode(params);
  plan.frames = read_scene_file(path, selection);
  auto params_of = [&](std::size_t k) { return frame_params(params, plan.frames[k]); };
  const bool several = comm && comm->size() > 1;
  // The first frame's keys and snapshot, worked out once for what is decided before it.
  const LaterFrame first =
      several || plan.resume ? plan_later_frame(params_of(0), plan.frames[0], plan.resume) : LaterFrame{};
  plan.deal = deal_frames(mode, plan.frames, params_of, first, comm, console);
  if (plan.resume) keep_resumed_exposure(params, first, console);
  // Frames dealt out, a process reaches no GPU but its own: seeing that one alone, it has the driver
  // start one GPU instead of all (splotch/render/gpu_startup.h). Before any CUDA call.
  plan.device = comm ? comm->gpu_index() : 0;
  if (plan.deal && !session.gpu().has_value()) plan.device = see_own_gpu_only(plan.device);
  check_scene(params, plan, comm, console);
  return plan;
}

// The frames of a planned scene, in turn or as dealt out to the processes: a process asks for its
// next frame as soon as the current one has its particles, so that the next one's snapshot can be
// read meanwhile.
class SceneRun {
 public:
  SceneRun(const SceneRun&) = delete;  // (its planner's frame parameters point back into it)
  SceneRun& operator=(const SceneRun&) = delete;
  SceneRun(ParamFile& params, ScenePlan plan, Console& console, Console& speaker, RenderSession& session,
           const Comm* comm)
      : params_(params),
        plan_(std::move(plan)),
        console_(console),
        speaker_(speaker),
        session_(session),
        comm_(comm),
        tally_(plan_.frames.size(), speaker),
        planner_(
            plan_.frames, [this](std::size_t k) { return frame_params(params_, plan_.frames[k]); }, plan_.resume,
            session.keep_snapshots(), speaker) {
    if (plan_.deal) {
      dealer_ = std::make_unique<SharedCounter>(*comm);
      session.take_read_turns(*comm);  // each process's first read in its node's turn
    }
  }

  SceneSummary run(const Stopwatch& clock) {
    for (std::size_t k = claim(); k < plan_.frames.size();
         k = claimed_ ? *std::exchange(claimed_, std::nullopt) : claim()) {
      Stopwatch frame_clock;
      std::string failure;
      try {
        draw(k, frame_clock, clock);
      } catch (const UserError& e) { failure = e.what(); } catch (const std::bad_alloc&) {
        if (!plan_.deal) throw;  // a process dealt frames goes on with its next (the others do not wait for it)
        failure = "out of memory";
      } catch (const std::exception& e) {
        if (!plan_.deal) throw;
        failure = std::string("internal error: ") + e.what();
      }
      if (!failure.empty()) tally_.failed(k, plan_.frames[k].origin, failure);
    }
    if (plan_.deal) {                 // what all processes did
      session_.read_turns()->pass();  // a process that read nothing: its turn, once it comes, goes on
      session_.end_read_turns();
      comm_->wait_for_all();  // (asleep: the others may still draw their last frames)
      speaker_.report(tally_.summary.stage_text());
      dealer_.reset();
      sum_over_processes(tally_.summary, *comm_);
    }
    // Each frame by all processes: rank 0's GPU is not the scene's (its GPU seconds are its own).
    if (!plan_.deal && comm_ && comm_->size() > 1) tally_.summary.gpu.clear();
    tally_.summary.seconds = clock.seconds();
    return tally_.summary;
  }

 private:
  std::size_t claim() { return dealer_ ? std::size_t(dealer_->next()) : in_turn_++; }

  FrameOptions frame_options(std::size_t k) const {
    const std::size_t n = plan_.frames.size(), processes = comm_ ? std::size_t(comm_->size()) : 1;
    FrameOptions options;
    options.number = plan_.frames[k].number;
    options.in_scene = true;
    options.resume = plan_.resume;
    options.warn_unused = k == 0;
    options.comm = plan_.deal ? nullptr : comm_;
    options.device = plan_.device;
    options.frames = int(plan_.deal ? (n - k + processes - 1) / processes : n - k);
    return options;
  }

  // Once the frame has its particles: the first later frame of this process (within reach) that
  // needs another snapshot has it read now, in the background.
  void read_ahead(std::size_t k, const SnapshotLoaded& loaded) {
    if (dealer_ && !claimed_) claimed_ = claim();
    if (!worth_reading_ahead(plan_.read_ahead, loaded.seconds)) return;
    if (dealer_)
      planner_.after_load(*claimed_, *claimed_ + 1, loaded.signature, loaded.bytes);
    else
      planner_.after_load(k + 1, k + 1 + look_ahead_frames, loaded.signature, loaded.bytes);
  }

  void draw(std::size_t k, const Stopwatch& frame_clock, const Stopwatch& clock) {
    const SceneFrame& f = plan_.frames[k];
    const FrameOptions options = frame_options(k);
    ParamFile p = frame_params(params_, f);
    FrameRun run(p, speaker_, session_, options);
    if (const std::optional<SnapshotLoaded> loaded = run.load()) read_ahead(k, *loaded);
    const RunReport r = run.draw();
    if (!plan_.deal && !params_.has("exposure")) keep_default_exposure(params_, r, comm_, k, f.origin, speaker_);
    if (plan_.deal && r.default_exposure > 0 && comm_->root() && !said_dealt_exposure_) {
      said_dealt_exposure_ = true;  // (rank 0 speaks for all: every process's frames choose alike)
      console_.warning(
          "frames dealt out to processes each choose their exposure (neither exposure nor a "
          "brightnessN is given): a movie may flicker; give exposure a number (a frame's used.par "
          "has the one it chose), or brightnessN");
    }
    if (r.skipped)
      tally_.skipped(k, f.origin, r);
    else
      tally_.rendered(k, f.origin, r, frame_clock.seconds(), clock.seconds());
  }

  ParamFile& params_;
  const ScenePlan plan_;
  Console& console_;
  Console& speaker_;
  RenderSession& session_;
  const Comm* comm_;
  SceneTally tally_;
  ReadAheadPlanner planner_;
  std::unique_ptr<SharedCounter> dealer_;
  std::size_t in_turn_ = 0;
  std::optional<std::size_t> claimed_;
  bool said_dealt_exposure_ = false;
};

}  // namespace

SceneSummary render_scene(ParamFile& params, Console& console, RenderSession& session, const Comm* comm,
                          Console* process_console) {
  Stopwatch clock;
  ScenePlan plan = plan_scene(params, console, session, comm);
  Console& speaker = plan.deal && process_console ? *process_console : console;
  SceneRun scene(params, std::move(plan), console, speaker, session, comm);
  return scene.run(clock);
}

}  // namespace splotch
