#include "splotch/stages/camera_placement.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace splotch {

std::optional<Face> face_of(const std::string& name) {
  std::string upper = name;
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  const Face faces[] = {Face::front, Face::back, Face::left, Face::right, Face::top, Face::bottom};
  for (Face f : faces)
    if (upper == face_name(f)) return f;
  return std::nullopt;
}

const char* face_name(Face face) {
  switch (face) {
    case Face::back: return "BACK";
    case Face::left: return "LEFT";
    case Face::right: return "RIGHT";
    case Face::top: return "TOP";
    case Face::bottom: return "BOTTOM";
    default: return "FRONT";
  }
}

double bounding_reach(const ParticleSet& p) {
  const std::size_t n = p.size();
  if (p.hsml.size() != n) return 0;
  const float* h = p.hsml.data();
  float reach = 0;
#pragma omp parallel for schedule(static) reduction(max : reach)
  for (std::size_t i = 0; i < n; ++i) reach = std::max(reach, std::isfinite(h[i]) ? h[i] : 0.0f);
  return reach;
}

BoundingBox bounding_box(const ParticleSet& p) {
  const std::size_t n = p.size();
  float lo[3] = {3.4e38f, 3.4e38f, 3.4e38f}, hi[3] = {-3.4e38f, -3.4e38f, -3.4e38f};
  const float* axes[3] = {p.x.data(), p.y.data(), p.z.data()};
  for (int a = 0; a < 3; ++a) {
    const float* v = axes[a];
    float l = lo[a], h = hi[a];
#pragma omp parallel for schedule(static) reduction(min : l) reduction(max : h)
    for (std::size_t i = 0; i < n; ++i) {
      l = std::min(l, v[i]);
      h = std::max(h, v[i]);
    }
    lo[a] = l;
    hi[a] = h;
  }
  BoundingBox box;
  if (n == 0) return box;
  box.lo = {lo[0], lo[1], lo[2]};
  box.hi = {hi[0], hi[1], hi[2]};
  box.reach = bounding_reach(p);
  return box;
}

void place_camera(Camera& c, const CameraPlacement& placement, const BoundingBox& box) {
  const Vec3 centre = 0.5 * (box.lo + box.hi), size = box.hi - box.lo;
  // The axis the camera sits on (0 x, 1 y, 2 z), its side (+1, -1), and the box's extents across
  // the image (horizontal, vertical).
  int axis = 1;
  double side = 1, across = size.x, up = size.z;
  switch (placement.face) {
    case Face::front: break;
    case Face::back: side = -1; break;
    case Face::left: axis = 0, across = size.y; break;
    case Face::right: axis = 0, side = -1, across = size.y; break;
    case Face::top: axis = 2, up = size.y; break;
    case Face::bottom: axis = 2, side = -1, up = size.y; break;
  }
  const double tan_half = std::tan(0.5 * c.fov_degrees * M_PI / 180.0);
  const double aspect = double(c.yres) / double(c.xres);
  double half = std::max(0.5 * across / tan_half, 0.5 * up / (tan_half * aspect));
  // A box of one point (or a plane seen edge-on) still needs a distance.
  const double scale = std::max({std::fabs(size.x), std::fabs(size.y), std::fabs(size.z), length(centre) * 1e-6, 1e-6});
  // (a splat reaches 2 h from its centre: the particles' own extent frames them then)
  if (!(half > 0)) half = std::max(scale, 2 * box.reach / tan_half);
  const double distance = 1.05 * half;
  const double near_face[3] = {side > 0 ? box.hi.x : box.lo.x, side > 0 ? box.hi.y : box.lo.y,
                               side > 0 ? box.hi.z : box.lo.z};
  // Through lookat where it is given, so that the view looks along the axis at it (not askew from
  // the box's centre).
  Vec3 position = placement.lookat_given ? c.lookat : centre;
  const double at = near_face[axis] + side * distance;
  (axis == 0 ? position.x : axis == 1 ? position.y : position.z) = at;
  c.position = position;
  if (!placement.lookat_given) c.lookat = centre;
  if (!placement.sky_given) c.sky = axis == 2 ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
  if (!placement.center_given) c.center = c.position;
}

}  // namespace splotch
