#include "splotch/frame/pipeline.h"

#include <omp.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "errors/user_error.h"
#include "io/enzo_reader.h"
#include "io/phantom_reader.h"
#include "io/ramses_reader.h"
#include "io/snapshot_request.h"
#include "splotch/frame/frame_camera.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/frame_views.h"
#include "splotch/frame/gpu_split.h"
#include "splotch/frame/image_combine.h"
#include "splotch/frame/map_frame.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/particle_source.h"
#include "splotch/frame/picture.h"
#include "splotch/frame/renderer_decision.h"
#include "splotch/frame/splat_steps.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/frame/system_memory.h"
#include "splotch/frame/view_drawer.h"
#include "splotch/load/particle_count.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/gpu_particles.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/render/host_render_config.h"
#include "splotch/render/share_cost.h"
#include "splotch/settings/known_keys.h"
#include "splotch/settings/original_keys.h"
#include "splotch/stages/dome_projection.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

// What each render type draws of the file, for the report: the file's type numbers are not the
// render types' (ptype1 = 4: stars as type 1).
std::vector<std::string> type_names(const SnapshotRequest& in) {
  std::vector<std::string> names;
  static const char* const tipsy[] = {"gas", "dark", "star"};
  for (const RenderTypeRequest& r : in.typed.types) {
    const int t = r.file_type;
    switch (in.format) {
      case SnapshotFormat::tipsy: names.push_back(t >= 0 && t < 3 ? tipsy[t] : "file type " + std::to_string(t)); break;
      case SnapshotFormat::ramses: names.push_back(ramses_type_name(t)); break;
      case SnapshotFormat::enzo: names.push_back(enzo_type_name(t)); break;
      case SnapshotFormat::phantom: names.push_back(phantom_type_name(t)); break;
      case SnapshotFormat::ascii: names.push_back("rows"); break;
      case SnapshotFormat::visivo: names.push_back("rows or cells"); break;
      case SnapshotFormat::fits: names.push_back("voxels or rows"); break;
      case SnapshotFormat::mesh: names.push_back("cells"); break;
      case SnapshotFormat::bonsai: names.push_back(t == 0 ? "dark matter" : "stars"); break;
      default: names.push_back("file type " + std::to_string(t));
    }
  }
  return names;
}

// A colour field with no value above 0 under color_logN (a density of initial conditions left 0)
// has no log to map: every particle takes the palette's top colour, a picture of one colour that
// looks meant. Said, with what to do.
void warn_colours_without_log(const NormalizedRanges& ranges, const std::vector<TypeNormalization>& types,
                              const SnapshotRequest& in, Console& console) {
  for (std::size_t t = 0; t < ranges.data.size() && t < types.size(); ++t) {
    if (!types[t].color_log || types[t].vector_colour || !ranges.data[t].colour.empty()) continue;
    if (ranges.data[t].intensity.empty()) continue;  // no particle of the type at all
    const std::string n = std::to_string(t);
    const std::string label =
        has_particle_types(in.format) && t < in.typed.types.size() ? " (" + in.typed.types[t].colour.label + ")" : "";
    console.warning("no colour value of type " + n + label + " is above 0, and color_log" + n +
                    " takes their log10: every particle gets the palette's top colour; give color_log" + n +
                    " = FALSE, or another color_label" + n + " (bin/splotch --info lists the fields and their ranges)");
  }
}

// The record of one frame of a scene renders that frame alone.
void leave_scene_out_of_record(ParamFile& params) {
  for (const char* key :
       {"scene_file", "scene_start", "scene_incr", "last_scene", "resume", "scene_read_ahead", "mpi_mode"})
    params.leave_out_of_record(key);
}

// Whether the picture at `path` is a quick preview, as its used.par records (boost_fraction below
// 1, not turned off by boost = FALSE).
bool preview_picture(const std::string& path) {
  try {
    ParamFile used = ParamFile::read(path + ".used.par");
    const bool preview = used.has("boost") ? used.get<bool>("boost") : used.has("boost_fraction");
    return preview && used.get<double>("boost_fraction", 0.1) < 1;
  } catch (const std::exception&) {  // no record, or one that does not parse: the picture stands
    return false;
  }
}

