#include "splotch/geometry.h"

#include <cmath>
#include <cstring>
#include <omp.h>

#include "params/user_error.h"

namespace splotch {
namespace {

const double pi = 3.14159265358979323846;
// The original's "classic" normalisation constant, 0.5 pi^(-5/6) (about 0.19261).
const double bfak = 0.5 * std::pow(pi, -5.0 / 6.0);

std::string describe(Vec3 v) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "(%g, %g, %g)", v.x, v.y, v.z);
  return buf;
}

// Everything the per-particle projection needs, worked out once.
struct Projection {
  CameraFrame frame;
  Vec3 camera;
  double res2, ycorr, fovfct;
  double ortho_scale;      // f of the orthographic projection
  double xshift, yshift;   // minus the projected offset of `center` (perspective only)
  bool perspective;
  double zmin, zmax;
};

Projection make_projection(const Camera& c) {
  Projection p;
  p.frame = camera_frame(c);
  p.camera = c.position;
  p.res2 = 0.5 * c.xres;
  p.ycorr = 0.5 * (c.yres - c.xres);
  p.fovfct = std::tan(0.5 * c.fov_degrees * pi / 180.0);
  p.ortho_scale = p.res2 / (p.fovfct * length(c.center - c.lookat));
  const Vec3 offset = c.center - c.position;
  p.xshift = -p.ortho_scale * dot(offset, p.frame.x_axis);
  p.yshift = -p.ortho_scale * dot(offset, p.frame.y_axis);
  p.perspective = c.perspective;
  p.zmin = c.zmin < 0 ? 0 : c.zmin;
  p.zmax = c.zmax;
  return p;
}

// Compacts the arrays of one thread's share [lo, lo + count) to [dest, dest + count).
void move_block(std::vector<float>& v, std::size_t lo, std::size_t dest, std::size_t count) {
  if (!v.empty() && lo != dest) std::memmove(v.data() + dest, v.data() + lo, count * sizeof(float));
}

}  // namespace

CameraFrame camera_frame(const Camera& c) {
  const Vec3 view = c.center - c.lookat;
  if (length(view) == 0.0)
    throw UserError("the camera looks nowhere: center (default: camera) " + describe(c.center) +
                    " equals lookat " + describe(c.lookat) + "; move camera_x/y/z or lookat_x/y/z");
  if (length(c.sky) == 0.0) throw UserError("sky_x/y/z is the zero vector; give the up direction, e.g. sky_z = 1");
  CameraFrame f;
  f.z_axis = normalized(view);
  const Vec3 x = cross(normalized(c.sky), f.z_axis);
  if (length(x) < 1e-9)
    throw UserError("sky " + describe(c.sky) + " is parallel to the view direction " + describe(f.z_axis) +
                    "; choose a sky vector (sky_x/y/z) across the line of sight");
  f.x_axis = normalized(x);
  f.y_axis = cross(f.z_axis, f.x_axis);
  return f;
}

void wrap_periodic(ParticleSet& p, Vec3 lookat) {
  const double box = p.box_size;
  if (!(box > 0)) return;
  auto wrap = [box](std::vector<float>& v, double centre) {
    const std::size_t n = v.size();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      double d = v[i] - centre;
      if (d > 0.5 * box || d < -0.5 * box) v[i] = float(v[i] - box * std::floor(d / box + 0.5));
    }
  };
  wrap(p.x, lookat.x);
  wrap(p.y, lookat.y);
  wrap(p.z, lookat.z);
}

Splats project(ParticleSet&& p, const GeometryOptions& options) {
  const Projection pr = make_projection(options.camera);
  const int xres = options.camera.xres, yres = options.camera.yres;
  const double minrad2 = double(options.minrad_pix) * options.minrad_pix;
  const std::size_t n = p.size();
  std::vector<float>* all[] = {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0], &p.colour[1], &p.colour[2]};

  const int nthreads = omp_get_max_threads();
  std::vector<std::size_t> first(nthreads + 1, 0), kept(nthreads, 0);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::size_t lo = n * std::size_t(t) / std::size_t(nt), hi = n * std::size_t(t + 1) / std::size_t(nt);
    first[t] = lo;
    std::size_t k = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      const Vec3 d = Vec3{p.x[i], p.y[i], p.z[i]} - pr.camera;
      const double xp = dot(d, pr.frame.x_axis), yp = dot(d, pr.frame.y_axis), zp = dot(d, pr.frame.z_axis);
      if (!(-zp > pr.zmin && -zp < pr.zmax)) continue;
      double f, X, Y;
      if (pr.perspective) {
        f = -pr.res2 / (pr.fovfct * zp);
        X = pr.res2 + xp * f + pr.xshift;
        Y = pr.res2 + pr.ycorr + yp * f + pr.yshift;
      } else {
        f = pr.ortho_scale;
        X = pr.res2 + xp * f;
        Y = pr.res2 + pr.ycorr + yp * f;
      }
      const double h = p.hsml[i];
      double intensity = p.intensity[i] * 0.5 * bfak / h;
      double r = 2.0 * h * f * options.smooth_factor[std::size_t(p.type_of(i))];
      const double rcorr = std::sqrt(r * r + minrad2) / r;
      r *= rcorr;
      intensity /= rcorr;
      if (footprint(float(X), float(Y), float(r), xres, yres).empty()) continue;
      p.x[k] = float(X);
      p.y[k] = float(Y);
      p.z[k] = float(zp);
      p.hsml[k] = float(r);
      p.intensity[k] = float(intensity);
      for (int c = 0; c < 3; ++c)
        if (!p.colour[c].empty()) p.colour[c][k] = p.colour[c][i];
      if (!p.type.empty()) p.type[k] = p.type[i];
      ++k;
    }
    kept[t] = k - lo;
  }
  // Each thread packed its share to the share's start; close the gaps between the shares.
  std::size_t dest = 0;
  for (int t = 0; t < nthreads; ++t) {
    for (auto* v : all) move_block(*v, first[t], dest, kept[t]);
    if (!p.type.empty() && first[t] != dest) std::memmove(p.type.data() + dest, p.type.data() + first[t], kept[t]);
    dest += kept[t];
  }
  for (auto* v : all)
    if (!v->empty()) v->resize(dest);
  if (!p.type.empty()) p.type.resize(dest);

  Splats s;
  s.x = std::move(p.x);
  s.y = std::move(p.y);
  s.depth = std::move(p.z);
  s.radius = std::move(p.hsml);
  s.intensity = std::move(p.intensity);
  for (int c = 0; c < 3; ++c) s.colour[c] = std::move(p.colour[c]);
  s.type = std::move(p.type);
  return s;
}

}  // namespace splotch
