#include "splotch/frame/frame_camera.h"

#include "params/number_text.h"

namespace splotch {
namespace {

// Records the placed camera in used.par; returns the report's line.
std::string record_placed_camera(ParamFile& params, const Camera& c, const CameraPlacement& placement) {
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
  return std::string("no camera given: placed from the particles' bounding box, face = ") + face_name(placement.face) +
         ": camera " + text(c.position) + ", lookat " + text(c.lookat) + ", sky " + text(c.sky) +
         " (written to used.par)";
}

}  // namespace

Camera frame_camera(const Settings& s, const ParticleSource& source, ParamFile& params,
                    std::vector<std::string>& notes) {
  Camera camera = s.camera;
  if (!s.placement.from_data) return camera;
  place_camera(camera, s.placement, source.box());
  notes.push_back(record_placed_camera(params, camera, s.placement));
  return camera;
}

}  // namespace splotch
