// The map stage (docs/maps.md): particles to the map's pixel units, orthographic along the view,
// for a map drawer (splotch/splat/map_view.h). The map is centred on lookat with the camera's x
// and y axes; a pixel is `width / xres` across. Each particle's support is its smoothing length
// times `support_factor` (the code's convention), and its values are what the map sums:
//   column:  w0 = the quantity (the reader's intensity), times the share of the kernel within the depth;
//   average: w0 = the weight, w1 = weight times quantity (the colour), both times that share;
//   slice:   w0 = the volume (mass / density) times the quantity, with z its distance from the plane.
// A depth range (zmin, zmax from the camera, or map_depth about lookat) cuts each kernel by the
// share of its mass on either side (its marginal, splotch/splat/map_kernel.h).
//
// Periodic boxes: positions are wrapped to within half a box of lookat. Seen along an axis of the
// box with the map exactly one box wide and high, the map is periodic itself, and a kernel that
// crosses its edge is drawn again one map over (exact). Otherwise a kernel that crosses a face of
// the box (centred on lookat) is shared between the particle and its image across the face, in
// the proportion of its mass on either side: the mass is kept exactly, and the part beyond the
// face is drawn at the image whole rather than cut, which misplaces at most the outer part of one
// kernel.
#pragma once

#include <optional>
#include <vector>

#include "io/particle_set.h"
#include "splotch/splat/map_copies.h"
#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"
#include "splotch/util/vec3.h"

namespace splotch {

struct MapGeometry {
  MapMode mode = MapMode::column;
  Vec3 lookat, x_axis, y_axis, z_axis;  // z_axis towards the camera
  double camera_distance = 1;           // from lookat
  double width = 1, height = 1;         // code units
  int xres = 1, yres = 1;
  double zmin = 0, zmax = 1e23;        // distances from the camera
  std::optional<double> depth;         // a slab about lookat
  std::vector<double> support_factor;  // per type: support = factor * hsml
  double box = 0;                      // a periodic box's side; 0 none
  double preview_fraction = 1;         // a preview's share of the particles: values grow by its inverse
  double pixel() const { return width / xres; }
};

struct MapParticles {
  ParticleArray<float> x, y, radius, w0, w1, z;
  bool periodic_map = false;  // the map is one box across and wraps (see above)
  MapSplats view() const;
};

MapParticles map_particles(const ParticleSet& particles, const MapGeometry& geometry, const KernelTableView& kernel);

// The geometry as the splats' function takes it (splotch/splat/map_copies.h), for the host's stage
// and the GPU's.
MapProjection map_projection(const MapGeometry& geometry);

}  // namespace splotch
