#include "splotch/scene/camera_path.h"

#include <cmath>
#include <cstdio>

#include "errors/user_error.h"

namespace splotch {
namespace {

// `sky` made orthogonal to the view from `camera` to `lookat`, of unit length.
Vec3 upright(Vec3 sky, Vec3 camera, Vec3 lookat) {
  const Vec3 view = normalized(lookat - camera);
  const Vec3 up = sky - dot(sky, view) * view;
  // (also a zero sky, a camera at lookat: no view direction, or not-a-number)
  if (!(length(up) > 1e-9 * length(sky)))
    throw UserError("the sky vector is parallel to the view direction at camera (" + std::to_string(camera.x) + ", " +
                    std::to_string(camera.y) + ", " + std::to_string(camera.z) + "): choose another sky");
  return normalized(up);
}

void check_frames(int frames) {
  if (frames < 2) throw UserError("frames = " + std::to_string(frames) + ": a camera path needs at least 2 frames");
}

// The point at parameter t in [0, 1] of segment k of `p`, linear or Catmull-Rom (the ends
// repeated as their own neighbours).
Vec3 point_on(const std::vector<Vec3>& p, std::size_t k, double t, PathInterpolation how) {
  const Vec3 p1 = p[k], p2 = p[k + 1];
  if (how == PathInterpolation::linear) return p1 + t * (p2 - p1);
  const Vec3 p0 = k > 0 ? p[k - 1] : p1, p3 = k + 2 < p.size() ? p[k + 2] : p2;
  const double t2 = t * t, t3 = t2 * t;
  return 0.5 * ((2.0 * p1) + t * (p2 - p0) + t2 * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) +
                t3 * (3.0 * p1 - p0 - 3.0 * p2 + p3));
}

// Points along the path through `p`, at `frames` even steps of its length (measured on a fine
// sampling of the curve, so that a spline's bends count too).
std::vector<Vec3> even_points(const std::vector<Vec3>& p, int frames, PathInterpolation how) {
  if (p.size() == 1) return std::vector<Vec3>(std::size_t(frames), p[0]);
  constexpr int fine = 256;  // samples per segment
  std::vector<Vec3> samples;
  std::vector<double> at{0.0};
  for (std::size_t k = 0; k + 1 < p.size(); ++k)
    for (int j = (k == 0 ? 0 : 1); j <= fine; ++j) {
      samples.push_back(point_on(p, k, double(j) / fine, how));
      if (samples.size() > 1) at.push_back(at.back() + length(samples.back() - samples[samples.size() - 2]));
    }
  std::vector<Vec3> out;
  std::size_t i = 0;
  for (int f = 0; f < frames; ++f) {
    const double s = at.back() * double(f) / double(frames - 1);
    while (i + 2 < at.size() && at[i + 1] < s) ++i;
    const double span = at[i + 1] - at[i];
    const double t = span > 0 ? (s - at[i]) / span : 0.0;
    out.push_back(samples[i] + std::fmin(std::fmax(t, 0.0), 1.0) * (samples[i + 1] - samples[i]));
  }
  return out;
}

// The point at t in [0, 1] of segment k of a centripetal Catmull-Rom spline through `p` (knots
// spaced by the square root of the distance between points: no loops or overshoot where keys lie
// unevenly, as keyframes marked in flight do); the ends continued straight.
Vec3 centripetal_on(const std::vector<Vec3>& p, std::size_t k, double t) {
  const Vec3 p1 = p[k], p2 = p[k + 1];
  if (!(length(p2 - p1) > 0)) return p1;
  const Vec3 p0 = k > 0 ? p[k - 1] : p1 + (p1 - p2), p3 = k + 2 < p.size() ? p[k + 2] : p2 + (p2 - p1);
  const double d1 = std::sqrt(length(p2 - p1));
  double d0 = std::sqrt(length(p1 - p0)), d2 = std::sqrt(length(p3 - p2));
  if (!(d0 > 1e-9 * d1)) d0 = d1;  // a key repeated: as if the spline came in straight
  if (!(d2 > 1e-9 * d1)) d2 = d1;
  const double t0 = 0, t1 = d0, t2 = t1 + d1, t3 = t2 + d2, u = t1 + t * d1;
  // Barry and Goldman's pyramid: between a and b, at u of the knots [ta, tb].
  auto mix = [u](Vec3 a, Vec3 b, double ta, double tb) {
    return ((tb - u) / (tb - ta)) * a + ((u - ta) / (tb - ta)) * b;
  };
  const Vec3 a1 = mix(p0, p1, t0, t1), a2 = mix(p1, p2, t1, t2), a3 = mix(p2, p3, t2, t3);
  return mix(mix(a1, a2, t0, t2), mix(a2, a3, t1, t3), t1, t2);
}

double angle_between(Vec3 a, Vec3 b) { return std::atan2(length(cross(a, b)), dot(a, b)); }

}  // namespace

