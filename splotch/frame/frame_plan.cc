#include "splotch/frame/frame_plan.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "errors/user_error.h"
#include "splotch/frame/frame_views.h"
#include "splotch/frame/renderer_decision.h"
#include "splotch/mpi/comm.h"
#include "splotch/stages/view_region.h"
#include "splotch/util/file_paths.h"

namespace splotch {

namespace {

// The region a frame's one picture of a given camera needs, for a snapshot whose files may say
// where their particles lie (HDF5: SWIFT's cells); none for a camera placed from the data, a map,
// several views. Types whose smoothing lengths come from their neighbours are read whole.
std::optional<ReadRegion> picture_region(const Settings& s, const std::vector<TypeNormalization>& normalization,
                                         bool wanted) {
  if (!wanted || s.input.format != SnapshotFormat::hdf5 || s.placement.from_data || s.map.mode != MapMode::none ||
      view_paths(s.views, "").size() > 1 || s.views.panorama)
    return std::nullopt;
  std::vector<float> smooth;
  for (const TypeSettings& t : s.types) smooth.push_back(t.smooth_factor);
  std::optional<ReadRegion> r = view_region(s.camera, smooth, s.minrad_pix, s.input.keep_fraction);
  if (!r) return std::nullopt;
  for (const RenderTypeRequest& t : s.input.typed.types)
    if (t.size_estimate != SizeEstimate::knn) r->file_types.push_back(t.file_type);
  for (const RenderTypeRequest& t : s.input.typed.types)  // (a file type drawn twice, once by knn: whole)
    if (t.size_estimate == SizeEstimate::knn)
      r->file_types.erase(std::remove(r->file_types.begin(), r->file_types.end(), t.file_type), r->file_types.end());
  if (r->file_types.empty()) return std::nullopt;
  if (s.input.periodic) r->wrap_centre = {s.camera.lookat.x, s.camera.lookat.y, s.camera.lookat.z};
  for (std::size_t n = 0; n < s.input.typed.types.size() && n < normalization.size(); ++n) {
    const RenderTypeRequest& t = s.input.typed.types[n];
    const TypeNormalization& k = normalization[n];
    const bool colour = t.colour.label.empty() || (k.color_min && k.color_max);
    const bool intensity = t.intensity.label.empty() || (k.intensity_min && k.intensity_max);
    r->ranges_given = r->ranges_given && colour && intensity;
  }
  return r;
}

}  // namespace

FramePlan plan_frame(ParamFile& params, const FrameOptions& frame, RendererDecision& renderer, const Comm* comm,
                     Console& console, std::vector<std::string>& notes) {
  FramePlan plan;
  plan.memory_check = params.get<bool>("memory_check", true);
  // Work that may fail on some processes only: a process without a GPU of its own fails alone
  // with renderer = cuda (splotch/mpi/comm.h).
  agreed(comm, "drawing its share of the particles", [&] {
    SettingsFor context;
    context.frame = frame.number;
    context.in_scene = frame.in_scene;
    context.gpu_available = renderer.gpu_possible(&context.no_gpu_reason);
    context.input_keys = &plan.input_keys;  // (the name of the snapshot and of its copy on the GPU)
    context.arrays = frame.arrays;
    plan.settings = read_settings(params, context);
  });
  for (const std::string& w : plan.settings.warnings) console.warning(w);
  for (const std::string& w : plan.settings.input.warnings) console.warning(w);
  notes = plan.settings.input.notes;
  if (const double f = plan.settings.input.keep_fraction; f < 1) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "a preview (boost_fraction = %g): about 1 in %.3g particles drawn, chosen by position, each with "
                  "hsml x %.3g and light x %.3g; leave boost_fraction out for the full render",
                  f, 1 / f, std::pow(f, -1.0 / 3.0), 1 / f);
    notes.push_back(text);
  }
  plan.normalization = normalizations(plan.settings);
  plan.region = picture_region(plan.settings, plan.normalization,
                               params.get<bool>("read_region", true) && (!comm || comm->size() == 1));
  return plan;
}

Palettes read_palettes(const Settings& s) {
  Palettes out;
  // (a map written as data has no colours: no palette is read, so none is needed beside the program)
  const bool none = s.map.mode != MapMode::none && s.map.data_file;
  const std::string project = project_palette_directory();
  for (std::size_t n = 0; n < s.types.size(); ++n) {
    const TypeSettings& t = s.types[n];
    if (t.vector_colour || none) {
      out.push_back(nullptr);
      continue;
    }
    if (t.palette_path.rfind(project, 0) == 0 && ::access(project.c_str(), F_OK) != 0)
      throw UserError("the project's palettes (" + project + ") are not beside this program: give palette" +
                      std::to_string(n) + " = the path of a .pal file, or run the bin/splotch of a built checkout");
    out.push_back(std::make_unique<Palette>(Palette::read(t.palette_path)));
  }
  return out;
}

GeometryOptions geometry_options(const Settings& s, const Camera& camera) {
  GeometryOptions g;
  g.camera = camera;
  g.minrad_pix = s.minrad_pix;
  for (const TypeSettings& t : s.types) g.smooth_factor.push_back(t.smooth_factor);
  g.preview_fraction = s.input.keep_fraction;
  // A panorama's faces wrap the box about their common camera, so that each particle is in one.
  if (s.views.panorama) g.wrap_centre = camera.position;
  return g;
}

std::vector<TypeColour> colour_options(const Settings& s, const Palettes& palettes) {
  std::vector<TypeColour> out;
  for (std::size_t t = 0; t < s.types.size(); ++t)
    out.push_back({s.types[t].vector_colour, palettes[t].get(), s.types[t].brightness});
  return out;
}

PostOptions post_options(const Settings& s, const Palettes& palettes) {
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

}  // namespace splotch
