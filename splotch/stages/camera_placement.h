// A camera that the parameter file does not give (no camera_x, camera_y, camera_z): placed, as
// the original does, outside the particles' bounding box on the side `face` names, looking at the
// box's centre, far enough that the whole box is in view. It spares a new user from guessing
// coordinates, and the run's report and used.par say where it went.
//
//   face    camera on the side of   sky
//   FRONT   +y                      (0, 0, 1)
//   BACK    -y                      (0, 0, 1)
//   LEFT    +x                      (0, 0, 1)
//   RIGHT   -x                      (0, 0, 1)
//   TOP     +z                      (0, 1, 0)
//   BOTTOM  -z                      (0, 1, 0)
//
// The distance: the box's face nearest the camera fills the field of view (horizontal `fov`, and
// the vertical one of the image's shape), with a margin of 5% for the particles' own extent.
#pragma once

#include <optional>
#include <string>

#include "io/particle_set.h"
#include "splotch/stages/geometry.h"
#include "splotch/util/vec3.h"

namespace splotch {

enum class Face { front, back, left, right, top, bottom };

// FRONT, BACK, ... in any case; none for another word.
std::optional<Face> face_of(const std::string& name);
const char* face_name(Face face);

struct BoundingBox {
  Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  // The largest smoothing length: what frames a box of one point (one particle, or all at one
  // place) or a plane seen edge-on.
  double reach = 0;
  bool empty() const { return lo.x > hi.x; }
};

// The box of every particle's position (threads share the work), with its reach.
BoundingBox bounding_box(const ParticleSet& particles);
double bounding_reach(const ParticleSet& particles);  // the largest finite smoothing length

// What the file gave of the view; the rest is placed from the box.
struct CameraPlacement {
  bool from_data = false;  // camera_x/y/z absent
  Face face = Face::front;
  bool lookat_given = false, sky_given = false, center_given = false;
};

// Sets camera.position (and lookat, sky and center where not given) from `box`.
void place_camera(Camera& camera, const CameraPlacement& placement, const BoundingBox& box);

}  // namespace splotch
