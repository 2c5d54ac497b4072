// The rendering half of the settings: types, camera, render, renderer and output keys, and
// read_settings, which gathers every problem of both halves into one error
// (splotch/settings/input_settings.cc reads the input keys).
#include "splotch/settings/settings.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "errors/user_error.h"
#include "splotch/settings/settings_keys.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

std::optional<float> optional_float(ParamFile& p, const std::string& key) {
  if (!p.has(key)) return std::nullopt;
  return p.get<float>(key);
}

TypeSettings read_type(ParamFile& p, int t) {
  const std::string n = std::to_string(t);
  TypeSettings s;
  TypeNormalization& tn = s.normalization;
  tn.color_log = p.get<bool>("color_log" + n, false);
  tn.color_asinh = p.get<bool>("color_asinh" + n, false);
  tn.intensity_log = p.get<bool>("intensity_log" + n, false);
  tn.color_min = optional_float(p, "color_min" + n);
  tn.color_max = optional_float(p, "color_max" + n);
  tn.intensity_min = optional_float(p, "intensity_min" + n);
  tn.intensity_max = optional_float(p, "intensity_max" + n);
  if (tn.color_min && tn.color_max && *tn.color_min > *tn.color_max)
    p.reject(at(p, "color_min" + n) + " is larger than color_max" + n);
  if (tn.intensity_min && tn.intensity_max && *tn.intensity_min > *tn.intensity_max)
    p.reject(at(p, "intensity_min" + n) + " is larger than intensity_max" + n);
  s.vector_colour = tn.vector_colour = p.get<bool>("color_is_vector" + n, false);
  if (p.has("map")) {  // a map's values are as the file holds them (splotch/settings/map_settings.cc)
    tn = TypeNormalization{};
    tn.as_read = true;
    s.vector_colour = false;
  }
  if (!s.vector_colour && p.has("map") && !p.has("palette" + n)) {
    // A map's figure goes through palette0 (the project's fire when none is given); the other
    // types' palettes are not used.
    s.palette_path = project_palette_directory() + "fire.pal";
  } else if (!s.vector_colour) {
    if (!p.has("palette" + n))
      p.reject(p.name() + ": palette" + n + " is missing" + p.typo_hint("palette" + n) + ": type " + n +
               " has scalar colours, which need a palette: a .pal file, or a name of the project's (fire, ice, "
               "temperature, bluered, grey)");
    else
      s.palette_path = palette_path(p, "palette" + n);
  }
  s.brightness = p.get<float>("brightness" + n, 1.0f);
  if (!(s.brightness >= 0) || !std::isfinite(s.brightness))
    p.reject(at(p, "brightness" + n) + " = " + p.get<std::string>("brightness" + n) +
             " must be a finite number from 0 (0 hides the type)");
  s.smooth_factor = p.get<float>("smooth_factor" + n, 1.0f);
  if (!(s.smooth_factor > 0)) p.reject(at(p, "smooth_factor" + n) + " must be positive");
  return s;
}

// A coordinate: inf passes the number parser but places nothing anywhere.
double finite(ParamFile& p, const std::string& key, double v) {
  if (std::isfinite(v)) return v;
  p.reject(at(p, key) + " = " + p.get<std::string>(key) + " must be a finite number");
  return 0;
}
Vec3 vec3(ParamFile& p, const std::string& prefix) {
  const std::string x = prefix + "_x", y = prefix + "_y", z = prefix + "_z";
  return {finite(p, x, p.get<double>(x)), finite(p, y, p.get<double>(y)), finite(p, z, p.get<double>(z))};
}
Vec3 vec3(ParamFile& p, const std::string& prefix, Vec3 fallback) {
  const std::string x = prefix + "_x", y = prefix + "_y", z = prefix + "_z";
  return {finite(p, x, p.get<double>(x, fallback.x)), finite(p, y, p.get<double>(y, fallback.y)),
          finite(p, z, p.get<double>(z, fallback.z))};
}

