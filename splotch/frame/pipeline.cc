#include "splotch/frame/pipeline.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cuda/cuda_renderer.h"
#include "io/image_writer.h"
#include "io/palette.h"
#include "io/text_file.h"
#include "params/user_error.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/system_memory.h"
#include "splotch/load/particle_count.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/mpi/comm.h"
#include "splotch/mpi/draw_order_split.h"
#include "splotch/render/gpu_render.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/render/host_render_config.h"
#include "splotch/render/host_renderer.h"
#include "splotch/render/renderer_cost.h"
#include "splotch/settings/original_keys.h"
#include "splotch/settings/settings.h"
#include "splotch/stages/camera_placement.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/exposure.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/normalize.h"
#include "splotch/stages/postprocess.h"
#include "splotch/stages/sort.h"
#include "splotch/stages/tile_order.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

// One palette per scalar-colour type (null for vector types), read before the snapshot so that a
// bad palette fails before a long read.
std::vector<std::unique_ptr<Palette>> read_palettes(const Settings& s) {
  std::vector<std::unique_ptr<Palette>> out;
  for (const TypeSettings& t : s.types)
    out.push_back(t.vector_colour ? nullptr : std::make_unique<Palette>(Palette::read(t.palette_path)));
  return out;
}

GeometryOptions geometry_options(const Settings& s) {
  GeometryOptions g;
  g.camera = s.camera;
  g.minrad_pix = s.minrad_pix;
  for (const TypeSettings& t : s.types) g.smooth_factor.push_back(t.smooth_factor);
  return g;
}

std::vector<TypeColour> colour_options(const Settings& s, const std::vector<std::unique_ptr<Palette>>& palettes) {
  std::vector<TypeColour> out;
  for (std::size_t t = 0; t < s.types.size(); ++t)
    out.push_back({s.types[t].vector_colour, palettes[t].get(), s.types[t].brightness});
  return out;
}

PostOptions post_options(const Settings& s, const std::vector<std::unique_ptr<Palette>>& palettes) {
  PostOptions p;
  p.a_eq_e = s.render.a_eq_e;
  p.gamma = s.output.gamma;
  p.contrast = s.output.contrast;
  p.brightness = s.output.brightness;
  if (s.output.colour_bar)
    for (const auto& palette : palettes)
      if (palette) p.colour_bars.push_back(palette.get());
  return p;
}

// What a data-parallel MPI run cannot do yet, said before any reading.
void check_data_parallel(const Settings& s, int processes) {
  const std::string with = " with " + std::to_string(processes) + " MPI processes";
  for (std::size_t n = 0; n < s.input.typed.types.size() && has_particle_types(s.input.format); ++n)
    if (s.input.typed.types[n].size_estimate == SizeEstimate::knn) {
      const std::string N = std::to_string(n);
      throw UserError("size_estimate" + N + " = knn cannot run" + with +
                      ": a process's share of the particles does not hold their neighbours; run it with one "
                      "process, or give the smoothing lengths (size_label" +
                      N + " or size_fix" + N + ")");
    }
}

// What each render type draws of the file, for the report: the file's type numbers are not the
// render types' (ptype1 = 4: stars as type 1).
std::vector<std::string> type_names(const SnapshotRequest& in) {
  std::vector<std::string> names;
  static const char* const tipsy[] = {"gas", "dark", "star"};
  for (const RenderTypeRequest& r : in.typed.types)
    names.push_back(in.format == SnapshotFormat::tipsy && r.file_type >= 0 && r.file_type < 3
                        ? tipsy[r.file_type]
                        : "file type " + std::to_string(r.file_type));
  return names;
}

// The image and its record, used.par, with the data ranges as comments.
void write_picture(const ParamFile& params, const Settings& s, const Image& image, const NormalizedRanges& ranges) {
  write_image(s.output.path, to_8bit(image), s.output.format, s.output.jpeg_quality);
  std::ostringstream used;
  params.write_used(used);
  if (!ranges.data.empty()) used << range_comments(ranges);
  write_text_file(s.output.path + ".used.par", used.str());
}

