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

double component(Vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }
Vec3 unit(int a, double s) { return a == 0 ? Vec3{s, 0, 0} : a == 1 ? Vec3{0, s, 0} : Vec3{0, 0, s}; }

// A particle, or its image across a face of the box, with its share of the kernel.
struct Copy {
  Vec3 at;
  double share;
};

struct Emitter {
  const MapGeometry& g;
  const KernelTableView& k;
  bool wraps;
  double w_lo, w_hi;   // the depth range along z_axis, from lookat
  bool cut;            // whether it cuts anything
  MapParticles* out;   // null: only counted
  std::size_t at = 0;  // the next splat's place in `out` (or the count)

  void emit(float X, float Y, float R, float w0, float w1, float z) {
    if (out) {
      out->x[at] = X;
      out->y[at] = Y;
      out->radius[at] = R;
      out->w0[at] = w0;
      if (g.mode == MapMode::average) out->w1[at] = w1;
      if (g.mode == MapMode::slice) out->z[at] = z;
    }
    ++at;
  }

  void add(const Copy& c, double H, float I, float colour) {
    const Vec3 d = c.at - g.lookat;
    const double u = dot(d, g.x_axis), v = dot(d, g.y_axis), w = dot(d, g.z_axis);
    double share = c.share;
    if (g.mode == MapMode::slice) {
      if (!(std::fabs(w) < H)) return;
    } else if (cut) {
      share *= double(marginal_at(k, float((w_hi - w) / H))) - double(marginal_at(k, float((w_lo - w) / H)));
      if (!(share > 0)) return;
    }
    const double pixel = g.pixel(), light = 1 / g.preview_fraction;
    const float X = float(0.5 * g.xres + u / pixel), Y = float(0.5 * g.yres + v / pixel), R = float(H / pixel);
    float w0 = 0, w1 = 0;
    if (g.mode == MapMode::column) {
      w0 = float(double(I) * share * light);
    } else if (g.mode == MapMode::average) {
      w0 = float(double(I) * share * light);
      w1 = float(double(I) * double(colour) * share * light);
    } else {
      w0 = float(double(I) * double(colour) * light);
    }
    const float z = float(w / pixel);
    if (!wraps) {
      if (X + R < 0 || X - R > float(g.xres) || Y + R < 0 || Y - R > float(g.yres)) return;
      emit(X, Y, R, w0, w1, z);
      return;
    }
    // A periodic map: drawn again a map over wherever the support crosses its edge.
    const long x_first = long(std::floor((X - R) / float(g.xres))), x_last = long(std::floor((X + R) / float(g.xres)));
    const long y_first = long(std::floor((Y - R) / float(g.yres))), y_last = long(std::floor((Y + R) / float(g.yres)));
    for (long j = y_first; j <= y_last; ++j)
      for (long i = x_first; i <= x_last; ++i) emit(X - float(i * g.xres), Y - float(j * g.yres), R, w0, w1, z);
  }
};

// Particle i, its images across the box's faces, and each in the map's pixel units, to `e`.
void emit_particle(const ParticleSet& p, long i, const MapGeometry& g, const KernelTableView& k, bool wraps,
                   Emitter& e) {
  const int t = p.type_of(std::size_t(i));
  const double H = g.support_factor[std::size_t(t)] * double(p.hsml[std::size_t(i)]);
  if (!(H > 0)) return;
  Vec3 at{p.x[std::size_t(i)], p.y[std::size_t(i)], p.z[std::size_t(i)]};
  Copy copies[27];
  int count = 1;
  if (g.box > 0) {
    for (int a = 0; a < 3; ++a) {
      const double c = component(at, a), centre = component(g.lookat, a);
      const double moved = c - g.box * std::floor((c - centre) / g.box + 0.5);
      at = at + unit(a, moved - c);
    }
  }
  copies[0] = {at, 1.0};
  if (g.box > 0 && !wraps) {
    // Across each face the kernel crosses: the share beyond it goes to the image over there.
    for (int a = 0; a < 3; ++a) {
      const double c = component(at, a), centre = component(g.lookat, a);
      const double below = double(marginal_at(k, float((centre - 0.5 * g.box - c) / H)));
      const double above = 1 - double(marginal_at(k, float((centre + 0.5 * g.box - c) / H)));
      if (below <= 0 && above <= 0) continue;
      const int before = count;
      for (int m = 0; m < before; ++m) {
        const Copy original = copies[m];
        copies[m].share = original.share * (1 - below - above);
        if (below > 0) copies[count++] = {original.at + unit(a, g.box), original.share * below};
        if (above > 0) copies[count++] = {original.at + unit(a, -g.box), original.share * above};
      }
    }
  }
  const float I = p.intensity[std::size_t(i)], colour = p.colour[0].empty() ? 1.0f : p.colour[0][std::size_t(i)];
  for (int m = 0; m < count; ++m) e.add(copies[m], H, I, colour);
}

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

MapParticles map_particles(const ParticleSet& p, const MapGeometry& g, const KernelTableView& k) {
  const bool wraps = periodic_map(g);
  double w_lo = g.camera_distance - g.zmax, w_hi = g.camera_distance - g.zmin;
  if (g.depth) {
    w_lo = std::max(w_lo, -0.5 * *g.depth);
    w_hi = std::min(w_hi, 0.5 * *g.depth);
  }
  const bool cut = w_lo > -1e30 || w_hi < 1e30;
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
      Emitter e{g, k, wraps, w_lo, w_hi, cut, pass ? &out : nullptr, pass ? start[std::size_t(t)] : 0};
#pragma omp for schedule(static)
      for (long i = 0; i < n; ++i) emit_particle(p, i, g, k, wraps, e);
      if (pass == 0) start[std::size_t(t) + 1] = e.at;
    }
  }
  return out;
}

}  // namespace splotch
