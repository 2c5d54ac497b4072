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

namespace {

// Projects every particle in place (x, y, z, hsml, intensity become X, Y, z', r, I) and marks
// the inactive ones with r = 0; returns how many are active. No branches, so that it vectorises.
std::size_t project_in_place(ParticleSet& p, const Projection& pr, const GeometryOptions& o) {
  const std::size_t n = p.size();
  float* x = p.x.data();
  float* y = p.y.data();
  float* z = p.z.data();
  float* hsml = p.hsml.data();
  float* intensity = p.intensity.data();
  const std::uint8_t* type = p.type.empty() ? nullptr : p.type.data();
  const float* smooth = o.smooth_factor.data();
  const float res2 = float(pr.res2), yoff = float(pr.res2 + pr.ycorr), fovfct = float(pr.fovfct);
  const float ortho = float(pr.ortho_scale), xshift = pr.perspective ? float(pr.xshift) : 0.0f,
              yshift = pr.perspective ? float(pr.yshift) : 0.0f;
  const float zmin = float(pr.zmin), zmax = float(pr.zmax), minrad2 = o.minrad_pix * o.minrad_pix;
  const float kernel = float(0.5 * bfak);
  const bool perspective = pr.perspective;
  const int xres = o.camera.xres, yres = o.camera.yres;
  const CameraFrame& f = pr.frame;
  const Vec3 cam = pr.camera;
  std::size_t active = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : active)
  for (std::size_t i = 0; i < n; ++i) {
    // The camera offset in double: positions of big boxes are large and close to each other.
    const double dx = double(x[i]) - cam.x, dy = double(y[i]) - cam.y, dz = double(z[i]) - cam.z;
    const float xp = float(dx * f.x_axis.x + dy * f.x_axis.y + dz * f.x_axis.z);
    const float yp = float(dx * f.y_axis.x + dy * f.y_axis.y + dz * f.y_axis.z);
    const float zp = float(dx * f.z_axis.x + dy * f.z_axis.y + dz * f.z_axis.z);
    const bool in_depth = -zp > zmin && -zp < zmax;
    const float scale = perspective ? res2 / (fovfct * (in_depth ? -zp : 1.0f)) : ortho;
    const float X = res2 + xp * scale + xshift, Y = yoff + yp * scale + yshift;
    const float h = hsml[i];
    float r = 2.0f * h * scale * smooth[type ? type[i] : 0];
    const float rcorr = std::sqrt(r * r + minrad2) / r;
    r *= rcorr;
    const float R = 0.75f * r;
    const bool on_image = truncate_to_int(X - R + 1.0f) < xres && truncate_to_int(X + R + 1.0f) > 0 &&
                          truncate_to_int(Y - R + 1.0f) < yres && truncate_to_int(Y + R + 1.0f) > 0;
    const bool keep = in_depth && on_image;
    x[i] = X;
    y[i] = Y;
    z[i] = zp;
    hsml[i] = keep ? r : 0.0f;
    intensity[i] = intensity[i] * kernel / h / rcorr;
    active += keep ? 1 : 0;
  }
  return active;
}

// Keeps the particles with r > 0, in order.
void drop_inactive(ParticleSet& p) {
  const std::size_t n = p.size();
  std::vector<float>* all[] = {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0], &p.colour[1], &p.colour[2]};
  const int nthreads = omp_get_max_threads();
  std::vector<std::size_t> first(std::size_t(nthreads), 0), kept(std::size_t(nthreads), 0);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::size_t lo = n * std::size_t(t) / std::size_t(nt), hi = n * std::size_t(t + 1) / std::size_t(nt);
    first[std::size_t(t)] = lo;
    std::size_t k = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      if (p.hsml[i] == 0.0f) continue;
      for (auto* v : all)
        if (!v->empty()) (*v)[k] = (*v)[i];
      if (!p.type.empty()) p.type[k] = p.type[i];
      ++k;
    }
    kept[std::size_t(t)] = k - lo;
  }
  // Each thread packed its share to the share's start; close the gaps between the shares.
  std::size_t dest = 0;
  for (int t = 0; t < nthreads; ++t) {
    for (auto* v : all) move_block(*v, first[std::size_t(t)], dest, kept[std::size_t(t)]);
    if (!p.type.empty() && first[std::size_t(t)] != dest)
      std::memmove(p.type.data() + dest, p.type.data() + first[std::size_t(t)], kept[std::size_t(t)]);
    dest += kept[std::size_t(t)];
  }
  for (auto* v : all)
    if (!v->empty()) v->resize(dest);
  if (!p.type.empty()) p.type.resize(dest);
}

}  // namespace

Splats project(ParticleSet&& p, const GeometryOptions& options) {
  const Projection pr = make_projection(options.camera);
  if (project_in_place(p, pr, options) < p.size()) drop_inactive(p);
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