// An undefined view direction or sky is an error naming the camera's keys.
void check_camera(ParamFile& p, const Camera& c) {
  try {
    camera_frame(c);
  } catch (const UserError& e) { p.reject(p.origin(p.has("camera_x") ? "camera_x" : "face") + ": " + e.what()); }
}

// The image's size, which the camera needs and a palette image (simtype -1) too.
void read_image_size(ParamFile& p, Camera& c) {
  const int max_side = 65535;  // the TGA header's limit, and 38 GiB of float image already
  auto side = [&](const char* key, int fallback) {
    int v = p.get<int>(key, fallback);
    if (v <= 0 || v > max_side) {
      p.reject(at(p, key) + " = " + std::to_string(v) + " must be a number of pixels from 1 to " +
               std::to_string(max_side));
      v = fallback > 0 && fallback <= max_side ? fallback : 800;
    }
    return v;
  };
  c.xres = side("xres", 800);
  c.yres = side("yres", c.xres);
}

// The camera of the first face of a panorama (splotch/frame/frame_views.h makes the others).
Camera panorama_camera(Camera c) {
  c.lookat = c.position + Vec3{1, 0, 0};
  c.sky = {0, 0, 1};
  c.center = c.position;
  return c;
}

// The camera; without camera_x/y/z it is placed from the data later (splotch/stages/camera_placement.h).
Camera read_camera(ParamFile& p, CameraPlacement& placement) {
  Camera c;
  const bool any_camera = p.has("camera_x") || p.has("camera_y") || p.has("camera_z");
  placement.from_data = !any_camera;
  if (placement.from_data) {
    const std::string face = p.get<std::string>("face", "FRONT");
    if (const auto f = face_of(face))
      placement.face = *f;
    else
      p.reject(at(p, "face") + " = '" + face + "' is not one of FRONT, BACK, LEFT, RIGHT, TOP, BOTTOM");
    placement.lookat_given = p.has("lookat_x") || p.has("lookat_y") || p.has("lookat_z");
    placement.sky_given = p.has("sky_x") || p.has("sky_y") || p.has("sky_z");
    placement.center_given = p.has("center_x") || p.has("center_y") || p.has("center_z");
    // What is given is read (and checked) now; the rest is filled in from the data.
    if (placement.lookat_given) c.lookat = vec3(p, "lookat");
    if (placement.sky_given) c.sky = vec3(p, "sky");
    if (placement.center_given) c.center = vec3(p, "center");
  } else {
    c.position = vec3(p, "camera");
    // A panorama looks along the axes from the camera (its faces' own lookat and sky, as the
    // original's): a lookat given is not needed.
    const bool panorama = p.get<bool>("panorama", false);
    c.lookat = panorama ? vec3(p, "lookat", c.position) : vec3(p, "lookat");
    c.sky = vec3(p, "sky", {0, 0, 1});
    // Read only when given: its default follows the camera, and a record (used.par) that wrote the
    // camera's position as center would hold it there when a scene file moves the camera.
    const bool center_given = p.has("center_x") || p.has("center_y") || p.has("center_z");
    c.center = center_given ? vec3(p, "center", c.position) : c.position;
    if (panorama) c = panorama_camera(c);
  }
  c.fov_degrees = p.get<double>("fov", 45.0);
  if (!(c.fov_degrees > 0 && c.fov_degrees < 180)) {
    p.reject(at(p, "fov") + " = " + p.get<std::string>("fov") + " must lie strictly between 0 and 180 degrees");
    c.fov_degrees = 45;
  }
  c.perspective = p.get<bool>("projection", true);
  c.zmin = p.get<double>("zmin", 0.0);
  c.zmax = p.get<double>("zmax", 1e23);
  if (!(c.zmax > std::max(c.zmin, 0.0)))
    p.reject(at(p, "zmax") + " must be larger than zmin (and than 0): nothing could be seen");
  read_image_size(p, c);
  if (!placement.from_data) check_camera(p, c);
  return c;
}

std::string lower_extension(const std::string& path) {
  std::size_t dot = path.rfind('.'), slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot);
  for (char& ch : e) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return e;
}

