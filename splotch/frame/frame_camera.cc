#include "splotch/frame/frame_camera.h"

#include <cstdio>

#include "params/number_text.h"

namespace splotch {
namespace {

std::string box_text(const BoundingBox& b) {
  return "(" + number_text(b.lo.x) + ", " + number_text(b.lo.y) + ", " + number_text(b.lo.z) + ") to (" +
         number_text(b.hi.x) + ", " + number_text(b.hi.y) + ", " + number_text(b.hi.z) + ")";
}

// "; 1234 particles (1.2%) lie outside it" where some do.
std::string outside_text(const Framing& f) {
  if (f.outside == 0 || f.total == 0) return "";
  char share[32];
  std::snprintf(share, sizeof share, "%.2g%%", 100.0 * double(f.outside) / double(f.total));
  return "; " + std::to_string(f.outside) + " of the " + std::to_string(f.total) + " particles (" + share +
         ") lie outside it, as far as " + box_text(f.whole) + " (give the camera to frame them)";
}

// Records the placed camera in used.par; returns the report's line.
std::string record_placed_camera(ParamFile& params, const Camera& c, const CameraPlacement& placement,
                                 const Framing& framed) {
  const std::string why = std::string("placed from the data (face = ") + face_name(placement.face) + ")";
  auto record = [&](const std::string& prefix, Vec3 v) {
    params.resolve(prefix + "_x", number_text(v.x), why);
    params.resolve(prefix + "_y", number_text(v.y), why);
    params.resolve(prefix + "_z", number_text(v.z), why);
  };
  record("camera", c.position);
  params.leave_out_of_record("face");  // the camera says it now; a record that gave both would not use it
  if (!placement.lookat_given) record("lookat", c.lookat);
  if (!placement.sky_given) record("sky", c.sky);
  auto text = [](Vec3 v) { return "(" + number_text(v.x) + ", " + number_text(v.y) + ", " + number_text(v.z) + ")"; };
  return std::string("no camera given: placed to frame the particles, face = ") + face_name(placement.face) +
         ": camera " + text(c.position) + ", lookat " + text(c.lookat) + ", sky " + text(c.sky) +
         " (written to used.par); the box framed is " + box_text(framed.box) + outside_text(framed);
}

}  // namespace

Camera frame_camera(const Settings& s, const ParticleSource& source, ParamFile& params,
                    std::vector<std::string>& notes) {
  Camera camera = s.camera;
  if (!s.placement.from_data) return camera;
  const Framing framed = source.framing();
  place_camera(camera, s.placement, framed.box);
  notes.push_back(record_placed_camera(params, camera, s.placement, framed));
  return camera;
}

}  // namespace splotch