NormalizedRanges ranges_none() { return {}; }

// The record of one frame of a scene renders that frame alone.
void leave_scene_out_of_record(ParamFile& params) {
  for (const char* key :
       {"scene_file", "scene_start", "scene_incr", "last_scene", "resume", "scene_read_ahead", "mpi_mode"})
    params.leave_out_of_record(key);
}

std::string number_text(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

// The camera placed from the data, into used.par (so that the record shows the same view even of
// other data) and as the report's line.
std::string record_placed_camera(ParamFile& params, const Settings& s) {
  const Camera& c = s.camera;
  const std::string why = std::string("placed from the data (face = ") + face_name(s.placement.face) + ")";
  auto record = [&](const std::string& prefix, Vec3 v) {
    params.resolve(prefix + "_x", number_text(v.x), why);
    params.resolve(prefix + "_y", number_text(v.y), why);
    params.resolve(prefix + "_z", number_text(v.z), why);
  };
  record("camera", c.position);
  params.leave_out_of_record("face");  // the camera says it now; a record that gave both would not use it
  if (!s.placement.lookat_given) record("lookat", c.lookat);
  if (!s.placement.sky_given) record("sky", c.sky);
  auto text = [](Vec3 v) { return "(" + number_text(v.x) + ", " + number_text(v.y) + ", " + number_text(v.z) + ")"; };
  return std::string("no camera given: placed from the particles' bounding box, face = ") +
         face_name(s.placement.face) + ": camera " + text(c.position) + ", lookat " + text(c.lookat) + ", sky " +
         text(c.sky) + " (written to used.par)";
}

void warn_unused(const ParamFile& params, Console& console) {
  std::string typos, originals;
  for (const std::string& k : params.unused_keys()) {
    const std::string why = original_key_without_effect(k.substr(0, k.find(' ')));
    std::string& list = why.empty() ? typos : originals;
    list += (list.empty() ? "" : ", ") + k + (why.empty() ? "" : ": " + why);
  }
  if (!typos.empty()) console.warning("parameters not used by this run (typos?): " + typos);
  if (!originals.empty())
    console.warning("keys of the original Splotch that have no effect here (keep or remove them): " + originals);
}

}  // namespace

