#include "splotch/stages/geometry.h"

#include <omp.h>

#include <cmath>
#include <cstring>

#include "errors/user_error.h"
#include "splotch/splat/projection.h"
#include "splotch/splat/splat_maths.h"
#include "splotch/stages/dome_projection.h"
#include "splotch/util/simd.h"

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
  double ortho_scale;     // f of the orthographic projection
  double xshift, yshift;  // minus the projected offset of `center` (perspective only)
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
void move_block(ParticleArray<float>& v, std::size_t lo, std::size_t dest, std::size_t count) {
  if (!v.empty() && lo != dest) std::memmove(v.data() + dest, v.data() + lo, count * sizeof(float));
}

}  // namespace

CameraFrame camera_frame(const Camera& c) {
  const Vec3 view = c.center - c.lookat;
  if (length(view) == 0.0)
    throw UserError("the camera looks nowhere: center (default: camera) " + describe(c.center) + " equals lookat " +
                    describe(c.lookat) + "; move camera_x/y/z or lookat_x/y/z");
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

void wrap_periodic(ParticleSet& p, Vec3 centre) {
  const double box = p.box_size;
  if (!(box > 0)) return;
  auto wrap = [box](ParticleArray<float>& v, double about) {
    const std::size_t n = v.size();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) v[i] = wrapped(v[i], about, box);
  };
  wrap(p.x, centre.x);
  wrap(p.y, centre.y);
  wrap(p.z, centre.z);
}

