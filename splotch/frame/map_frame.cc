#include "splotch/frame/map_frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "cuda/map_renderer.h"
#include "errors/user_error.h"
#include "io/image_writer.h"
#include "io/map_writer.h"
#include "io/text_file.h"
#include "splotch/frame/map_figure.h"
#include "splotch/frame/picture.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/host_map.h"
#include "splotch/stages/map_splats.h"

namespace splotch {
namespace {

constexpr double pi = 3.14159265358979323846;

// SWIFT's kernels by the name its HydroScheme writes, with the ratio of support to smoothing
// length its kernel_hydro.h defines (used where the file writes no "Kernel gamma").
struct SwiftKernel {
  const char* name;
  MapKernel kernel;
  double gamma;
};
constexpr SwiftKernel swift_kernels[] = {{"Cubic spline (M4)", MapKernel::cubic, 1.825742},
                                         {"Quintic spline (M6)", MapKernel::quintic, 2.018932},
                                         {"Wendland C2", MapKernel::wendland_c2, 1.936492},
                                         {"Wendland C4", MapKernel::wendland_c4, 2.207940}};

bool along_an_axis(Vec3 a) { return std::max({std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}) > 1 - 1e-9; }

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace

MapKernelChoice choose_map_kernel(const MapSettings& map, const SnapshotUnits& units) {
  MapKernelChoice c;
  std::string kernel_why = "the cubic spline (M4) of " + (units.code.empty() ? std::string("Gadget") : units.code);
  double factor = 1;
  std::string factor_why = "its smoothing lengths are the kernel's support (Gadget's convention)";
  if (units.code == "SWIFT") {
    const SwiftKernel* found = nullptr;
    for (const SwiftKernel& k : swift_kernels)
      if (units.kernel == k.name) found = &k;
    if (found) {
      c.kernel = found->kernel;
      kernel_why = "the file's HydroScheme: " + units.kernel;
    } else {
      kernel_why = units.kernel.empty() ? "SWIFT's default, the cubic spline (the file names no kernel)"
                                        : "the cubic spline: the file's kernel '" + units.kernel +
                                              "' is none of map_kernel's; give map_kernel and map_hsml_factor";
    }
    factor = units.kernel_gamma > 0 ? units.kernel_gamma : found ? found->gamma : 1.825742;
    factor_why = std::string("SWIFT's smoothing lengths h with the support gamma h, gamma = ") + number_text(factor) +
                 (units.kernel_gamma > 0 ? " (the file's Kernel gamma)" : " (SWIFT's for the kernel)");
  } else if (units.code == "Tipsy") {
    factor = 2;
    factor_why = "Gasoline's and ChaNGa's smoothing lengths h with the support 2h";
  } else if (units.code == "Phantom") {
    factor = 2;
    factor_why = "Phantom's smoothing lengths h with the support 2h";
  } else if (units.code == "RAMSES" || units.code == "Enzo") {
    kernel_why = units.code == "RAMSES" ? "RAMSES' cells taken as particles" : "Enzo's cells taken as particles";
    factor_why = "the support twice the cell's side, over which a uniform grid sums flat";
  }
  if (map.kernel) {
    c.kernel = *map.kernel;
    kernel_why = "map_kernel";
  }
  if (map.support_factor) {
    factor = *map.support_factor;
    factor_why = "map_hsml_factor";
  }
  c.support_factor = factor;
  c.why = std::string("kernel: ") + kernel_description(c.kernel) + " (" + kernel_why + "), support " +
          number_text(factor) + " x the smoothing length (" + factor_why + ")";
  return c;
}

MapValues draw_map(const Settings& s, const Camera& camera, const ParticleSet& particles, const Comm* comm, int gpu,
                   DeviceParticles* kept) {
  const MapSettings& m = s.map;
  MapValues out;
  out.kernel = choose_map_kernel(m, particles.units);
  const CameraFrame frame = camera_frame(camera);
  MapGeometry g;
  g.mode = m.mode;
  g.lookat = camera.lookat;
  g.x_axis = frame.x_axis;
  g.y_axis = frame.y_axis;
  g.z_axis = frame.z_axis;
  g.camera_distance = length(camera.center - camera.lookat);
  g.xres = camera.xres;
  g.yres = camera.yres;
  g.box = s.input.periodic ? particles.box_size : 0;
  // By default the width the picture shows at lookat; a periodic box seen along an axis, the box
  // (a map of the whole box that wraps, splotch/stages/map_splats.h).
  g.width = m.width.value_or(2 * std::tan(camera.fov_degrees * pi / 360) * g.camera_distance);
  if (!m.width && g.box > 0 && along_an_axis(g.x_axis) && along_an_axis(g.y_axis) && g.xres == g.yres) g.width = g.box;
  g.height = g.width * g.yres / g.xres;
  g.zmin = camera.zmin;
  g.zmax = camera.zmax;
  g.depth = m.depth;
  g.support_factor.assign(std::max<std::size_t>(1, s.types.size()), out.kernel.support_factor);
  g.preview_fraction = s.input.keep_fraction;
  const MapKernelTables tables = make_kernel_tables(out.kernel.kernel);
  const KernelTableView k = table_view(tables);
  MapSums sums(g.xres, g.yres, m.mode == MapMode::average ? 2 : 1);
  const bool one_support =
      std::all_of(g.support_factor.begin(), g.support_factor.end(), [&](double f) { return f == g.support_factor[0]; });
  if (gpu >= 0 && kept && one_support) {
    try {
      draw_map_cuda_kept(kept->fields(), map_projection(g), g.support_factor[0], tables, sums);
      out.on_gpu = out.from_kept = true;
    } catch (const std::runtime_error& e) {
      out.gpu_failure = e.what();
      for (std::vector<double>& plane : sums.plane) std::fill(plane.begin(), plane.end(), 0.0);
    }
  }
  if (!out.on_gpu) {
    const MapParticles splats = map_particles(particles, g, k);
    if (gpu >= 0) {
      try {
        draw_map_cuda(splats.view(), m.mode, tables, sums, gpu);
        out.on_gpu = true;
        out.gpu_failure.clear();  // (the kept particles' drawer may have failed: these splats did not)
      } catch (const std::runtime_error& e) {
        out.gpu_failure = e.what();
        for (std::vector<double>& plane : sums.plane) std::fill(plane.begin(), plane.end(), 0.0);
      }
    }
    if (!out.on_gpu) draw_map_host(splats.view(), m.mode, k, sums);
  }
  const std::size_t pixels = std::size_t(g.xres) * std::size_t(g.yres);
  if (comm && comm->size() > 1) {  // (in float: each process's sums hold to 1e-7 already)
    std::vector<float> both(pixels * std::size_t(sums.planes()));
    for (int p = 0; p < sums.planes(); ++p)
      for (std::size_t i = 0; i < pixels; ++i) both[std::size_t(p) * pixels + i] = float(sums.plane[p][i]);
    comm->sum_to_root(both.data(), both.size());
    for (int p = 0; p < sums.planes(); ++p)
      for (std::size_t i = 0; i < pixels; ++i) sums.plane[p][i] = double(both[std::size_t(p) * pixels + i]);
  }
  out.xres = g.xres;
  out.yres = g.yres;
  out.pixel = g.pixel();
  const std::string quantity = m.quantity.empty() ? "MASS" : m.quantity[0];
  out.units = map_units(m.mode, quantity, m.weight.empty() ? "MASS" : m.weight[0], particles.units, m.units);
  // Sums per pixel to values: a column's amount over the pixel's area, a slice's per pixel volume.
  const double area = out.pixel * out.pixel;
  const double scale = m.mode == MapMode::column  ? out.units.value / area
                       : m.mode == MapMode::slice ? out.units.value / (area * out.pixel)
                                                  : out.units.value;
  out.values.resize(pixels);
  double total = 0;
  for (std::size_t i = 0; i < pixels; ++i) {
    const double v = m.mode == MapMode::average
                         ? (sums.plane[0][i] != 0 ? sums.plane[1][i] / sums.plane[0][i] : std::nan(""))
                         : sums.plane[0][i];
    total += m.mode == MapMode::average ? sums.plane[0][i] : v;
    out.values[i] = float(v * scale);
  }
  const double pixel_area = out.units.physical ? area * out.units.length * out.units.length : area;
  out.total = m.mode == MapMode::column ? total * scale * pixel_area : total;
  return out;
}

MapFile map_record(const ParamFile& params, const Settings& s, const MapValues& map, const ParticleSet& particles) {
  MapFile f;
  f.xres = map.xres;
  f.yres = map.yres;
  f.values = map.values;
  f.quantity = map.units.quantity;
  f.unit = map.units.value_name;
  f.fits_unit = map.units.fits_unit;
  f.length_unit = map.units.length_name;
  f.physical = map.units.physical;
  f.comoving = map.units.comoving;
  f.scale_factor = map.units.snapshot_scale_factor;
  f.hubble = map.units.hubble;
  f.pixel = map.pixel * map.units.length;
  f.pixel_code = map.pixel;
  const Vec3 c = s.camera.lookat;
  const CameraFrame frame = camera_frame(s.camera);
  for (int a = 0; a < 3; ++a) {
    f.centre[a] = a == 0 ? c.x : a == 1 ? c.y : c.z;
    f.x_axis[a] = a == 0 ? frame.x_axis.x : a == 1 ? frame.x_axis.y : frame.x_axis.z;
    f.y_axis[a] = a == 0 ? frame.y_axis.x : a == 1 ? frame.y_axis.y : frame.y_axis.z;
  }
  f.time = particles.time;
  f.redshift = particles.redshift;
  f.snapshot = s.input.path;
  f.kernel = map.kernel.why;
  const std::string used = used_par_text(params, {});
  for (std::size_t at = 0; at < used.size();) {
    const std::size_t end = used.find('\n', at);
    const std::string line = used.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!line.empty() && line[0] != '#') f.history.push_back(line);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return f;
}

Image8 map_figure_of(const Settings& s, const MapValues& map, const ParticleSet& particles, const Palette& palette) {
  FigureText text;
  text.unit = map.units.value_name;
  text.length_unit = map.units.length_name;
  text.pixel = map.pixel * map.units.length;
  text.redshift = particles.redshift;
  text.time = particles.time;
  const FigureScale scale =
      figure_scale(map.values, s.map.log, s.map.min.value_or(std::nan("")), s.map.max.value_or(std::nan("")));
  return map_figure(map.values, map.xres, map.yres, scale, palette, text);
}

void write_map(const ParamFile& params, const Settings& s, const MapValues& map, const ParticleSet& particles,
               const Palette* palette) {
  if (s.map.data_file)
    write_map_file(s.output.path, s.map.format, map_record(params, s, map, particles));
  else
    write_image(s.output.path, map_figure_of(s, map, particles, *palette), s.output.format, s.output.jpeg_quality);
  write_text_file(s.output.path + ".used.par", used_par_text(params, {}));
}

std::vector<std::string> map_notes(const Settings& s, const MapValues& map) {
  std::vector<std::string> notes;
  notes.push_back("map: " + map.units.quantity + ", " + std::to_string(map.xres) + " x " + std::to_string(map.yres) +
                  " pixels of " + number_text(map.pixel * map.units.length) + " " + map.units.length_name + ", in " +
                  map.units.value_name);
  notes.push_back(map.kernel.why);
  for (const std::string& n : map.units.notes) notes.push_back(n);
  if (s.map.mode == MapMode::column)
    notes.push_back("map: its values times the pixel area sum to " + number_text(map.total) + " (" +
                    map.units.value_name + " times " + map.units.length_name + "^2)");
  return notes;
}

}  // namespace splotch
