#include "splotch/pipeline.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "io/image_writer.h"
#include "io/palette.h"
#include "io/text_file.h"
#include "params/user_error.h"
#include "splotch/colour.h"
#include "splotch/geometry.h"
#include "splotch/gpu_startup.h"
#include "cuda/cuda_renderer.h"
#include "splotch/host_renderer.h"
#include "splotch/normalize.h"
#include "splotch/particle_check.h"
#include "splotch/postprocess.h"
#include "splotch/estimate_hsml.h"
#include "splotch/file_paths.h"
#include "splotch/read_snapshot.h"
#include "splotch/settings.h"
#include "splotch/sort.h"
#include "splotch/tile_order.h"
#include "splotch/host_render_config.h"

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

std::string count_text(std::size_t n, const char* what) { return std::to_string(n) + " " + what; }

void warn_dropped(const DroppedParticles& d, std::size_t read, const std::string& path, Console& console) {
  if (d.total() == 0) return;
  std::string parts;
  auto add = [&](std::size_t n, const char* what) {
    if (n == 0) return;
    if (!parts.empty()) parts += ", ";
    parts += count_text(n, what);
  };
  add(d.bad_position, "with a NaN or infinite position");
  add(d.bad_hsml, "with a zero, negative or non-finite smoothing length");
  add(d.bad_value, "with a NaN or infinite intensity or colour");
  console.warning(std::to_string(d.total()) + " of " + std::to_string(read) + " particles of '" + path +
                  "' skipped: " + parts);
}

std::vector<TypeNormalization> normalizations(const Settings& s) {
  std::vector<TypeNormalization> out;
  for (const TypeSettings& t : s.types) out.push_back(t.normalization);
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

void check_types(const ParticleSet& p, int ptypes, const std::string& path) {
  if (p.type.empty()) return;
  const int highest = *std::max_element(p.type.begin(), p.type.end());
  if (highest >= ptypes)
    throw UserError("'" + path + "' holds particles of type " + std::to_string(highest) + " but ptypes = " +
                    std::to_string(ptypes) + "; raise ptypes");
}

// The input keys and values of a frame: what decides which particles it reads. Found by reading
// the input settings from a copy of the parameters and listing what that looked up.
std::string input_signature(const ParamFile& params) {
  ParamFile probe = params;
  read_input_settings(probe);
  std::ostringstream keys;
  probe.write_used(keys);
  return keys.str();
}

std::string normalization_signature(const std::vector<TypeNormalization>& types) {
  std::string out;
  auto value = [&](const std::optional<float>& v) {
    char text[32];
    std::snprintf(text, sizeof text, " %.9g", v ? double(*v) : 0.0);
    out += v ? text : " -";
  };
  for (const TypeNormalization& t : types) {
    out += "\n" + std::to_string(t.color_log) + std::to_string(t.color_asinh) + std::to_string(t.intensity_log) +
           std::to_string(t.vector_colour);
    value(t.color_min);
    value(t.color_max);
    value(t.intensity_min);
    value(t.intensity_max);
  }
  return out;
}

void warn_unused(const ParamFile& params, Console& console) {
  const std::vector<std::string> unused = params.unused_keys();
  if (unused.empty()) return;
  std::string list;
  for (const std::string& k : unused) list += (list.empty() ? "" : ", ") + k;
  console.warning("parameters not used by this run (typos?): " + list);
}

}  // namespace