// resume: the pictures exist already (for every process of an MPI run: a node's own disk may
// lack it, and then all render it), and are no previews where this run draws in full (which
// says so).
bool rendered_before(const Settings& s, const FrameOptions& frame, const Comm* comm, Console& console) {
  bool exists = frame.resume, preview = false;
  for (const std::string& path : view_paths(s.views, s.output.path)) {
    exists = exists && path_exists(path);
    preview = preview || (exists && s.input.keep_fraction == 1 && preview_picture(path));
  }
  if (preview && (!comm || comm->root()))
    console.report("  note: resume: " + s.output.path +
                   " is a quick preview (boost_fraction in its used.par): drawn again in full\n");
  exists = exists && !preview;
  return frame.resume && comm ? comm->all(exists) : exists;
}

// One line each, so that a long list reads as a list: a typo with the key it most likely meant,
// an original key with why it has no effect here.
void warn_unused(const ParamFile& params, int types, Console& console) {
  std::string typos, idle, originals;
  for (const std::string& k : params.unused_keys()) {  // "key (origin)"
    const std::string key = k.substr(0, k.find(' '));
    const std::string why = original_key_without_effect(key);
    if (!why.empty()) {
      originals += "\n  " + k + ": " + why;
    } else if (key_kind(key)) {
      idle += "\n  " + k;
    } else {
      const std::string meant = did_you_mean(key, types);
      typos += "\n  " + k + (meant.empty() ? "" : ": did you mean " + meant + "?");
    }
  }
  if (!typos.empty()) console.warning("parameters not used by this run (typos?):" + typos);
  if (!idle.empty())
    console.warning("keys that have no effect with the others given (a size_label with size_fix > 0, say):" + idle);
  if (!originals.empty())
    console.warning("keys of the original Splotch that have no effect here (keep or remove them):" + originals);
}

// Rank 0's threads when it draws alone: those of its node's processes (each has `threads`), at
// most the cores it may run on.
int alone_threads(int threads, const Comm& comm) { return std::min(omp_get_num_procs(), threads * comm.node_size()); }