ImageFormat format_of_pictype(int pictype, const std::string& where) {
  switch (pictype) {
    case 0: return ImageFormat::tga;
    case 2: return ImageFormat::ppm;
    case 3: return ImageFormat::tga_rle;
    case 4: return ImageFormat::png;
    case 1: throw UserError(where + " = 1 (ASCII PPM) is not supported; use 2 (binary PPM)");
    default:
      throw UserError(where + " = " + std::to_string(pictype) +
                      " is not an image type: use 0 (TGA), 2 (PPM), 3 (TGA run-length) or 4 (PNG)");
  }
}

int read_jpeg_quality(ParamFile& p) {
  const int q = p.get<int>("jpeg_quality", 90);
  if (q >= 1 && q <= 100) return q;
  p.reject(at(p, "jpeg_quality") + " = " + std::to_string(q) + " must be from 1 to 100");
  return 90;
}

int pictype_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::png: return 4;
    case ImageFormat::ppm: return 2;
    case ImageFormat::tga_rle: return 3;
    default: return 0;
  }
}

const char* extension_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::png: return ".png";
    case ImageFormat::ppm: return ".ppm";
    default: return ".tga";
  }
}

OutputSettings read_output(ParamFile& p, int frame, bool in_scene, std::vector<std::string>& warnings) {
  OutputSettings o;
  const std::string outfile = p.get<std::string>("outfile");
  if (outfile.empty()) throw UserError(at(p, "outfile") + " is empty: name the image file");
  const bool pictype_given = p.has("pictype");
  const int pictype = p.get<int>("pictype", 0);
  format_of_pictype(pictype, at(p, "pictype"));  // reject unknown values even when the name decides
  OutputName name = output_name(outfile, pictype, pictype_given, frame, in_scene);
  if (!name.warning.empty())
    warnings.push_back((name.warning.rfind("outfile", 0) == 0 ? p.origin("outfile") : at(p, "pictype")) + ": " +
                       name.warning);
  o.path = name.path;
  o.format = name.format;
  check_writable_directory(o.path, at(p, "outfile"));
  // The record names the image itself (a frame's own, the number in it) and its type, so that it
  // renders this picture alone, from anywhere, without a warning of its own making.
  p.resolve("outfile", absolute_path(o.path), "given as " + outfile);
  if (o.format == ImageFormat::jpeg)
    o.jpeg_quality = read_jpeg_quality(p);
  else
    p.resolve("pictype", std::to_string(pictype_of(o.format)),
              pictype_given ? "the file name's type (given as " + std::to_string(pictype) + ")" : "the image's type");
  // colorbar = labels: the original's bars with their values (splotch/frame/colour_bar_labels.h)
  std::string bar = p.peek("colorbar");
  std::transform(bar.begin(), bar.end(), bar.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (bar == "labels") {
    p.get<std::string>("colorbar");
    o.colour_bar = o.colour_bar_labels = true;
  } else {
    try {
      if (p.has("colorbar")) parse_bool(p.peek("colorbar"), "colorbar");
      o.colour_bar = p.get<bool>("colorbar", false);
    } catch (const UserError&) {
      p.get<std::string>("colorbar");
      p.reject(p.origin("colorbar") + ": colorbar = '" + p.peek("colorbar") +
               "' is none of TRUE, FALSE and labels (the bars with their values)");
    }
  }
  o.gamma = p.get<double>("pic_gamma", 1.0);
  o.contrast = p.get<double>("pic_contrast", 1.0);
  // The original reads this key misspelt as pic_brighness; accept both.
  const bool old_spelling = p.has("pic_brighness") && !p.has("pic_brightness");
  o.brightness = old_spelling ? p.get<double>("pic_brighness") : p.get<double>("pic_brightness", 0.0);
  return o;
}

RendererChoice read_renderer(ParamFile& p, bool gpu_available, const std::string& no_gpu_reason) {
  const std::string r = p.get<std::string>("renderer", "auto");
  if (r == "host") return RendererChoice::host;
  if (r == "auto") return gpu_available ? RendererChoice::cuda : RendererChoice::host;
  if (r == "cuda") {
    if (!gpu_available)
      throw UserError(at(p, "renderer") + " = cuda, but " +
                      (no_gpu_reason.empty() ? std::string("there is no usable GPU") : no_gpu_reason) +
                      "; use renderer = host or auto");
    return RendererChoice::cuda;
  }
  p.reject(at(p, "renderer") + " = '" + r + "' is not one of auto, host, cuda");
  return RendererChoice::host;
}

CudaOptions read_cuda(ParamFile& p) {
  CudaOptions o;
  const std::string algorithm = p.get<std::string>("cuda_algorithm", "btile");
  if (algorithm == "fragment")
    o.algorithm = CudaAlgorithm::fragment;
  else if (algorithm != "btile")
    p.reject(at(p, "cuda_algorithm") + " = '" + algorithm + "' is not one of btile, fragment");
  const std::string large = p.get<std::string>("cuda_large_splats", "gpu");
  if (large == "host")
    o.large_on_gpu = false;
  else if (large != "gpu")
    p.reject(at(p, "cuda_large_splats") + " = '" + large + "' is not one of gpu, host");
  const CudaOptions defaults;
  auto in_range = [&](const char* key, int value, int lo, int hi, int fallback) {
    if (value >= lo && value <= hi) return value;
    p.reject(at(p, key) + " = " + std::to_string(value) + " must be between " + std::to_string(lo) + " and " +
             std::to_string(hi) + " pixels");
    return fallback;
  };
  o.tile_x = in_range("tile_x-side", p.get<int>("tile_x-side", o.tile_x), 1, 256, defaults.tile_x);
  o.tile_y = in_range("tile_y-side", p.get<int>("tile_y-side", o.tile_y), 1, 256, defaults.tile_y);
  // The default boundary gives way on GPUs with less shared memory; one the user chose does not
  // (so it is looked up only when given: used.par must not turn the default into a choice).
  o.narrow_to_fit = !p.has("tile_boundary_width");
  if (!o.narrow_to_fit)
    o.boundary = in_range("tile_boundary_width", p.get<int>("tile_boundary_width"), 0, 128, defaults.boundary);
  // Whether the Btile fits the GPU's shared memory is checked against the GPU itself, at render time.
  const long long chunk = p.get<long long>("gpu_chunk_particles", 0);
  if (chunk < 0)
    p.reject(at(p, "gpu_chunk_particles") + " = " + std::to_string(chunk) +
             " must be positive (or 0: sized from the free GPU memory)");
  o.chunk_particles = std::size_t(std::max(chunk, 0LL));
  return o;
}

}  // namespace

