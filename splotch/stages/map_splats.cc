#include "splotch/stages/map_splats.h"

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace splotch {
namespace {

// Whether the map is one periodic box across, seen along one of the box's axes (see the header).
bool periodic_map(const MapGeometry& g) {
  if (!(g.box > 0)) return false;
  auto along_axis = [](Vec3 a) {
    const double m = std::max({std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)});
    return m > 1 - 1e-9;
  };
  auto one_box = [&](double side) { return std::fabs(side - g.box) <= 1e-6 * g.box; };
  return along_axis(g.x_axis) && along_axis(g.y_axis) && one_box(g.width) && one_box(g.height);
}

// The splats into `out` from `at` on (or only counted, out null).
struct Emitter {
  MapMode mode;
  MapParticles* out;
  std::size_t at = 0;
  void operator()(const MapSplat& s) {
    if (out) {
      out->x[at] = s.x;
      out->y[at] = s.y;
      out->radius[at] = s.radius;
      out->w0[at] = s.w0;
      if (mode == MapMode::average) out->w1[at] = s.w1;
      if (mode == MapMode::slice) out->z[at] = s.z;
    }
    ++at;
  }
};

}  // namespace

MapSplats MapParticles::view() const {
  MapSplats s;
  s.n = x.size();
  s.x = x.data();
  s.y = y.data();
  s.radius = radius.data();
  s.w[0] = w0.data();
  s.w[1] = w1.empty() ? nullptr : w1.data();
  s.z = z.empty() ? nullptr : z.data();
  return s;
}

MapProjection map_projection(const MapGeometry& g) {
  MapProjection m;
  m.mode = g.mode;
  const Vec3 axes[3] = {g.x_axis, g.y_axis, g.z_axis};
  m.lookat[0] = g.lookat.x, m.lookat[1] = g.lookat.y, m.lookat[2] = g.lookat.z;
  for (int a = 0; a < 3; ++a) m.axis[a][0] = axes[a].x, m.axis[a][1] = axes[a].y, m.axis[a][2] = axes[a].z;
  m.pixel = g.pixel();
  m.light = 1 / g.preview_fraction;
  m.xres = g.xres;
  m.yres = g.yres;
  m.box = g.box > 0 ? g.box : 0;
  m.wraps = periodic_map(g);
  m.w_lo = g.camera_distance - g.zmax;
  m.w_hi = g.camera_distance - g.zmin;
  if (g.depth) {
    m.w_lo = std::max(m.w_lo, -0.5 * *g.depth);
    m.w_hi = std::min(m.w_hi, 0.5 * *g.depth);
  }
  m.cut = m.w_lo > -1e30 || m.w_hi < 1e30;
  return m;
}

MapParticles map_particles(const ParticleSet& p, const MapGeometry& g, const KernelTableView& k) {
  const MapProjection m = map_projection(g);
  const bool wraps = m.wraps;
  const int threads = omp_get_max_threads();
  // Counted first, then written where each thread's part begins: the splats in the particles'
  // order (a static schedule gives each thread the same particles both times), with no copy.
  std::vector<std::size_t> start(std::size_t(threads) + 1, 0);
  MapParticles out;
  out.periodic_map = wraps;
  const long n = long(p.size());
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (int t = 0; t < threads; ++t) start[std::size_t(t) + 1] += start[std::size_t(t)];
      const std::size_t total = start.back();
      for (ParticleArray<float>* a : {&out.x, &out.y, &out.radius, &out.w0}) a->resize(total);
      if (g.mode == MapMode::average) out.w1.resize(total);
      if (g.mode == MapMode::slice) out.z.resize(total);
    }
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      Emitter e{g.mode, pass ? &out : nullptr, pass ? start[std::size_t(t)] : 0};
#pragma omp for schedule(static)
      for (long i = 0; i < n; ++i) {
        const std::size_t at = std::size_t(i);
        const double position[3] = {p.x[at], p.y[at], p.z[at]};
        const double H = g.support_factor[std::size_t(p.type_of(at))] * double(p.hsml[at]);
        map_copies(m, k, position, H, p.intensity[at], p.colour[0].empty() ? 1.0f : p.colour[0][at], e);
      }
      if (pass == 0) start[std::size_t(t) + 1] = e.at;
    }
  }
  return out;
}

}  // namespace splotch