// Whether rank 0 draws the frame alone, as the share model (splotch/render/share_cost.h) has it
// from rank 0's view (the headers' particles, its node's memory, its GPU's): the same answer on every
// process, and rank 0's note of it.
bool draws_alone(const Settings& s, const Comm& comm, int threads, RendererDecision& renderer,
                 std::vector<std::string>& notes) {
  ShareWork w;
  // Every process draws on a GPU: renderer = cuda, or auto where a driver is loaded (a look at the
  // file system; auto may still find the GPU does not pay, which the model then overrates).
  w.gpu = comm.all(s.renderer == RendererChoice::cuda && gpu_driver_loaded());
  // How many processes share a GPU at most (SPLOTCH_PROCESSES_PER_GPU, or more processes than GPUs),
  // and a node (whose GPUs start one after another).
  const std::vector<std::uint64_t> gpus =
      comm.gather_all({std::uint64_t(comm.node_id()), std::uint64_t(comm.gpu_index())});
  // (counted by key, not pair by pair: every process does this, for every frame, on runs of
  // thousands of processes)
  std::map<std::pair<std::uint64_t, std::uint64_t>, int> on_gpu;
  std::map<std::uint64_t, int> on_node;
  int per_gpu = 1, per_node = 1;
  for (std::size_t p = 0; p + 1 < gpus.size(); p += 2) {
    per_gpu = std::max(per_gpu, ++on_gpu[{gpus[p], gpus[p + 1]}]);
    per_node = std::max(per_node, ++on_node[gpus[p]]);
  }
  std::vector<std::uint64_t> decided(1, 0);
  if (comm.root()) {
    w.particles = double(particles_to_read(s.input).value_or(0));
    w.pixels = double(s.camera.xres) * double(s.camera.yres);
    w.a_eq_e = s.render.a_eq_e;
    w.gpu_split = w.gpu && gpus_may_split(comm, s.sort);
    w.processes = comm.size();
    w.nodes = comm.nodes();
    w.node_processes = per_node;
    w.threads = threads;
    w.alone_threads = alone_threads(threads, comm);
    w.node_memory = double(available_memory_bytes());
    for (const TypeSettings& t : s.types) w.vector_colour = w.vector_colour || t.vector_colour;
    w.typed = s.types.size() > 1;
    w.processes_per_gpu = per_gpu;
    if (w.particles > 0) {  // (uncounted: every process reads its share, as mpi_mode = data)
      // Rank 0 alone must pass the memory check that a single process meets (its particles, the
      // image, a neighbour tree): bytes per particle as that check counts them.
      const MemoryNeed need = memory_need(std::uint64_t(w.particles), memory_shape(s));
      ShareCosts costs;
      costs.particle_bytes = (double(need.total) - double(need.image_bytes)) / w.particles;
      w.node_memory -= double(need.image_bytes);
      ShareEstimate e = estimate_share(w, costs);
      // The GPU's memory can only take the split from the GPUs: asked only where that could
      // change the choice (rank 0's GPU; the node's are alike).
      if (!e.alone && e.gpu_split) {
        w.gpu_memory = double(renderer.gpu_memory());
        e = estimate_share(w, costs);
      }
      decided[0] = e.alone ? 1 : 0;
      // Smoothing lengths estimated from the neighbours need every particle in one process (a
      // share does not hold its particles' neighbours): rank 0 alone, where it has the memory.
      std::string estimated;
      for (std::size_t n = 0; n < s.input.typed.types.size() && has_particle_types(s.input.format); ++n)
        if (s.input.typed.types[n].size_estimate == SizeEstimate::knn)
          estimated += (estimated.empty() ? "" : ", ") + std::string("ptype") + std::to_string(n);
      if (!estimated.empty() && e.alone_fits) {
        decided[0] = 1;
        notes.push_back("mpi_mode = auto: rank 0 alone draws this frame: the smoothing lengths of " + estimated +
                        " are estimated from the nearest neighbours, which needs every particle in one process");
      } else {
        notes.push_back(describe_share(e, w));
      }
    }
  }
  comm.broadcast(decided);
  return decided[0] == 1;
}

// A process's first read of dealt-out frames (RenderSession::read_turns) in its node's turn, with
// the node's threads until it passes the turn on.
class ReadTurn {
 public:
  ReadTurn(NodeTurns* turns, RendererDecision& renderer, int threads)
      : turns_(turns), renderer_(renderer), threads_(threads), open_(turns && turns->take()) {
    if (open_) renderer_.set_threads(turns_->threads(threads_));
  }
  ~ReadTurn() {  // a frame that failed in its turn passes it on
    try {
      pass();
    } catch (const std::exception&) {  // MPI failed: the job ends, the next process with it
      renderer_.set_threads(threads_);
    }
  }
  ReadTurn(const ReadTurn&) = delete;
  ReadTurn& operator=(const ReadTurn&) = delete;
  bool open() const { return open_; }
  void pass() {
    if (!std::exchange(open_, false)) return;
    turns_->pass();
    renderer_.set_threads(threads_);
  }

 private:
  NodeTurns* turns_;
  RendererDecision& renderer_;
  int threads_;
  bool open_;
};