std::vector<CameraKey> orbit_path(const CameraKey& start, int frames, double turns) {
  check_frames(frames);
  const Vec3 axis = normalized(start.sky);
  const Vec3 r = start.camera - start.lookat;
  const Vec3 along = dot(r, axis) * axis, radial = r - along;
  const Vec3 side = cross(axis, radial);
  std::vector<CameraKey> out;
  for (int f = 0; f < frames; ++f) {
    const double angle = 2.0 * M_PI * turns * double(f) / double(frames);
    CameraKey k;
    k.lookat = start.lookat;
    k.camera = start.lookat + along + std::cos(angle) * radial + std::sin(angle) * side;
    k.sky = upright(start.sky, k.camera, k.lookat);
    out.push_back(k);
  }
  return out;
}

std::vector<CameraKey> fly_path(const std::vector<Vec3>& cameras, const std::vector<Vec3>& lookats, Vec3 sky,
                                int frames, PathInterpolation interpolation) {
  check_frames(frames);
  if (cameras.size() < 2) throw UserError("a fly path needs at least 2 camera points");
  if (lookats.size() != 1 && lookats.size() != cameras.size())
    throw UserError("a fly path needs 1 lookat point or as many as camera points (" + std::to_string(cameras.size()) +
                    "), not " + std::to_string(lookats.size()));
  const std::vector<Vec3> c = even_points(cameras, frames, interpolation);
  const std::vector<Vec3> l = even_points(lookats, frames, interpolation);
  std::vector<CameraKey> out;
  for (int f = 0; f < frames; ++f)
    out.push_back({c[std::size_t(f)], l[std::size_t(f)], upright(sky, c[std::size_t(f)], l[std::size_t(f)])});
  return out;
}

