#include "splotch/stages/view_region.h"

#include <algorithm>
#include <cmath>

#include "errors/user_error.h"
#include "splotch/splat/splat_maths.h"

namespace splotch {
namespace {

ReadRegion::Plane plane(Vec3 n, Vec3 through, bool kernels = true) {
  n = normalized(n);
  return {{n.x, n.y, n.z}, dot(n, through), kernels};
}

}  // namespace

std::optional<ReadRegion> view_region(const Camera& c, const std::vector<float>& smooth_factor, float minrad_pix,
                                      double preview_fraction) {
  if (c.dome || !c.perspective || length(c.center - c.position) > 0) return std::nullopt;
  CameraFrame f;
  try {
    f = camera_frame(c);
  } catch (const UserError&) { return std::nullopt; }  // (the geometry says what is wrong with the camera)
  const double pi = std::acos(-1.0);
  const double fovfct = std::tan(0.5 * c.fov_degrees * pi / 180.0);
  if (!(fovfct > 0) || !std::isfinite(fovfct)) return std::nullopt;
  // A particle is drawn where its centre's depth -(x - camera) . z_axis lies in (zmin, zmax) and its
  // splat touches the image: |x'| <= fovfct depth (half + margin) / half, x' along the x axis, half
  // the image's half width in pixels; likewise y' with the image's half height.
  const double half = 0.5 * c.xres, margin = footprint_factor * std::max(1.0f, minrad_pix) + 2;
  const double tx = fovfct * (half + margin) / half, ty = fovfct * (0.5 * c.yres + margin) / half;
  const Vec3 p = c.position;
  ReadRegion r;
  // (the depth's bounds are tested on the particles' centres: no kernel reaches across them)
  r.planes.push_back(plane(f.z_axis, p - std::max(0.0, c.zmin) * f.z_axis, false));             // depth > zmin
  if (c.zmax < 1e22) r.planes.push_back(plane(-1.0 * f.z_axis, p - c.zmax * f.z_axis, false));  // depth < zmax
  r.planes.push_back(plane(f.x_axis + tx * f.z_axis, p));
  r.planes.push_back(plane(-1.0 * f.x_axis + tx * f.z_axis, p));
  r.planes.push_back(plane(f.y_axis + ty * f.z_axis, p));
  r.planes.push_back(plane(-1.0 * f.y_axis + ty * f.z_axis, p));
  float smooth = 1;
  for (float s : smooth_factor) smooth = std::max(smooth, s);
  // (a preview's smoothing lengths grow by preview_fraction^(-1/3) after the read)
  r.reach_per_hsml = 2.0 * footprint_factor * smooth * std::pow(std::min(1.0, preview_fraction), -1.0 / 3.0);
  return r;
}

}  // namespace splotch