// Particles too large for the GPU even a window at a time: said once in a run (a scene of such
// snapshots, or the server's pictures, would say it every time), noted after.
void say_not_copied(const GpuCopyAnswer& got, Console& console, std::vector<std::string>& notes) {
  if (got.first_refusal)
    console.warning("the particles are not copied to the GPU (" + got.refused +
                    "): views of them are projected, coloured and ordered on the CPU, which is slower (the GPU still "
                    "draws); a GPU with more free memory, or fewer particles (boost_fraction for a preview), keeps "
                    "them there");
  else
    notes.push_back(
        "geometry, colour and ordering on the CPU, the splats streamed to the GPU: the particles are not "
        "copied to the GPU (" +
        got.refused + ")");
}

void end_report(RunReport& report, const StageClock& clock, const ParamFile& params, const FrameOptions& frame,
                Console& console) {
  report.total_seconds = clock.seconds();
  report.peak_memory_mib = peak_memory_mib();
  if (frame.warn_unused) warn_unused(params, int(report.ranges.size()), console);
}

// A view's particles on the GPU: the copy, its name among the session's copies, and what draws it.
struct KeptView {
  DeviceParticles& particles;
  GpuCopyKey key;
  ViewDrawer drawer;
};

}  // namespace

// The frame's state from step to step, and the steps' parts.
struct FrameRun::Steps {
  Steps(ParamFile& params, Console& console, RenderSession& session, const FrameOptions& frame);

  // Work that may fail on some processes of an MPI run only: every process learns of the first
  // failure before the next collective call (splotch/mpi/comm.h).
  template <class Work>
  void agreed(Work&& work) {
    splotch::agreed(comm, "drawing its share of the particles", work);
  }
  bool every_process(bool yes) const { return comm ? comm->all(yes) : yes; }
  bool plan_frame_here();
  void prepare_views();
  void draw_palette();
  void draw_view(std::size_t v);
  void draw_map_view(std::size_t v);
  std::optional<KeptView> copy_to_gpu(GeometryOptions& geometry, bool split);
  bool draw_from_gpu_copy(GeometryOptions& geometry, bool split, Image& image, RunReport& view_report, bool first);
  std::string draw_kept(const KeptView& kept, const GeometryOptions& geometry, bool split, Image& image);
  void draw_through_cpu(const GeometryOptions& geometry, bool split, bool keep, Image& image, RunReport& view_report,
                        bool first);
  void finish_view(std::size_t v, Image& image, RunReport& view_report);
  void add_note(bool first_view, bool drew_on_gpu);
  RunReport end();

  ParamFile& params;
  Console& console;
  RenderSession& session;
  const FrameOptions& frame;
  RunReport report;
  StageClock clock;
  const Comm* comm;  // null: this process draws the frame alone
  RendererDecision renderer;
  FramePlan plan;
  Palettes palettes;
  bool finished = false;      // nothing left to do: the pictures exist (resume), or another process draws
  bool palette_only = false;  // the original's show_palette.par: no snapshot
  std::unique_ptr<ParticleSource> source;
  NormalizedRanges ranges;
  std::vector<FrameView> views;
  std::unique_ptr<ImageCombine> combine;
  RenderOptions options;
  Settings view_settings;  // each view's camera and file; exposure = auto as the first lit view found it
  std::string in_view;
  bool drawn_on_gpu = false;  // from particles copied to it
  std::vector<KeptPicture> pictures;
  std::vector<KeptMap> maps;
};

FrameRun::Steps::Steps(ParamFile& params_, Console& console_, RenderSession& session_, const FrameOptions& frame_)
    : params(params_),
      console(console_),
      session(session_),
      frame(frame_),
      clock(report, session_.gpu()),
      comm(frame_.comm && frame_.comm->size() > 1 ? frame_.comm : nullptr),
      renderer(params_, frame_, session_) {  // renderer = cuda starts the GPU now
  report.process_age_at_start = process_age_seconds();
  if (frame.comm && frame.comm->with_mpi()) report.mpi_start_seconds = frame.comm->start_seconds();
  for (const std::string& w : params.warnings()) console.warning(w);
  report.threads = renderer.threads();
  finished = !plan_frame_here();
}