void check_writable_directory(const std::string& image_path, const std::string& where) {
  std::string dir = directory_of(image_path);
  if (dir.empty()) dir = ".";
  if (::access(dir.c_str(), W_OK) != 0)
    throw UserError(where + ": cannot write the image '" + image_path + "': directory '" + dir + "' " +
                    (path_exists(dir) ? "is not writable" : "does not exist"));
}

OutputName output_name(const std::string& outfile, int pictype, bool pictype_given, int frame, bool in_scene) {
  OutputName n;
  const std::string ext = lower_extension(outfile);
  char number[16];
  std::snprintf(number, sizeof number, "%04d", frame);
  if (ext == ".jpg" || ext == ".jpeg") {  // no pictype of the original's: the name alone chooses it
    n.path = in_scene
                 ? outfile.substr(0, outfile.size() - ext.size()) + number + outfile.substr(outfile.size() - ext.size())
                 : outfile;
    n.format = ImageFormat::jpeg;
    return n;
  }
  if (ext == ".png" || ext == ".tga" || ext == ".ppm") {
    n.path = in_scene
                 ? outfile.substr(0, outfile.size() - ext.size()) + number + outfile.substr(outfile.size() - ext.size())
                 : outfile;
    n.format = ext == ".png"   ? ImageFormat::png
               : ext == ".ppm" ? ImageFormat::ppm
               : pictype == 3  ? ImageFormat::tga_rle
                               : ImageFormat::tga;
    const bool fits = (ext == ".png" && pictype == 4) || (ext == ".ppm" && pictype == 2) ||
                      (ext == ".tga" && (pictype == 0 || pictype == 3));
    if (pictype_given && !fits)
      n.warning = "pictype = " + std::to_string(pictype) + " is ignored: the file name ends in " + ext;
    return n;
  }
  n.format = format_of_pictype(pictype, "pictype");
  n.path = outfile + number + extension_of(n.format);
  // A name that ends like another image type (x.gif, x.bmp) meant one; demo.dat or run.045 did not.
  static const char* const other_images[] = {".gif", ".bmp", ".tif", ".tiff", ".webp", ".exr",  ".hdr", ".pgm",
                                             ".pbm", ".pnm", ".jp2", ".jxl",  ".avif", ".heic", ".svg", ".eps",
                                             ".pdf", ".ps",  ".xpm", ".fits", ".fit",  ".fts"};
  if (std::find(std::begin(other_images), std::end(other_images), ext) != std::end(other_images))
    n.warning = "outfile = " + outfile + " ends in " + ext +
                ", which is no image type written here: the picture goes to " + n.path +
                "; name it .png, .jpg, .tga or .ppm to choose the type";
  return n;
}

