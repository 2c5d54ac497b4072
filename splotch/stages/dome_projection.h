// The dome lens (dome = TRUE, the original's): an azimuthal-equidistant fisheye for planetarium
// domes. The view direction (lookat - camera) is the zenith, at the image centre; a direction at
// angle theta from it lies theta / (aperture / 2) of the radius from the centre, along its own
// azimuth (the camera's x and y axes, sky up, as the flat projection has them). With the default
// aperture of 180 degrees the rim of the disc is the horizon. The geometry stage maps each splat's
// centre through the lens and gives it its angular radius on the radial scale, so the renderers
// draw a dome's splats as any others; the pixels outside the disc are black.
#pragma once

#include "io/image.h"

namespace splotch {

// Pixels per radian of angle from the view direction, for a square image `side` pixels wide.
inline double dome_pixels_per_radian(int side, double aperture_degrees) {
  const double pi = 3.14159265358979323846;
  return side / (aperture_degrees * pi / 180.0);
}

// Blackens the pixels whose centres lie outside the disc about (side / 2, side / 2), in the
// renderers' pixel coordinates (pixel x's centre at x), as the original does.
void black_outside_dome(Image& image);

}  // namespace splotch