// The plan, and whether this process goes on to read and draw.
bool FrameRun::Steps::plan_frame_here() {
  plan = plan_frame(params, frame, renderer, comm, console, report.notes);
  const Settings& s = plan.settings;
  report.renderer = "host";
  report.image_path = s.output.path;
  report.width = s.camera.xres;
  report.height = s.camera.yres;
  if (frame.in_scene) leave_scene_out_of_record(params);
  if (rendered_before(s, frame, comm, console)) {
    report.skipped = true;
    return false;
  }
  palettes = read_palettes(s);
  clock.pace();  // without a GPU, the search for one is over by now
  if (s.input.format == SnapshotFormat::palette_only) return palette_only = !comm || comm->root();
  // mpi_mode = auto: rank 0 may draw the frame alone (the others are done then).
  const bool alone = comm && frame.share_by_model && draws_alone(s, *comm, report.threads, renderer, report.notes);
  renderer.release_gpu(!alone || !comm || comm->root());
  if (!alone) return true;
  if (!comm->root()) {
    report.skipped = true;
    return false;
  }
  // The node's other processes are done: rank 0 takes their threads too.
  renderer.set_threads(alone_threads(report.threads, *comm));
  report.threads = renderer.threads();
  comm = nullptr;
  return true;
}

// The particles' ranges said, the camera (placed from the data where none is given), the views and
// what draws them.
void FrameRun::Steps::prepare_views() {
  const Settings& s = plan.settings;
  ranges = source->ranges();
  report.ranges = range_lines(ranges, plan.normalization, type_names(s.input));
  report.show_ranges = s.map.mode == MapMode::none;
  warn_colours_without_log(ranges, plan.normalization, s.input, console);
  const Camera camera = frame_camera(s, *source, params, report.notes);
  if (s.placement.from_data)
    report.placed_camera =
        PlacedCamera{camera.position, camera.lookat, camera.sky, !s.placement.lookat_given, !s.placement.sky_given};
  views = frame_views(s.views, camera, s.output.path);
  combine = image_combine(comm, s.render.a_eq_e);
  options = s.render;
  options.tile_size = host_tile_size(s.camera.xres, s.camera.yres, report.threads);
  options.stop = frame.stop;
  view_settings = s;
  report.particles_active = 0;
}

void FrameRun::Steps::draw_palette() {
  const Image bands = palette_bands(plan.settings, palettes);
  clock.done("post");
  if (frame.keep_pictures)
    pictures.push_back({bands, {}});
  else
    write_picture(params, plan.settings, bands, {});
  clock.done("write");
}

// The view's particles on the GPU, copied there or kept there from before, where the GPU draws;
// under MPI only where every process has its copy (the host's stages that follow otherwise are
// collective), and with a_eq_e = FALSE, whose draw order the processes share out, where their GPUs
// can pass the splats between them (splotch/frame/gpu_split.h). Null: the CPU's stages draw it.
std::optional<KeptView> FrameRun::Steps::copy_to_gpu(GeometryOptions& geometry, bool split) {
  if (!gpu_projects(geometry.camera) || (split && !gpus_may_split(*comm, plan.settings.sort))) return std::nullopt;
  GpuCopies& copies = session.gpu_copies();
  std::optional<KeptView> kept;
  agreed([&] {  // (the GPU's start may fail on one process: all hear of it)
    const std::optional<GpuParticles> want = source->for_gpu(geometry);
    if (!want || copies.refused(want->key)) return;
    std::optional<ViewDrawer> drawer = renderer.gpu_for_kept_particles(console, clock);
    if (!drawer) return;
    const GpuCopyAnswer got = copies.get(want->key, *want->particles, drawer->gpu(), frame.gpu_window);
    if (!got.refused.empty()) say_not_copied(got, console, report.notes);
    if (got.particles) kept.emplace(KeptView{*got.particles, want->key, *drawer});
  });
  // (the split draws the whole view at once: a copy in windows cannot take it)
  const bool usable = kept && !(split && kept->particles.window() < kept->particles.size());
  if (every_process(usable)) return kept;
  if (kept) copies.give_up(kept->key);  // unused: the others' copies do not match it
  return std::nullopt;
}