RunReport render_frame(ParamFile& params, Console& console, const FrameOptions& frame) {
  Stopwatch clock;
  RunReport report;
  std::optional<GpuStartup> gpu_start;
  auto stage_done = [&](const char* name) {
    report.stages.push_back({name, clock.lap()});
    if (gpu_start) gpu_start->pace_threads();
  };
  for (const std::string& w : params.warnings()) console.warning(w);
  // Before anything else is looked up, so that only the input keys make the signature.
  std::string signature = frame.cache ? input_signature(params) : std::string();
  // The GPU starts in the background while the CPU stages run. renderer = cuda waits for the
  // search for a device, so that its error comes before a long read; renderer = auto reads the GPU
  // keys as if there were one and learns whether there is at the render stage.
  const std::string renderer = params.get<std::string>("renderer", "auto");
  report.threads = omp_get_max_threads();  // before the start-up borrows one
  if (renderer == "cuda" || renderer == "auto") gpu_start.emplace();
  std::string no_gpu;
  const bool gpu = renderer == "auto" || (gpu_start && gpu_start->device_present(&no_gpu));
  Settings s = read_settings(params, frame.number, gpu, no_gpu, frame.in_scene);
  for (const std::string& w : s.warnings) console.warning(w);
  report.renderer = "host";
  report.image_path = s.output.path;
  report.width = s.camera.xres;
  report.height = s.camera.yres;
  if (frame.resume && path_exists(s.output.path)) {
    report.skipped = true;
    return report;
  }

  const auto palettes = read_palettes(s);
  if (gpu_start) gpu_start->pace_threads();  // without a GPU, the search for one is over by now
  ParticleSet particles;
  // The cache keeps normalised particles: the normalisation's keys join the input's.
  const std::vector<TypeNormalization> normalization = normalizations(s);
  if (frame.cache) signature += normalization_signature(normalization);
  if (frame.cache && !frame.cache->signature.empty() && frame.cache->signature == signature) {
    particles = frame.cache->particles;  // the stages after this one change their particles
    report.particles_read = frame.cache->read;
    report.particles_dropped = frame.cache->dropped;
    report.reused = true;
    stage_done("read");
  } else {
    if (frame.cache) *frame.cache = ParticleCache();  // its memory back before the next read
    particles = read_snapshot(s.input, console.progress("read"));
    console.end_progress();
    report.particles_read = particles.size();
    const DroppedParticles dropped = drop_invalid_particles(particles);
    warn_dropped(dropped, report.particles_read, s.input.path, console);
    report.particles_dropped = dropped.total();
    if (particles.size() == 0) throw UserError("'" + s.input.path + "' holds no particle that can be drawn");
    check_types(particles, s.input.ptypes, s.input.path);
    stage_done("read");
    if (needs_hsml_estimate(s.input)) {
      estimate_smoothing_lengths(particles, s.input, console);
      stage_done("hsml");
    }
    normalize(particles, normalization);
    stage_done("normalize");
    if (frame.cache) *frame.cache = ParticleCache{signature, particles, report.particles_read, report.particles_dropped};
  }

  if (s.input.periodic) wrap_periodic(particles, s.camera.lookat);
  Splats splats = project(std::move(particles), geometry_options(s));
  report.particles_active = splats.size();
  if (splats.size() == 0) console.warning("no particle is in view: the image will be black (check the camera)");
  // Screen space is ordered by image tile here, before the colour stage makes three arrays of
  // one. Only the draw order needs depth; with a_eq_e its memory serves as scratch space instead.
  ParticleArray<float> spare;
  if (s.render.a_eq_e) spare.swap(splats.depth);
  RenderOptions render = s.render;
  render.tile_size = host_tile_size(s.camera.xres, s.camera.yres, report.threads);
  const std::vector<std::size_t> tile_start = order_by_tile(splats, render.tile_size, s.camera.xres, s.camera.yres, spare);
  stage_done("geometry");

  colourize(splats, colour_options(s, palettes), std::move(spare));
  stage_done("colour");

  if (!s.render.a_eq_e) assign_draw_keys(splats, s.sort);  // releases the depth array
  stage_done("sort");

  // What of the GPU's start the CPU stages did not hide is a stage of its own.
  std::unique_ptr<CudaSession> session;
  if (s.renderer == RendererChoice::cuda && !gpu_start->device_present()) s.renderer = RendererChoice::host;
  if (s.renderer == RendererChoice::cuda) {
    try {
      session = gpu_start->session();
    } catch (const std::runtime_error& e) {
      if (renderer != "auto") throw;
      console.warning(std::string("the GPU could not be started (") + e.what() + "): rendering on the host");
      s.renderer = RendererChoice::host;
    }
    stage_done("gpu_start");
  }

  Image image(s.camera.xres, s.camera.yres);
  SplatView view = view_of(splats);
  view.tile_start = tile_start.data();
  if (s.renderer == RendererChoice::cuda) {
    CudaOptions cuda = s.cuda;
    cuda.host = render;
    view.tile_start = nullptr;  // the host part is a subset of the splats
    report.gpu = render_cuda(view, cuda, image, session.get());
    if (report.gpu->boundary >= 0)
      console.warning("this GPU's shared memory is too small for a Btile with tile_boundary_width = " +
                      std::to_string(cuda.boundary) + ": narrowed to " + std::to_string(report.gpu->boundary) +
                      " (splats with a footprint radius above it render on the CPU; set tile_boundary_width to choose)");
    report.renderer = std::string("cuda (") + algorithm_name(cuda.algorithm) + ")";
  } else {
    render_host(view, render, image, console.progress("render"));
  }
  console.end_progress();
  splats = Splats();
  session.reset();
  stage_done("render");

  postprocess(image, post_options(s, palettes));
  stage_done("post");

  write_image(s.output.path, to_8bit(image), s.output.format);
  std::ostringstream used;
  params.write_used(used);
  write_text_file(s.output.path + ".used.par", used.str());
  stage_done("write");

  report.total_seconds = clock.seconds();
  report.peak_memory_mib = peak_memory_mib();
  if (frame.warn_unused) warn_unused(params, console);
  return report;
}

}  // namespace splotch