namespace {

ProjectionConstants constants_of(const Projection& pr, const GeometryOptions& o) {
  ProjectionConstants k;
  const Vec3 cam = pr.camera, axes[3] = {pr.frame.x_axis, pr.frame.y_axis, pr.frame.z_axis};
  float* dest[3] = {k.ax, k.ay, k.az};
  for (int a = 0; a < 3; ++a) {
    dest[a][0] = float(axes[a].x);
    dest[a][1] = float(axes[a].y);
    dest[a][2] = float(axes[a].z);
  }
  k.cam[0] = float(cam.x);
  k.cam[1] = float(cam.y);
  k.cam[2] = float(cam.z);
  k.res2 = float(pr.res2);
  k.yoff = float(pr.res2 + pr.ycorr);
  k.fovfct = float(pr.fovfct);
  k.ortho = float(pr.ortho_scale);
  k.xshift = pr.perspective ? float(pr.xshift) : 0.0f;
  k.yshift = pr.perspective ? float(pr.yshift) : 0.0f;
  k.zmin = float(pr.zmin);
  k.zmax = float(pr.zmax);
  k.minrad2 = o.minrad_pix * o.minrad_pix;
  k.kernel = float(0.5 * bfak);
  k.preview = o.preview_fraction < 1;
  k.light = float(1 / o.preview_fraction);
  k.shrink = float(std::cbrt(o.preview_fraction));
  k.xres = float(o.camera.xres);
  k.yres = float(o.camera.yres);
  k.perspective = pr.perspective;
  k.dome = o.camera.dome;
  k.dome_scale = float(dome_pixels_per_radian(o.camera.xres, o.camera.dome_aperture_degrees));
  return k;
}

// touches_image() (splotch/splat/projection.h) for a vector of lanes.
template <class F>
auto lanes_touch_image(F X, F Y, F R, const ProjectionConstants& k) {
  using namespace simd;
  auto edge = [](F v) { return min(max(v, F{} - coordinate_limit), F{} + coordinate_limit); };
  return (to_float(truncate(edge(X - R + 1.0f))) < k.xres) & (to_float(truncate(edge(X + R + 1.0f))) > 0.0f) &
         (to_float(truncate(edge(Y - R + 1.0f))) < k.yres) & (to_float(truncate(edge(Y + R + 1.0f))) > 0.0f);
}

// A preview's factor on the intensity of a splat of radius `r` (before the widening to minrad_pix),
// so that its light is 1 / fraction of what it would be at its full render's radius r * shrink.
// Its light is proportional to I r_w^2 / (h rcorr) = I (r / h) sqrt(r^2 + minrad^2), and r / h does
// not change with h: the factor is (1 / fraction) sqrt((r shrink)^2 + minrad^2) / sqrt(r^2 + minrad^2),
// fraction^(-2/3) for wide splats and 1 / fraction for those held at minrad_pix.
// (preview_light() of splotch/splat/projection.h, for lanes.)
template <class F>
F lanes_preview_light(F r, const ProjectionConstants& k) {
  using namespace simd;
  const F small = r * k.shrink;
  return k.light * sqrt(small * small + k.minrad2) / sqrt(r * r + k.minrad2);
}

// Projects the particles at `at` (one float or a vector of lanes) in place: x, y, z, hsml,
// intensity become X, Y, z', r, I; inactive ones get r = 0. Returns the activity mask. The
// arithmetic is project_particle()'s (splotch/splat/projection.h), which the GPU runs.
template <class F>
auto project_at(std::size_t at, ParticleSet& p, F smooth, const ProjectionConstants& k) {
  using namespace simd;
  const F px = load(p.x.data() + at, F{}), py = load(p.y.data() + at, F{}), pz = load(p.z.data() + at, F{});
  const F dx = px - k.cam[0], dy = py - k.cam[1], dz = pz - k.cam[2];
  const F xp = dx * k.ax[0] + dy * k.ax[1] + dz * k.ax[2];
  const F yp = dx * k.ay[0] + dy * k.ay[1] + dz * k.ay[2];
  const F zp = dx * k.az[0] + dy * k.az[1] + dz * k.az[2];
  const auto in_depth = (-zp > k.zmin) & (-zp < k.zmax);
  const F depth = select(in_depth, -zp, F{} + 1.0f);
  const F scale = k.perspective ? k.res2 / (k.fovfct * depth) : F{} + k.ortho;
  const F X = k.res2 + xp * scale + k.xshift, Y = k.yoff + yp * scale + k.yshift;
  const F h = load(p.hsml.data() + at, F{});
  F r = 2.0f * h * scale * smooth;
  const F rcorr = sqrt(r * r + k.minrad2) / r;
  r *= rcorr;
  const auto on_image = lanes_touch_image(X, Y, footprint_factor * r, k);
  const auto keep = in_depth & on_image;
  store(p.x.data() + at, X);
  store(p.y.data() + at, Y);
  store(p.z.data() + at, zp);
  store(p.hsml.data() + at, select(keep, r, F{}));
  F intensity = load(p.intensity.data() + at, F{}) * k.kernel / h / rcorr;
  if (k.preview) intensity *= lanes_preview_light(r / rcorr, k);
  store(p.intensity.data() + at, intensity);
  return keep;
}

// project_at for the dome's fisheye, one particle: the angle from the view direction, theta, is the
// distance from the image centre (dome_scale pixels per radian), and a splat's radius is its
// angular radius, 2 h smooth / distance, on the same scale. The depth is minus the distance, and
// zmin, zmax bound the distance. A splat must touch the fisheye's disc as well as the image.
bool dome_at(std::size_t at, ParticleSet& p, float smooth, const ProjectionConstants& k) {
  const float dx = p.x[at] - k.cam[0], dy = p.y[at] - k.cam[1], dz = p.z[at] - k.cam[2];
  const float xp = dx * k.ax[0] + dy * k.ax[1] + dz * k.ax[2];
  const float yp = dx * k.ay[0] + dy * k.ay[1] + dz * k.ay[2];
  const float zp = dx * k.az[0] + dy * k.az[1] + dz * k.az[2];
  const float across = std::sqrt(xp * xp + yp * yp), distance = std::sqrt(across * across + zp * zp);
  const bool in_depth = distance > k.zmin && distance < k.zmax;
  const float rho = std::atan2(across, -zp) * k.dome_scale;  // pixels from the centre
  const float X = k.res2 + (across > 0 ? xp / across * rho : 0.0f);
  const float Y = k.yoff + (across > 0 ? yp / across * rho : 0.0f);
  const float h = p.hsml[at];
  float r = 2.0f * h * (k.dome_scale / (in_depth ? distance : 1.0f)) * smooth;
  const float rcorr = std::sqrt(r * r + k.minrad2) / r;
  r *= rcorr;
  const float R = footprint_factor * r;
  const bool keep = in_depth && rho - R < k.res2 && touches_image(X, Y, R, k);
  p.x[at] = X;
  p.y[at] = Y;
  p.z[at] = -distance;
  p.hsml[at] = keep ? r : 0.0f;
  p.intensity[at] = p.intensity[at] * k.kernel / h / rcorr;
  if (k.preview) p.intensity[at] *= preview_light(r / rcorr, k);
  return keep;
}

// Projects the particles [lo, hi) in place (see project_at); returns how many are active. Eight
// at a time with vectors (the compiler does not vectorise the plain loop), from `lo`, which the
// callers keep a multiple of the lanes so that every particle takes the same path in either.
std::size_t project_range(ParticleSet& p, std::size_t lo, std::size_t hi, const ProjectionConstants& k,
                          const float* smooth) {
  using namespace simd;
  const std::uint8_t* type = p.type.empty() ? nullptr : p.type.data();
  std::size_t active = 0, i = lo;
  if (k.dome) {
    for (; i < hi; ++i) active += dome_at(i, p, smooth[type ? type[i] : 0], k) ? 1 : 0;
    return active;
  }
  for (; i + lanes <= hi; i += lanes) {
    vfloat sf = splat(smooth[0]);
    if (type)
      for (int l = 0; l < lanes; ++l) sf[l] = smooth[type[i + std::size_t(l)]];
    const vint keep = project_at<vfloat>(i, p, sf, k);
    for (int l = 0; l < lanes; ++l) active += keep[l] ? 1 : 0;
  }
  for (; i < hi; ++i) active += project_at<float>(i, p, smooth[type ? type[i] : 0], k) ? 1 : 0;
  return active;
}

std::size_t project_in_place(ParticleSet& p, const Projection& pr, const GeometryOptions& o) {
  using namespace simd;
  const ProjectionConstants k = constants_of(pr, o);
  const std::size_t n = p.size(), groups = (n + lanes - 1) / lanes;
  std::size_t active = 0;
#pragma omp parallel for schedule(static) reduction(+ : active)
  for (std::size_t g = 0; g < groups; ++g)
    active += project_range(p, g * lanes, std::min(n, (g + 1) * lanes), k, o.smooth_factor.data());
  return active;
}

// Keeps the particles with r > 0, in order.
void drop_inactive(ParticleSet& p) {
  const std::size_t n = p.size();
  ParticleArray<float>* all[] = {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0], &p.colour[1], &p.colour[2]};
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

ProjectionConstants projection_constants(const GeometryOptions& options) {
  return constants_of(make_projection(options.camera), options);
}

Splats project(ParticleSet&& p, const GeometryOptions& options) {
  p.own_all();  // (projected in place: a caller's arrays are not written)
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

namespace {

// Blocks of the copying projection: a multiple of the lanes (see project_range), and small enough
// that a thread's scratch copy stays in its cache.
constexpr std::size_t block_particles = 4096;

// Block `b` of `source`, wrapped into the periodic box about `lookat` when `wrap`, projected in
// the thread's scratch copy; returns how many of its particles are active.
std::size_t project_block(const ParticleSet& source, std::size_t b, bool wrap, Vec3 lookat,
                          const ProjectionConstants& k, const float* smooth, ParticleSet& scratch) {
  const std::size_t lo = b * block_particles, count = std::min(source.size() - lo, block_particles);
  const double box = source.box_size;
  auto copy = [&](const ParticleArray<float>& from, ParticleArray<float>& to, double centre) {
    to.resize(count);
    for (std::size_t i = 0; i < count; ++i) to[i] = wrap ? wrapped(from[lo + i], centre, box) : from[lo + i];
  };
  copy(source.x, scratch.x, lookat.x);
  copy(source.y, scratch.y, lookat.y);
  copy(source.z, scratch.z, lookat.z);
  scratch.hsml.assign(source.hsml.begin() + std::ptrdiff_t(lo), source.hsml.begin() + std::ptrdiff_t(lo + count));
  scratch.intensity.assign(source.intensity.begin() + std::ptrdiff_t(lo),
                           source.intensity.begin() + std::ptrdiff_t(lo + count));
  if (!source.type.empty())
    scratch.type.assign(source.type.begin() + std::ptrdiff_t(lo), source.type.begin() + std::ptrdiff_t(lo + count));
  return project_range(scratch, 0, count, k, smooth);
}

}  // namespace

Splats project(const ParticleSet& source, const GeometryOptions& options, bool wrap) {
  const Projection pr = make_projection(options.camera);
  const ProjectionConstants k = constants_of(pr, options);
  const float* smooth = options.smooth_factor.data();
  wrap = wrap && source.box_size > 0;
  const Vec3 lookat = options.wrap_about();
  const std::size_t n = source.size(), blocks = (n + block_particles - 1) / block_particles;
  bool colours[3];
  for (int c = 0; c < 3; ++c) colours[c] = !source.colour[c].empty();
  // One pass: each thread projects its run of blocks and writes the active particles packed from
  // its run's first place in the splats (room for all); the runs are then closed up, as
  // drop_inactive closes the in-place projection's.
  Splats s;
  ParticleArray<float>* out[] = {&s.x,         &s.y,         &s.depth,     &s.radius,
                                 &s.intensity, &s.colour[0], &s.colour[1], &s.colour[2]};
  for (int a = 0; a < 5; ++a) out[a]->resize(n);
  for (int c = 0; c < 3; ++c)
    if (colours[c]) s.colour[c].resize(n);
  if (!source.type.empty()) s.type.resize(n);
  const int nthreads = omp_get_max_threads();
  std::vector<std::size_t> first(std::size_t(nthreads), 0), kept(std::size_t(nthreads), 0);
#pragma omp parallel num_threads(nthreads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num()), nt = std::size_t(omp_get_num_threads());
    const std::size_t b_lo = blocks * t / nt, b_hi = blocks * (t + 1) / nt;
    std::size_t at = std::min(n, b_lo * block_particles);
    first[t] = at;
    ParticleSet scratch;
    for (std::size_t b = b_lo; b < b_hi; ++b) {
      project_block(source, b, wrap, lookat, k, smooth, scratch);
      const std::size_t lo = b * block_particles;
      for (std::size_t i = 0; i < scratch.size(); ++i) {
        if (scratch.hsml[i] == 0.0f) continue;  // inactive (as drop_inactive tells them)
        s.x[at] = scratch.x[i];
        s.y[at] = scratch.y[i];
        s.depth[at] = scratch.z[i];
        s.radius[at] = scratch.hsml[i];
        s.intensity[at] = scratch.intensity[i];
        for (int c = 0; c < 3; ++c)
          if (colours[c]) s.colour[c][at] = source.colour[c][lo + i];
        if (!source.type.empty()) s.type[at] = source.type[lo + i];
        ++at;
      }
    }
    kept[t] = at - first[t];
  }
  std::size_t dest = 0;
  for (std::size_t t = 0; t < std::size_t(nthreads); ++t) {
    for (auto* v : out) move_block(*v, first[t], dest, kept[t]);
    if (!s.type.empty() && first[t] != dest) std::memmove(s.type.data() + dest, s.type.data() + first[t], kept[t]);
    dest += kept[t];
  }
  for (auto* v : out)
    if (!v->empty()) v->resize(dest);
  if (!s.type.empty()) s.type.resize(dest);
  return s;
}

}  // namespace splotch
