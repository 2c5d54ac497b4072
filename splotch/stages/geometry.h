// Geometry stage (docs/design.md section 4): world positions -> pixel coordinates, smoothing lengths
// -> pixel radii, and the "classic" kernel normalisation of the intensity.
//
// Camera frame: z = normalize(center - lookat) (the camera looks along -z), x = normalize(sky x z),
// y = z x x. With d = p - camera, (x', y', z') = (d.x, d.y, d.z); a particle is active only when
// zmin < -z' < zmax. With res2 = xres/2, ycorr = (yres - xres)/2, fovfct = tan(fov/2):
//   perspective:  f = -res2 / (fovfct z'),          X = res2 + x' f + xshift, Y = res2 + ycorr + y' f + yshift
//   orthographic: f = res2 / (fovfct |center - lookat|), X = res2 + x' f,     Y = res2 + ycorr + y' f
// where (xshift, yshift) is minus the projected offset of `center` from the camera (zero by
// default). Then I *= 0.5 bfak / h (bfak = 0.5 pi^(-5/6)), r = 2 h f smooth_factor, and small
// particles are widened: rcorr = sqrt(r^2 + minrad_pix^2) / r, r *= rcorr, I /= rcorr. A particle
// whose footprint (radius 0.75 r) misses the image is dropped.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "io/particle_set.h"
#include "splotch/splat/projection.h"
#include "splotch/stages/splats.h"
#include "splotch/util/vec3.h"

namespace splotch {

struct Camera {
  Vec3 position, lookat, sky{0, 0, 1}, center;  // center defaults to position (set by the caller)
  double fov_degrees = 45;
  bool perspective = true;
  // dome: an azimuthal-equidistant fisheye about the view direction (splotch/stages/dome_projection.h)
  bool dome = false;
  double dome_aperture_degrees = 180;
  double zmin = 0, zmax = 1e23;
  int xres = 800, yres = 800;
};

// The orthonormal camera frame; throws UserError when the view direction is undefined (center ==
// lookat) or the sky vector is parallel to it.
struct CameraFrame {
  Vec3 x_axis, y_axis, z_axis;
};
CameraFrame camera_frame(const Camera& camera);

struct GeometryOptions {
  Camera camera;
  float minrad_pix = 1;
  std::vector<float> smooth_factor;  // per type
  // A preview's share of the particles (splotch/load/preview_subset.h): each splat's light grows by
  // 1 / preview_fraction, its hsml having grown by preview_fraction^(-1/3) already.
  double preview_fraction = 1;
  std::optional<Vec3> wrap_centre;  // a periodic box is wrapped about it (default: the camera's lookat)
  Vec3 wrap_about() const { return wrap_centre.value_or(camera.lookat); }
};

// Moves each coordinate by a multiple of `box_size` so that it lies within box_size/2 of `centre`
// (wrapped(), splotch/splat/projection.h).
void wrap_periodic(ParticleSet& particles, Vec3 centre);

// The view's constants of the per-particle projection, which the GPU's geometry takes
// (cuda/device_particles.h); throws as camera_frame().
ProjectionConstants projection_constants(const GeometryOptions& options);

// Projects, scales and keeps only the active particles (in their original order), in the
// particles' own arrays.
Splats project(ParticleSet&& particles, const GeometryOptions& options);
// The same from particles that stay as they are (the snapshot a scene keeps for its next frame):
// wrapped about options.wrap_centre first when `wrap` (as wrap_periodic), and only the active
// ones copied, so a frame needs no copy of the whole snapshot (the splats' arrays are reserved for
// all, but only the pages the active ones are written to are taken: at most twice theirs).
Splats project(const ParticleSet& particles, const GeometryOptions& options, bool wrap);

}  // namespace splotch