// The view drawn from the particles copied to the GPU; "" where it was, else why the GPU failed.
std::string FrameRun::Steps::draw_kept(const KeptView& kept, const GeometryOptions& geometry, bool split,
                                       Image& image) {
  const Settings& s = plan.settings;
  try {
    if (split)
      image = combine->render_layer(
          [&](const RenderOptions& o, float* layer) {
            kept.drawer.draw_kept_split(kept.particles, geometry, s.input.periodic, colour_options(s, palettes), o,
                                        *comm, s.camera.xres, s.camera.yres, layer, report, console);
          },
          options, s.camera.xres, s.camera.yres);
    else
      image = combine->render(
          [&](const RenderOptions& o, Image& into) {
            kept.drawer.draw_kept(kept.particles, geometry, s.input.periodic, colour_options(s, palettes), o, into,
                                  report, console);
          },
          options, s.camera.xres, s.camera.yres);
  } catch (const UserError&) {
    throw;  // the user's to mend (a Btile too large, say): the host's stages would say the same
  } catch (const std::runtime_error& e) {
    return e.what();  // out of GPU memory, say
  }
  return "";
}

// With the GPU drawing, the particles are copied to it (or kept there from before) and projected,
// coloured, ordered and drawn there. False: the view is for the CPU's stages (no copy, or the GPU
// failed, here or on another process: its copy goes, and the view is drawn again).
bool FrameRun::Steps::draw_from_gpu_copy(GeometryOptions& geometry, bool split, Image& image, RunReport& view_report,
                                         bool first) {
  const std::optional<KeptView> kept = copy_to_gpu(geometry, split);
  if (!kept) return false;
  clock.done("to_gpu");  // the particles copied up (nothing when kept from before)
  std::string failure;
  agreed([&] { failure = draw_kept(*kept, geometry, split, image); });
  if (!failure.empty())
    console.warning("drawing on the GPU from the particles copied to it failed (" + failure +
                    "): the view is projected, coloured and ordered on the CPU and drawn again, as are the later "
                    "views of these particles");
  if (!every_process(failure.empty())) {
    session.gpu_copies().give_up(kept->key);
    drawn_on_gpu = false;
    report.gpu.reset();
    return false;
  }
  view_report.particles_active = report.gpu->on_gpu + report.gpu->on_host;
  drawn_on_gpu = true;
  clock.done("render");
  add_note(first, true);
  return true;
}

// Projected, coloured and ordered on the CPU, drawn, and combined with the other processes' images.
void FrameRun::Steps::draw_through_cpu(const GeometryOptions& geometry, bool split, bool keep, Image& image,
                                       RunReport& view_report, bool first) {
  const Settings& s = plan.settings;
  ProjectedSplats projected = source->project(geometry, keep);
  view_report.particles_active = projected.splats.size();
  OrderedSplats ordered;
  agreed([&] {
    ColouredSplats coloured = colour_splats(std::move(projected), s, palettes, split, options.tile_size, clock);
    ordered = order_splats(std::move(coloured), s, clock);
  });
  agreed([&] {
    OrderedSplats drawn =
        split ? exchange_draw_order(std::move(ordered), s, *comm, options.tile_size, clock, report.exchange_parts)
              : std::move(ordered);
    const ViewDrawer drawer = renderer.at_render(drawn.splats.size(), console, clock);
    const SplatView splats = drawn.view();
    image = combine->render([&](const RenderOptions& o, Image& into) { drawer.draw(splats, o, into, report, console); },
                            options, s.camera.xres, s.camera.yres);
    drawn = OrderedSplats();  // their memory back before the images are combined
    clock.done("render");
    add_note(first, report.gpu.has_value());
  });
}

void FrameRun::Steps::add_note(bool first_view, bool drew_on_gpu) {
  const std::string note = renderer.note(drew_on_gpu);
  if (!note.empty() && first_view) report.notes.push_back(note);
}

