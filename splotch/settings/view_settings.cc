// The keys of a frame's views (stereo pairs, panorama cube faces) and of the dome lens: the
// original's EyeSeparation, panorama and dome, and dome_aperture (ours: the fisheye's full angle).
#include <cmath>

#include "splotch/settings/settings.h"
#include "splotch/settings/settings_keys.h"

namespace splotch {

void read_views(ParamFile& p, Settings& s) {
  ViewSettings& v = s.views;
  v.eye_separation_degrees = p.get<double>("EyeSeparation", 0.0);
  if (!std::isfinite(v.eye_separation_degrees) || v.eye_separation_degrees < 0 || v.eye_separation_degrees >= 90) {
    p.reject(at(p, "EyeSeparation") + " = " + p.get<std::string>("EyeSeparation") +
             " must be an angle from 0 (no stereo pair) below 90 degrees; the eyes are apart by this angle as seen "
             "from lookat (1 to 3 is usual)");
    v.eye_separation_degrees = 0;
  }
  v.panorama = p.get<bool>("panorama", false);
  if (v.panorama && v.eye_separation_degrees > 0)
    p.reject(at(p, "panorama") +
             " = TRUE with EyeSeparation: a frame is a stereo pair or six cube faces, as in "
             "the original; leave one out");
  Camera& c = s.camera;
  if (v.panorama && c.xres != c.yres)
    p.reject(at(p, "panorama") + " = TRUE draws the six square faces of a cube (fov 90 each way), and xres = " +
             std::to_string(c.xres) + ", yres = " + std::to_string(c.yres) + "; give yres = xres (or leave yres out)");
  if (v.panorama && !c.perspective)
    p.reject(at(p, "panorama") +
             " = TRUE draws perspective faces from the camera, and projection = FALSE asks for "
             "an orthographic view; leave one of them out");
  c.dome = p.get<bool>("dome", false);
  if (!c.dome) return;
  c.dome_aperture_degrees = p.get<double>("dome_aperture", 180.0);
  if (!(c.dome_aperture_degrees > 0 && c.dome_aperture_degrees <= 360))
    p.reject(at(p, "dome_aperture") + " = " + p.get<std::string>("dome_aperture") +
             " must be an angle above 0 and at most 360 degrees (180: a planetarium dome's half sky)");
  if (c.xres != c.yres)
    p.reject(at(p, "dome") + " = TRUE draws a round fisheye in a square picture, and xres = " + std::to_string(c.xres) +
             ", yres = " + std::to_string(c.yres) + "; give yres = xres (or leave yres out)");
  if (!c.perspective)
    p.reject(at(p, "dome") +
             " = TRUE is a perspective from the camera, and projection = FALSE asks for an "
             "orthographic view; leave one of them out");
  if (v.panorama)
    p.reject(at(p, "dome") + " = TRUE and panorama = TRUE: one frame is a dome or six cube faces; leave one out");
  if (v.eye_separation_degrees > 0)
    p.reject(at(p, "dome") + " = TRUE with EyeSeparation: stereo domes are not drawn here; leave EyeSeparation out");
}

}  // namespace splotch
