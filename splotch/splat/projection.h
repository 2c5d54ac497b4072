// The projection of one particle (docs/design.md section 4, "Geometry") in the form both the host's
// geometry stage and the GPU's (cuda/device_particles.h) use: the constants worked out once per
// view, in single precision, and the per-particle arithmetic written once for host and device.
// The host's own loop is the SIMD form of project_particle() (splotch/stages/geometry.cc, eight
// lanes at a time); tests/unit/test_geometry.cc checks that the two agree bit for bit (the Makefile keeps
// both compilers from fusing multiplies and adds here).
#pragma once

#include <cmath>

#include "splotch/splat/splat_maths.h"

namespace splotch {

// What projecting one particle needs, in single precision.
struct ProjectionConstants {
  float cam[3], ax[3], ay[3], az[3];
  float res2, yoff, fovfct, ortho, xshift, yshift, zmin, zmax, minrad2, kernel;
  bool preview;
  float light, shrink;  // a preview's: 1 / fraction, and 1 / the hsml's growth
  float xres, yres;
  bool perspective;
  bool dome;
  float dome_scale;  // pixels per radian from the view direction (splotch/stages/dome_projection.h)
};

// A coordinate of a periodic box of side `box` moved by a multiple of it to within box/2 of
// `centre` (in double: a box of 1e5 kpc/h holds positions to a few thousandths).
SPLOTCH_HOST_DEVICE inline float wrapped(float v, double centre, double box) {
  const double d = v - centre;
#ifdef __CUDA_ARCH__
  return d > 0.5 * box || d < -0.5 * box ? float(v - box * floor(d / box + 0.5)) : v;
#else
  return d > 0.5 * box || d < -0.5 * box ? float(v - box * std::floor(d / box + 0.5)) : v;
#endif
}

SPLOTCH_HOST_DEVICE inline float projection_sqrt(float v) {
#ifdef __CUDA_ARCH__
  return sqrtf(v);  // correctly rounded, as std::sqrt (nvcc's default -prec-sqrt=true)
#else
  return std::sqrt(v);
#endif
}

// A particle after the projection: pixel centre, z' (negative in front of the camera), pixel
// radius widened to minrad_pix, and its intensity with the kernel's normalisation; `keep` when it
// lies within [zmin, zmax] and its footprint touches the image.
struct ProjectedParticle {
  float X, Y, zp, r, intensity;
  bool keep;
};

// Whether the footprint (R = 0.75 r) of a splat at (X, Y) touches the image, compared as
// footprint() does after truncation towards zero.
SPLOTCH_HOST_DEVICE inline bool touches_image(float X, float Y, float R, const ProjectionConstants& k) {
  return float(truncate_to_int(X - R + 1.0f))<k.xres&& float(truncate_to_int(X + R + 1.0f))> 0.0f &&
         float(truncate_to_int(Y - R + 1.0f))<k.yres&& float(truncate_to_int(Y + R + 1.0f))> 0.0f;
}

// A preview's factor on the intensity of a splat of radius `r` before the widening (see
// splotch/stages/geometry.cc: its light is 1 / fraction of its full render's).
SPLOTCH_HOST_DEVICE inline float preview_light(float r, const ProjectionConstants& k) {
  const float small = r * k.shrink;
  return k.light * projection_sqrt(small * small + k.minrad2) / projection_sqrt(r * r + k.minrad2);
}

// The perspective or orthographic projection of one particle (not the dome's) with smoothing
// length h, intensity I and its type's smooth_factor.
SPLOTCH_HOST_DEVICE inline ProjectedParticle project_particle(float px, float py, float pz, float h, float I,
                                                              float smooth, const ProjectionConstants& k) {
  const float dx = px - k.cam[0], dy = py - k.cam[1], dz = pz - k.cam[2];
  const float xp = dx * k.ax[0] + dy * k.ax[1] + dz * k.ax[2];
  const float yp = dx * k.ay[0] + dy * k.ay[1] + dz * k.ay[2];
  const float zp = dx * k.az[0] + dy * k.az[1] + dz * k.az[2];
  const bool in_depth = -zp > k.zmin && -zp < k.zmax;
  const float depth = in_depth ? -zp : 1.0f;
  const float scale = k.perspective ? k.res2 / (k.fovfct * depth) : k.ortho;
  ProjectedParticle p;
  p.X = k.res2 + xp * scale + k.xshift;
  p.Y = k.yoff + yp * scale + k.yshift;
  p.zp = zp;
  float r = 2.0f * h * scale * smooth;
  const float rcorr = projection_sqrt(r * r + k.minrad2) / r;
  r *= rcorr;
  p.keep = in_depth && touches_image(p.X, p.Y, footprint_factor * r, k);
  p.r = p.keep ? r : 0.0f;
  p.intensity = I * k.kernel / h / rcorr;
  if (k.preview) p.intensity *= preview_light(r / rcorr, k);
  return p;
}

}  // namespace splotch