// A quantitative map instead of the picture (splotch/frame/map_frame.h), drawn by every process
// from its particles and written by rank 0.
void FrameRun::Steps::draw_map_view(std::size_t v) {
  const Settings& s = plan.settings;
  MapValues map;
  // (renderer = auto chose the GPU where a driver is loaded: only a GPU that answers is asked)
  const int device = comm ? comm->gpu_index() : 0;
  const int gpu = s.renderer == RendererChoice::cuda && cuda_device_present(nullptr, device) ? device : -1;
  // The particles kept on the GPU (copied there now, or before for another view), as a picture
  // takes them: the map's splats are then made there.
  const std::optional<KeptView> kept = [&]() -> std::optional<KeptView> {
    if (gpu < 0 || source->particles().colour[0].size() != source->particles().size()) return std::nullopt;
    GeometryOptions geometry = geometry_options(s, views[v].camera);
    std::optional<KeptView> copy = copy_to_gpu(geometry, false);
    if (copy) clock.done("to_gpu");
    return copy;
  }();
  agreed(
      [&] { map = draw_map(s, views[v].camera, source->particles(), comm, gpu, kept ? &kept->particles : nullptr); });
  clock.done("render");
  report.renderer =
      map.on_gpu ? (map.from_kept ? "cuda (map, from the particles on the GPU)" : "cuda (map)") : "host (map)";
  if (!map.gpu_failure.empty() && v == 0)
    console.warning("the map is drawn on the host: the GPU could not draw it (" + map.gpu_failure +
                    "); renderer = host says so without trying the GPU");
  const std::uint64_t drawn = comm ? comm->sum(std::uint64_t(source->particles().size())) : source->particles().size();
  report.particles_active = std::max<std::uint64_t>(report.particles_active, drawn);
  agreed([&] {
    if (comm && !comm->root()) return;
    view_settings.camera = views[v].camera;
    view_settings.output.path = views[v].path;
    if (frame.keep_pictures) {
      const Palette* palette = palettes.at(0).get();
      maps.push_back(
          {map_record(params, view_settings, map, source->particles()),
           palette && frame.map_figures ? map_figure_of(view_settings, map, source->particles(), *palette) : Image8()});
    } else {
      write_map(params, view_settings, map, source->particles(), palettes.at(0).get());
    }
    if (v == 0)
      for (const std::string& n : map_notes(s, map)) report.notes.push_back(n);
    clock.done("write");
  });
}

void FrameRun::Steps::draw_view(std::size_t v) {
  if (plan.settings.map.mode != MapMode::none) {
    draw_map_view(v);
    return;
  }
  view_settings.camera = views[v].camera;
  view_settings.output.path = views[v].path;
  RunReport view_report;  // this view's counts, summed over the processes by the combine
  Image image(0, 0);
  GeometryOptions geometry = geometry_options(plan.settings, views[v].camera);
  const bool split = combine->splits_draw_order();
  if (!draw_from_gpu_copy(geometry, split, image, view_report, v == 0))
    draw_through_cpu(geometry, split, v + 1 < views.size(), image, view_report, v == 0);
  finish_view(v, image, view_report);
}

// The view's images combined, and its picture finished by rank 0; the others hear of a failure
// there before the next view.
void FrameRun::Steps::finish_view(std::size_t v, Image& image, RunReport& view_report) {
  const Settings& s = plan.settings;
  view_report.renderer = report.renderer;
  view_report.gpu = report.gpu;
  const bool root = combine->combine(image, view_report, clock);
  if (v == 0) report.processes = view_report.processes;  // the processes and their GPUs, said once
  // The report's count: the most in any one view (each view's is in the note below).
  report.particles_active = std::max(report.particles_active, view_report.particles_active);
  in_view += (v ? ", " : "") + views[v].prefix + " " + std::to_string(view_report.particles_active);
  agreed([&] {
    if (!root) return;
    if (s.camera.dome) black_outside_dome(image);
    const double exposure = finish_picture(image, view_settings, palettes, view_report.particles_active > 0, ranges,
                                           params, report.notes, console);
    if (s.exposure.mode == Exposure::Mode::automatic && exposure != 1.0) {
      view_settings.exposure = {Exposure::Mode::factor, exposure};
      if (s.exposure.by_default && v == 0) report.default_exposure = exposure;
    }
    clock.done("post");
    if (frame.keep_pictures)
      pictures.push_back({std::move(image), ranges});
    else
      write_picture(params, view_settings, image, ranges);
    clock.done("write");
  });
}