namespace {

// Work that may reject keys: a problem it throws is gathered with the others, and the reading goes
// on with the next part.
template <class Read>
void gathered(ParamFile& p, Read&& read) {
  try {
    read();
  } catch (const UserError& e) { p.reject(e.what()); }
}

// exposure: FALSE (none), auto (a_eq_e: from the picture) or a factor on every brightness.
// Left out, with no brightnessN either (a first parameter file, which says nothing of how bright),
// it is auto where it can be: a picture neither black nor white, rather than the brightness 1 that
// suits few snapshots' units.
void read_exposure(ParamFile& p, Settings& s) {
  for (std::size_t t = 0; t < s.types.size(); ++t)
    s.exposure.brightness_given = s.exposure.brightness_given || p.has("brightness" + std::to_string(t));
  s.exposure.by_default = !p.has("exposure") && !s.exposure.brightness_given && s.render.a_eq_e;
  const std::string text = p.get<std::string>("exposure", s.exposure.by_default ? "auto" : "FALSE");
  std::string word = text;
  for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (word == "auto") {
    if (s.render.a_eq_e)
      s.exposure.mode = Exposure::Mode::automatic;
    else
      p.reject(at(p, "exposure") +
               " = auto needs a_eq_e = TRUE: with absorption apart from emission the picture "
               "does not scale with one factor; give exposure a number (it multiplies every brightness)");
    return;
  }
  if (word == "false" || word == "f" || word == "no" || word == "n" || word == ".false.") return;
  const char* usage = " is not auto, FALSE or a positive factor (it multiplies every brightness)";
  double factor = 0;
  try {
    factor = parse_real(text, at(p, "exposure"));
  } catch (const UserError&) {
    p.reject(at(p, "exposure") + " = '" + text + "'" + usage);
    return;
  }
  if (!(factor > 0) || !std::isfinite(factor)) {
    p.reject(at(p, "exposure") + " = " + text + usage);
    return;
  }
  s.exposure = {Exposure::Mode::factor, factor};
}

void read_render(ParamFile& p, Settings& s) {
  s.minrad_pix = p.get<float>("minrad_pix", 1.0f);
  const int side = std::max(s.camera.xres, s.camera.yres);
  if (!(s.minrad_pix >= 0))
    p.reject(at(p, "minrad_pix") + " must not be negative");
  else if (!(s.minrad_pix <= float(side)))  // inf, 1e9: every particle would cover the whole picture
    p.reject(at(p, "minrad_pix") + " = " + p.get<std::string>("minrad_pix") + " is wider than the image (" +
             std::to_string(side) +
             " pixels): every particle would cover all of it; it is the smallest radius in "
             "pixels (1 by default)");
  s.render.a_eq_e = p.get<bool>("a_eq_e", true);
  s.render.gray_absorption = p.get<float>("gray_absorption", 0.2f);
  if (!(s.render.gray_absorption >= 0)) p.reject(at(p, "gray_absorption") + " must not be negative");
  read_exposure(p, s);
  const int sort_type = p.get<int>("sort_type", 1);
  if (sort_type < 0 || sort_type > 4)
    p.reject(at(p, "sort_type") + " = " + std::to_string(sort_type) +
             " is not one of 0 (none), 1 (depth), 2 (value), 3 (reversed value), 4 (size)");
  else
    s.sort = SortOrder(sort_type);  // only a_eq_e = FALSE depends on the order
}

}  // namespace