std::vector<CameraKey> keyframe_path(const std::vector<CameraKey>& keys, int frames) {
  check_frames(frames);
  if (keys.size() < 2) throw UserError("a path through keyframes needs at least 2 of them");
  std::size_t timed = 0;
  for (const CameraKey& k : keys) timed += k.fidx.has_value();
  if (timed != 0 && timed != keys.size())
    throw UserError("a path through time needs every keyframe's fidx (" + std::to_string(timed) + " of " +
                    std::to_string(keys.size()) + " give one)");
  std::vector<Vec3> cameras, lookats, skies;
  for (const CameraKey& k : keys) {
    cameras.push_back(k.camera);
    lookats.push_back(k.lookat);
    skies.push_back(normalized(k.sky));
  }
  // The sky goes from key to key the short way: half a turn or more between two keys is not a
  // roll the path can tell.
  for (std::size_t k = 0; k + 1 < keys.size(); ++k)
    if (!(angle_between(skies[k], skies[k + 1]) < 0.9 * M_PI))
      throw UserError("between keyframes " + std::to_string(k + 1) + " and " + std::to_string(k + 2) +
                      " the sky turns by 162 degrees or more (or is zero): add a keyframe between them");
  // How far the path has moved at fine samples of each segment: the camera's and the lookat's
  // spline lengths together; the frames are spread evenly over it.
  constexpr int fine = 256;
  struct Sample {
    std::size_t segment;
    double t, moved;
  };
  std::vector<Sample> samples{{0, 0.0, 0.0}};
  for (std::size_t k = 0; k + 1 < keys.size(); ++k)
    for (int j = 1; j <= fine; ++j) {
      const double t0 = double(j - 1) / fine, t1 = double(j) / fine;
      const Vec3 c0 = centripetal_on(cameras, k, t0), c1 = centripetal_on(cameras, k, t1);
      const Vec3 l0 = centripetal_on(lookats, k, t0), l1 = centripetal_on(lookats, k, t1);
      // The moves of camera and lookat, and the turn of the view and the roll of the sky as the
      // distance they sweep at lookat: a turn or a roll on the spot gets frames of its own.
      const double turn =
          angle_between(l0 - c0, l1 - c1) + angle_between(centripetal_on(skies, k, t0), centripetal_on(skies, k, t1));
      const double step = length(c1 - c0) + length(l1 - l0) + turn * length(l1 - c1);
      samples.push_back({k, t1, samples.back().moved + std::fmax(step, 1e-12)});
    }
  std::vector<CameraKey> out;
  std::size_t i = 0;
  for (int f = 0; f < frames; ++f) {
    const double s = samples.back().moved * double(f) / double(frames - 1);
    while (i + 2 < samples.size() && samples[i + 1].moved < s) ++i;
    const Sample &a = samples[i], &b = samples[i + 1];
    const double u = std::fmin(std::fmax((s - a.moved) / (b.moved - a.moved), 0.0), 1.0);
    // Within one segment, t between the samples; across a key, b starts the next one.
    const std::size_t k = b.segment;
    const double t = (a.segment == k ? a.t : 0.0) + u * (b.t - (a.segment == k ? a.t : 0.0));
    CameraKey key;
    key.camera = centripetal_on(cameras, k, t);
    key.lookat = centripetal_on(lookats, k, t);
    try {
      key.sky = upright(centripetal_on(skies, k, t), key.camera, key.lookat);
    } catch (const UserError&) {
      throw UserError("between keyframes " + std::to_string(k + 1) + " and " + std::to_string(k + 2) +
                      " the sky turns by 180 degrees or runs along the view: add a keyframe between them");
    }
    // Time goes from key to key evenly in the segment's parameter.
    if (timed) key.fidx = *keys[k].fidx + t * (*keys[k + 1].fidx - *keys[k].fidx);
    out.push_back(key);
  }
  return out;
}

std::vector<CameraKey> zoom_path(const CameraKey& start, int frames, double factor) {
  check_frames(frames);
  if (!(factor > 0)) throw UserError("zoom factor = " + std::to_string(factor) + " must be positive");
  std::vector<CameraKey> out;
  for (int f = 0; f < frames; ++f) {
    const double scale = std::pow(factor, double(f) / double(frames - 1));
    CameraKey k = start;
    k.camera = start.lookat + scale * (start.camera - start.lookat);
    k.sky = upright(start.sky, k.camera, k.lookat);
    out.push_back(k);
  }
  return out;
}

std::string scene_text(const std::vector<CameraKey>& frames) {
  const bool timed = !frames.empty() && frames[0].fidx.has_value();
  std::string out = std::string("camera_x camera_y camera_z lookat_x lookat_y lookat_z sky_x sky_y sky_z") +
                    (timed ? " fidx" : "") + "\n";
  char line[512];
  for (const CameraKey& k : frames) {
    std::snprintf(line, sizeof line, "%.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g", k.camera.x, k.camera.y, k.camera.z,
                  k.lookat.x, k.lookat.y, k.lookat.z, k.sky.x, k.sky.y, k.sky.z);
    out += line;
    if (timed) {
      std::snprintf(line, sizeof line, " %.9g", k.fidx.value_or(0));
      out += line;
    }
    out += "\n";
  }
  return out;
}

}  // namespace splotch