RunReport FrameRun::Steps::end() {
  if (comm && !comm->root()) return report;
  end_report(report, clock, params, frame, console);
  return report;
}

FrameRun::FrameRun(ParamFile& params, Console& console, RenderSession& session, const FrameOptions& frame)
    : steps_(std::make_unique<Steps>(params, console, session, frame)) {}

FrameRun::~FrameRun() = default;

const FramePlan& FrameRun::plan() const { return steps_->plan; }

std::optional<SnapshotLoaded> FrameRun::load(std::unique_ptr<ParticleSource> given) {
  Steps& f = *steps_;
  if (f.finished || f.palette_only || f.source) return std::nullopt;
  const Settings& s = f.plan.settings;
  f.source =
      given ? std::move(given) : particle_source(f.plan, f.session.cache(), f.session.gpu_copies(), f.comm, f.console);
  f.renderer.before_read(s, f.renderer.wants_particle_count(s) ? f.source->particles_to_read() : std::nullopt);
  // The processes' images meet in memory of the node (splotch/mpi/comm.h): readied while reading.
  if (f.comm)
    f.comm->prepare_reduction((s.render.a_eq_e ? 3 : 6) * std::size_t(s.camera.xres) * std::size_t(s.camera.yres),
                              !s.render.a_eq_e);
  // The settings, the snapshot's headers, the wait for the search for the GPU and (under MPI) the
  // processes' agreement and shared memory: apart from the read, as a process may wait here for
  // the others.
  f.clock.done("plan");
  // Frames dealt out: the node's processes read one after the other, each with all their threads.
  // The turn passes once the particles are read: the copy to the GPU that follows is short, and the
  // GPU's start may still hold it up.
  ReadTurn turn(f.session.read_turns(), f.renderer, f.report.threads);
  if (turn.open()) f.clock.done("turn");
  const std::optional<SnapshotLoaded> loaded = f.source->load(f.clock, f.report);
  turn.pass();
  return loaded;  // (a scene starts its read-ahead now, before the camera is framed)
}

RunReport FrameRun::draw() {
  Steps& f = *steps_;
  if (f.finished) return f.report;
  if (f.palette_only) {
    f.draw_palette();
    return f.end();
  }
  if (!f.source) load();
  f.prepare_views();
  for (std::size_t v = 0; v < f.views.size(); ++v) f.draw_view(v);
  if (f.views.size() > 1) {
    f.report.image_path = f.views[0].path + " ... " + f.views.back().path;
    f.report.notes.push_back(std::to_string(f.views.size()) + " views of one read: particles in view " + f.in_view);
  }
  // A run that drew on the GPU ends without waiting for the release of its particles either.
  if (f.drawn_on_gpu)
    if (std::shared_ptr<void> memory = f.source->take_memory()) f.session.keep_until_end(std::move(memory));
  return f.end();
}

std::vector<KeptPicture> FrameRun::take_pictures() { return std::move(steps_->pictures); }
std::vector<KeptMap> FrameRun::take_maps() { return std::move(steps_->maps); }

RunReport render_frame(ParamFile& params, Console& console, RenderSession& session, const FrameOptions& frame) {
  FrameRun run(params, console, session, frame);
  run.load();
  return run.draw();
}

}  // namespace splotch