RunReport render_frame(ParamFile& params, Console& console, const FrameOptions& frame) {
  Stopwatch clock;
  RunReport report;
  std::optional<GpuStartup> own_gpu;
  std::optional<GpuStartup>& gpu_start = frame.gpu ? *frame.gpu : own_gpu;
  auto stage_done = [&](const char* name) {
    report.stages.push_back({name, clock.lap()});
    if (gpu_start) gpu_start->pace_threads();
  };
  // The stages of loading the snapshot, timed by load_snapshot; what came before them (the
  // settings, which read headers, and the palettes) counts as reading.
  auto loading_done = [&](const LoadedSnapshot& loaded, double before) {
    report.stages.insert(report.stages.end(), loaded.stages.begin(), loaded.stages.end());
    report.stages[0].second += before;
    clock.lap();
    if (gpu_start) gpu_start->pace_threads();
  };
  for (const std::string& w : params.warnings()) console.warning(w);
  // The GPU starts in the background while the CPU stages run. renderer = cuda waits for the
  // search for a device, so that its error comes before a long read; renderer = auto reads the GPU
  // keys as if there were one, starts the GPU only when the particle count in the headers says
  // that it can pay (splotch/render/renderer_cost.h), and learns whether there is one at the render stage.
  const std::string renderer = params.get<std::string>("renderer", "auto");
  const bool automatic = renderer == "auto";
  const bool memory_check = params.get<bool>("memory_check", true);
  if (renderer == "cuda" && !gpu_start) gpu_start.emplace(frame.device);
  report.threads = omp_get_max_threads() + (gpu_start ? gpu_start->threads_borrowed() : 0);
  const Comm* comm = frame.comm && frame.comm->size() > 1 ? frame.comm : nullptr;
  std::string no_gpu;
  std::string input_keys;
  // Work that may fail on some processes of an MPI run only: every process learns of the first
  // failure before the next collective call (splotch/mpi/comm.h).
  auto agreed = [&](auto&& work) { splotch::agreed(comm, "drawing its share of the particles", work); };
  Settings s;
  agreed([&] {  // a process without a GPU of its own fails alone with renderer = cuda
    const bool gpu = renderer == "auto" || (gpu_start && gpu_start->device_present(&no_gpu));
    s = read_settings(params, frame.number, gpu, no_gpu, frame.in_scene, frame.cache ? &input_keys : nullptr);
  });
  for (const std::string& w : s.warnings) console.warning(w);
  for (const std::string& w : s.input.warnings) console.warning(w);
  report.notes = s.input.notes;
  report.renderer = "host";
  report.image_path = s.output.path;
  report.width = s.camera.xres;
  report.height = s.camera.yres;
  if (frame.in_scene) leave_scene_out_of_record(params);
  bool exists = frame.resume && path_exists(s.output.path);
  if (frame.resume && comm) exists = comm->all(exists);  // all render it unless all see it (a node's own disk)
  if (exists) {
    report.skipped = true;
    return report;
  }

  const auto palettes = read_palettes(s);
  if (gpu_start) gpu_start->pace_threads();              // without a GPU, the search for one is over by now
  if (s.input.format == SnapshotFormat::palette_only) {  // the original's show_palette.par: no snapshot
    if (comm && !comm->root()) return report;
    Image image(s.camera.xres, s.camera.yres);
    std::vector<const Palette*> bands;
    for (const auto& palette : palettes)
      if (palette) bands.push_back(palette.get());
    draw_palette_bands(image, bands);
    stage_done("post");
    write_picture(params, s, image, ranges_none());
    stage_done("write");
    report.total_seconds = clock.seconds();
    report.peak_memory_mib = peak_memory_mib();
    if (frame.warn_unused) warn_unused(params, console);
    return report;
  }
  const std::vector<TypeNormalization> normalization = normalizations(s);
  Splats splats;
  NormalizedRanges ranges;
  GeometryOptions geometry = geometry_options(s);
  if (comm) {
    // Data-parallel (DESIGN.md section 6): this process reads and draws its share of every
    // render type; the images are summed on rank 0.
    check_data_parallel(s, comm->size());
    s.input.raw.share = s.input.typed.share = s.input.table.share = ReadShare{comm->rank(), comm->size()};
  }
  // The particles the headers promise (this process's share): whether the run fits in memory,
  // and with renderer = auto, whether starting the GPU can pay. Counted when first needed (a
  // scene's frame that keeps its snapshot and has its renderer needs no header); in an MPI run
  // rank 0 reads the headers for all, as for the read (splotch/load/snapshot_load.cc).
  std::optional<std::optional<std::uint64_t>> counted;
  if (comm) {
    std::vector<std::uint64_t> known = {0, 0};
    if (comm->root())
      if (const std::optional<std::uint64_t> n = particles_to_read(s.input)) known = {1, *n};
    comm->broadcast(known);
    counted = known[0] ? std::optional<std::uint64_t>(known[1]) : std::nullopt;
  }
  auto to_read = [&] {
    if (!counted) counted = particles_to_read(s.input);
    return *counted;
  };
  auto work = [&](double particles) {
    RenderWork w;
    w.particles = particles;
    w.pixels = double(s.camera.xres) * double(s.camera.yres);
    w.a_eq_e = s.render.a_eq_e;
    w.threads = report.threads;
    w.frames = frame.frames;
    return w;
  };
  std::string renderer_note;  // renderer = auto's choice, for the report
  bool note_says_gpu = false;
  if (automatic && s.renderer == RendererChoice::cuda && !gpu_start) {
    // No driver, or the scene's first frame found the GPU would not pay: the host, with no count.
    const bool declined = !gpu_driver_loaded() || (frame.gpu_declined && *frame.gpu_declined);
    const std::optional<std::uint64_t> n = declined ? std::nullopt : to_read();
    if (declined) {
      s.renderer = RendererChoice::host;
    } else if (n) {
      const RendererEstimate e = choose_before_read(work(double(*n)));
      if (!e.gpu) {
        s.renderer = RendererChoice::host;
        renderer_note = describe_choice(e, work(double(*n)), true);
        if (frame.gpu_declined) *frame.gpu_declined = true;
      }
    }
    if (s.renderer == RendererChoice::cuda) gpu_start.emplace(frame.device);
  }
  auto check_memory_before_read = [&](bool keeps_particles) {
    const std::optional<std::uint64_t> n = memory_check ? to_read() : std::nullopt;
    if (!n) return;
    MemoryShape shape;
    shape.pixels = std::size_t(s.camera.xres) * std::size_t(s.camera.yres);
    for (const TypeSettings& t : s.types)
      if (t.vector_colour) shape.fields = 8;
    shape.types = s.input.ptypes > 1;
    shape.a_eq_e = s.render.a_eq_e;
    if (has_particle_types(s.input.format))
      for (const RenderTypeRequest& r : s.input.typed.types) shape.knn |= r.size_estimate == SizeEstimate::knn;
    shape.keeps_particles = keeps_particles;
    const int on_node = comm ? comm->node_size() : 1;
    agreed([&] {
      const std::string w = check_memory(memory_need(*n, shape), *n, available_memory_bytes() / std::size_t(on_node),
                                         on_node, s.input.path);
      if (!w.empty()) console.warning(w);
    });
  };
  // A camera not given is placed from the particles' bounding box (all processes'), once they are
  // read, and recorded in the report and used.par.
  auto place = [&](const ParticleSet& particles) {
    if (!s.placement.from_data) return;
    BoundingBox box = bounding_box(particles);
    if (comm) {
      std::vector<float> lo = {float(box.lo.x), float(box.lo.y), float(box.lo.z)};
      std::vector<float> hi = {float(box.hi.x), float(box.hi.y), float(box.hi.z)};
      comm->min_max(lo, hi);
      box.lo = {lo[0], lo[1], lo[2]};
      box.hi = {hi[0], hi[1], hi[2]};
    }
    place_camera(s.camera, s.placement, box);
    geometry.camera = s.camera;
    report.notes.push_back(record_placed_camera(params, s));
  };
  if (frame.cache && !comm) {
    // A scene: the particles stay as they are for later frames, and the frame projects a copy
    // of the active ones.
    SnapshotCache& cache = *frame.cache;
    const std::string signature = snapshot_signature(input_keys, normalization);
    const LoadedSnapshot* loaded = cache.kept(signature);
    report.reused = loaded != nullptr;
    if (!loaded) {
      loaded = cache.take_read_ahead(signature, console);
      report.read_ahead = loaded != nullptr;
    }
    if (loaded) {
      stage_done("read");  // the wait for a read in the background, if any
    } else {
      cache.clear();  // its memory back before the read
      check_memory_before_read(true);
      const double before = clock.lap();
      loaded = &cache.keep(signature, load_snapshot(s.input, normalization, console));
      loading_done(*loaded, before);
    }
    report.particles_read = loaded->read;
    report.particles_dropped = loaded->dropped;
    ranges = loaded->ranges;
    if (frame.loaded) frame.loaded(signature, loaded->bytes(), loaded->seconds());
    place(loaded->particles);
    splats = project(loaded->particles, geometry, s.input.periodic);
  } else {
    check_memory_before_read(false);
    const double before = clock.lap();
    LoadedSnapshot loaded = comm ? load_snapshot_share(s.input, normalization, *comm, console)
                                 : load_snapshot(s.input, normalization, console);
    loading_done(loaded, before);
    report.particles_read = loaded.read;
    report.particles_dropped = loaded.dropped;
    ranges = loaded.ranges;
    if (comm) {  // what all processes read
      report.particles_read = comm->sum(loaded.read);
      report.particles_dropped = comm->sum(loaded.dropped);
      if (report.particles_read == report.particles_dropped)
        throw UserError("'" + s.input.path + "' holds no particle that can be drawn");
    }
    place(loaded.particles);
    agreed([&] {
      if (s.input.periodic) wrap_periodic(loaded.particles, s.camera.lookat);
      splats = project(std::move(loaded.particles), geometry);
    });
  }
  report.particles_active = splats.size();
  report.ranges = range_lines(ranges, normalization, type_names(s.input));
  // a_eq_e = FALSE with several processes: each draws one range of the draw order
  // (splotch/mpi/draw_order_split.h), and rank 0 composites their layers.
  const bool split = comm && !s.render.a_eq_e;
  RenderOptions render = s.render;
  render.tile_size = host_tile_size(s.camera.xres, s.camera.yres, report.threads);
  std::vector<std::size_t> tile_start, per_type;
  agreed([&] {
    // Screen space is ordered by image tile here, before the colour stage makes three arrays of
    // one (a split orders what it receives instead). Only the draw order needs depth; with a_eq_e
    // its memory serves as scratch space.
    ParticleArray<float> spare;
    if (s.render.a_eq_e) spare.swap(splats.depth);
    // sort_type 0, file order: the keys are the positions before the tiles reorder the splats.
    if (!s.render.a_eq_e && s.sort == SortOrder::none && !split) assign_draw_keys(splats, s.sort);
    if (split)
      per_type = splats_per_type(splats, s.input.ptypes);
    else
      tile_start = order_by_tile(splats, render.tile_size, s.camera.xres, s.camera.yres, spare);
    stage_done("geometry");

    colourize(splats, colour_options(s, palettes), std::move(spare));
    stage_done("colour");

    if (!s.render.a_eq_e && splats.draw_key.empty()) assign_draw_keys(splats, s.sort);  // releases the depth array
    stage_done("sort");
  });

  Image image(0, 0);
  ParticleArray<float> layers;  // a_eq_e = FALSE with several processes: C and T of each pixel
  const std::size_t pixels = std::size_t(s.camera.xres) * std::size_t(s.camera.yres);
  agreed([&] {
    if (split) {
      split_draw_order(splats, per_type, s.sort, *comm);
      tile_start = order_by_tile(splats, render.tile_size, s.camera.xres, s.camera.yres);
      stage_done("exchange");
    }
    // renderer = auto, the GPU started: with the particles in view known, whether it still pays
    // (the rest of its start against what it saves on this frame and the process's later ones).
    if (automatic && s.renderer == RendererChoice::cuda) {
      const RendererCosts costs;
      const double left = gpu_start->over() ? 0 : std::max(0.0, costs.gpu_start - gpu_start->seconds_since_start());
      const RenderWork w = work(double(splats.size()));
      const RendererEstimate e = choose_at_render(w, left, costs);
      if (!e.gpu) s.renderer = RendererChoice::host;
      renderer_note = describe_choice(e, w, false);
      note_says_gpu = e.gpu;
    }
    // What of the GPU's start the CPU stages did not hide is a stage of its own.
    CudaSession* session = nullptr;
    if (s.renderer == RendererChoice::cuda && !gpu_start->device_present()) s.renderer = RendererChoice::host;
    if (s.renderer == RendererChoice::cuda) {
      try {
        session = gpu_start->session();
      } catch (const std::runtime_error& e) {
        if (renderer != "auto") throw;
        if (gpu_start->first_failure())
          console.warning(std::string("the GPU could not be started (") + e.what() + "): rendering on the host");
        s.renderer = RendererChoice::host;
      }
      stage_done("gpu_start");
    }

    SplatView view = view_of(splats);
    view.tile_start = tile_start.data();
    auto draw = [&](const RenderOptions& options, Image& into) {
      if (s.renderer == RendererChoice::cuda) {
        CudaOptions cuda = s.cuda;
        cuda.host = options;
        report.gpu = render_gpu(view, cuda, into, session);
        if (report.gpu->boundary >= 0)
          console.warning("this GPU's shared memory is too small for a Btile with tile_boundary_width = " +
                          std::to_string(cuda.boundary) + ": narrowed to " + std::to_string(report.gpu->boundary) +
                          " (splats with a footprint radius above it render on the CPU; set tile_boundary_width to "
                          "choose)");
        report.renderer = std::string("cuda (") + algorithm_name(cuda.algorithm) + ")";
      } else {
        render_host(view, options, into, console.progress("render"));
      }
      console.end_progress();
    };
    image = Image(s.camera.xres, s.camera.yres);
    draw(render, image);
    if (split) {  // the layer: C and its transmittance exp(-S), S the a_eq_e sum of the same splats
      Image transmittance(s.camera.xres, s.camera.yres);
      RenderOptions sum = render;
      sum.a_eq_e = true;
      draw(sum, transmittance);
      layers.resize(6 * pixels);
#pragma omp parallel for schedule(static)
      for (std::size_t p = 0; p < pixels; ++p)
        for (std::size_t c = 0; c < 3; ++c) {
          layers[6 * p + c] = image.rgb[3 * p + c];
          layers[6 * p + 3 + c] = std::exp(-transmittance.rgb[3 * p + c]);
        }
    }
    splats = Splats();
    stage_done("render");
    // (not when the GPU it chose could not be started: a warning said so)
    if (!renderer_note.empty() && note_says_gpu == report.gpu.has_value()) report.notes.push_back(renderer_note);
  });
  if (comm) {
    Stopwatch reduce_clock;
    if (split) {
      comm->composite_to_root(layers.data(), pixels);
#pragma omp parallel for schedule(static)
      for (std::size_t p = 0; p < pixels; ++p)
        for (std::size_t c = 0; c < 3; ++c) image.rgb[3 * p + c] = layers[6 * p + c];
    } else {
      comm->sum_to_root(image.rgb.data(), image.rgb.size());
    }
    report.particles_active = comm->sum(report.particles_active);
    const std::uint64_t on_gpu = comm->sum(report.gpu ? 1 : 0);  // one GPU per process of a node
    if (on_gpu > 0 && on_gpu < std::uint64_t(comm->size()))
      report.renderer += ", " + std::to_string(on_gpu) + " of " + std::to_string(comm->size()) +
                         " processes on a GPU, the others on the host";
    report.stages.push_back({"reduce", reduce_clock.seconds()});
    clock.lap();
    if (!comm->root()) return report;  // rank 0 finishes the picture
  }
  if (report.particles_active == 0)
    console.warning("no particle is in view: the image will be black (check the camera)");

  // Exposure (with a_eq_e, on the sums), then the picture is checked before its colour bar.
  double suggested = 0;
  if (s.render.a_eq_e) {
    double factor = s.exposure.mode == Exposure::Mode::factor ? s.exposure.factor : 1.0;
    const bool auto_exposure = s.exposure.mode == Exposure::Mode::automatic;
    const double relative = automatic_exposure(image, auto_exposure ? 1 : sample_stride(image));
    if (auto_exposure && relative > 0) {
      factor = double(float(relative));  // a float, so that its 9 digits in used.par give it back exactly
      params.resolve("exposure", number_text(factor), "auto: the 99.5th percentile of the lit pixels at 0.9");
      report.notes.push_back("exposure = auto: every brightness times " + number_text(factor) +
                             " (written to used.par)");
    } else if (!auto_exposure) {
      suggested = relative * factor;
    }
    if (factor != 1.0) scale(image, factor);
  }
  PostOptions post = post_options(s, palettes);
  const std::vector<const Palette*> bars = std::move(post.colour_bars);
  post.colour_bars.clear();
  postprocess(image, post);
  if (report.particles_active > 0) {
    const std::string warning =
        level_warning(measure_levels(image), suggested, s.render.a_eq_e, s.render.gray_absorption);
    if (!warning.empty()) console.warning(warning);
  }
  draw_colour_bars(image, bars);
  stage_done("post");

  write_picture(params, s, image, ranges);
  stage_done("write");

  report.total_seconds = clock.seconds();
  report.peak_memory_mib = peak_memory_mib();
  if (frame.warn_unused) warn_unused(params, console);
  return report;
}

}  // namespace splotch
