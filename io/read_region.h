// The part of space a render needs, when it is known before reading (the view of a given camera
// with its zmin/zmax slab): a convex region, the intersection of half-spaces n . x <= offset. A
// reader whose files say where their particles lie (SWIFT's top-level cells: io/swift_cells.h)
// reads only the pieces that can reach it, with their kernels.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace splotch {

struct ReadRegion {
  struct Plane {
    std::array<double, 3> normal;  // unit length
    double offset;                 // n . x <= offset inside
    bool kernels = true;           // a splat beyond it may reach in (false: the depth's bounds, by centre)
  };
  std::vector<Plane> planes;
  // How far a particle's splat reaches, per unit of its smoothing length as read (2 x smooth_factor
  // x the splat's footprint, more for a preview's grown ones).
  double reach_per_hsml = 2;
  std::string why = "the view";  // what the region is, for the report
  // A periodic box is wrapped about this point before drawing (every particle within half a box
  // of it); none: not wrapped.
  std::optional<std::array<double, 3>> wrap_centre;
  // Every drawn type's colour and intensity ranges given (else they come from the particles read,
  // and a region read would change them: the snapshot is read whole, with a note saying so).
  bool ranges_given = true;
  std::vector<int> file_types;  // the file types read by region (others, whose smoothing lengths
                                // are estimated from neighbours, are read whole)

  bool applies_to(int file_type) const {
    for (int t : file_types)
      if (t == file_type) return true;
    return false;
  }
  // Whether a particle in the box [lo, hi] may be drawn: the box, grown by `drift` on every side
  // (and by `reach` more for the planes a kernel reaches across), lies wholly outside none of the
  // planes.
  bool reaches(const std::array<double, 3>& lo, const std::array<double, 3>& hi, double drift, double reach) const {
    for (const Plane& p : planes) {
      const double pad = drift + (p.kernels ? reach : 0);
      double nearest = 0;  // n . x at the box's corner deepest inside the plane
      for (std::size_t d = 0; d < 3; ++d) {
        const double n = p.normal[d];
        nearest += n * (n > 0 ? lo[d] - pad : hi[d] + pad);
      }
      if (nearest > p.offset) return false;
    }
    return true;
  }
};

}  // namespace splotch