Settings read_settings(ParamFile& p, const SettingsFor& context) {
  Settings s;
  p.begin_gathering();
  try {
    std::optional<InterpolationPoint> point;
    gathered(p, [&] { point = interpolation_point(p); });
    const std::size_t mark = p.lookup_mark();
    gathered(p, [&] {
      s.input = read_snapshot_request(p, context.arrays);
      if (!s.input.nothing_to_draw.empty()) throw UserError(s.input.nothing_to_draw);
      if (s.input.ptypes == 0)
        throw UserError(at(p, "ptypes") +
                        " = 0 draws nothing: bin/splotch prints what the snapshot holds with "
                        "AnalyzeSimulationOnly = TRUE (or --info), and renders with ptypes from 1");
    });
    // (arrays in memory are known by their name, which the caller makes their own)
    if (context.input_keys)
      *context.input_keys = p.looked_up_since(mark) + (context.arrays ? "arrays = " + context.arrays->path + "\n" : "");
    if (point) gathered(p, [&] { s.interpolation = read_interpolation(p, *point, s.input); });
    const int types =
        s.input.format == SnapshotFormat::palette_only ? std::max(1, p.get<int>("ptypes", 1)) : s.input.ptypes;
    for (int t = 0; t < types; ++t) gathered(p, [&] { s.types.push_back(read_type(p, t)); });
    if (s.input.format == SnapshotFormat::palette_only) {
      gathered(p, [&] { read_image_size(p, s.camera); });
    } else {
      gathered(p, [&] { s.camera = read_camera(p, s.placement); });
      gathered(p, [&] { read_map(p, s, context.frame, context.in_scene); });
      gathered(p, [&] { read_views(p, s); });
      gathered(p, [&] { read_render(p, s); });
      gathered(p, [&] {
        s.renderer = read_renderer(p, context.gpu_available, context.no_gpu_reason);
        if (s.renderer == RendererChoice::cuda) s.cuda = read_cuda(p);
        // Its other values drew the same picture no faster, and are gone (cuda/btile_renderer.cu).
        if (p.has("btile_writes") && p.get<std::string>("btile_writes") != "atomics")
          s.warnings.push_back(at(p, "btile_writes") + " = " + p.peek("btile_writes") +
                               " is no longer offered: a Btile is added to the picture with atomics, which drew "
                               "the same picture as fast or faster (docs/performance.md); leave the key out");
      });
    }
    if (!s.map.data_file) gathered(p, [&] { s.output = read_output(p, context.frame, context.in_scene, s.warnings); });
    gathered(p, [&] {  // before any reading, not after the render
      if (s.map.data_file) return;
      const std::string problem = image_size_problem(s.output.format, s.camera.xres, s.camera.yres);
      if (!problem.empty()) throw UserError(at(p, "outfile") + " = " + s.output.path + ": " + problem);
    });
  } catch (...) {
    p.end_gathering(false);
    throw;
  }
  p.end_gathering();
  // With a_eq_e the factor scales the summed picture (the same, as the sums are linear in the
  // brightnesses); otherwise the brightnesses themselves.
  if (s.exposure.mode == Exposure::Mode::factor && !s.render.a_eq_e)
    for (TypeSettings& t : s.types) t.brightness = float(double(t.brightness) * s.exposure.factor);
  return s;
}

std::vector<TypeNormalization> normalizations(const Settings& s) {
  std::vector<TypeNormalization> out;
  for (const TypeSettings& t : s.types) out.push_back(t.normalization);
  return out;
}

}  // namespace splotch
