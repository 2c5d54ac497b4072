// A particle's splats for a map (splotch/stages/map_splats.h says what they hold): the particle
// wrapped to within half a periodic box of lookat, its images across the box's faces or the map's
// edges, each projected orthographically along the view into the map's pixel units and cut by the
// depth range. One function for the host's map stage and the GPU's, which draws from the particles
// it keeps (cuda/map_renderer.h), so that both make the same splats in the same arithmetic.
#pragma once

#include <math.h>

#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"

namespace splotch {

// What the projection needs, in plain numbers (the GPU takes it by value).
struct MapProjection {
  MapMode mode = MapMode::column;
  double lookat[3] = {0, 0, 0};
  double axis[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // the map's x, y, and z towards the camera
  double pixel = 1;                                       // a pixel's side, code units
  double light = 1;                                       // 1 / a preview's share of the particles
  int xres = 1, yres = 1;
  double box = 0;                      // a periodic box's side; 0 none
  bool wraps = false;                  // the map is one box across, seen along an axis: it wraps itself
  double w_lo = -1e300, w_hi = 1e300;  // the depth range along axis[2], from lookat
  bool cut = false;                    // whether it cuts anything
};

struct MapSplat {
  float x, y, radius, w0, w1, z;
};

// Calls emit(const MapSplat&) for each splat of the particle at `at` with support H, reader's
// intensity I and colour `colour`.
template <class Emit>
SPLOTCH_HOST_DEVICE void map_copies(const MapProjection& g, const KernelTableView& k, const double at_in[3], double H,
                                    float I, float colour, Emit& emit) {
  if (!(H > 0)) return;
  struct Copy {
    double at[3];
    double share;
  };
  Copy copies[27];
  int count = 1;
  double at[3] = {at_in[0], at_in[1], at_in[2]};
  if (g.box > 0)
    for (int a = 0; a < 3; ++a) at[a] -= g.box * floor((at[a] - g.lookat[a]) / g.box + 0.5);
  copies[0] = {{at[0], at[1], at[2]}, 1.0};
  if (g.box > 0 && !g.wraps) {
    // Across each face the kernel crosses: the share beyond it goes to the image over there.
    for (int a = 0; a < 3; ++a) {
      const double c = at[a], centre = g.lookat[a];
      const double below = double(marginal_at(k, float((centre - 0.5 * g.box - c) / H)));
      const double above = 1 - double(marginal_at(k, float((centre + 0.5 * g.box - c) / H)));
      if (below <= 0 && above <= 0) continue;
      const int before = count;
      for (int m = 0; m < before; ++m) {
        const Copy original = copies[m];
        copies[m].share = original.share * (1 - below - above);
        if (below > 0) {
          copies[count] = {{original.at[0], original.at[1], original.at[2]}, original.share * below};
          copies[count++].at[a] += g.box;
        }
        if (above > 0) {
          copies[count] = {{original.at[0], original.at[1], original.at[2]}, original.share * above};
          copies[count++].at[a] -= g.box;
        }
      }
    }
  }
  for (int m = 0; m < count; ++m) {
    const double d[3] = {copies[m].at[0] - g.lookat[0], copies[m].at[1] - g.lookat[1], copies[m].at[2] - g.lookat[2]};
    double p[3];
    for (int a = 0; a < 3; ++a) p[a] = d[0] * g.axis[a][0] + d[1] * g.axis[a][1] + d[2] * g.axis[a][2];
    const double w = p[2];
    double share = copies[m].share;
    if (g.mode == MapMode::slice) {
      if (!(fabs(w) < H)) continue;
    } else if (g.cut) {
      share *= double(marginal_at(k, float((g.w_hi - w) / H))) - double(marginal_at(k, float((g.w_lo - w) / H)));
      if (!(share > 0)) continue;
    }
    MapSplat s;
    s.x = float(0.5 * g.xres + p[0] / g.pixel);
    s.y = float(0.5 * g.yres + p[1] / g.pixel);
    s.radius = float(H / g.pixel);
    s.w0 = s.w1 = 0;
    if (g.mode == MapMode::column) {
      s.w0 = float(double(I) * share * g.light);
    } else if (g.mode == MapMode::average) {
      s.w0 = float(double(I) * share * g.light);
      s.w1 = float(double(I) * double(colour) * share * g.light);
    } else {
      s.w0 = float(double(I) * double(colour) * g.light);
    }
    s.z = float(w / g.pixel);
    const float X = s.x, Y = s.y, R = s.radius;
    if (!g.wraps) {
      if (X + R < 0 || X - R > float(g.xres) || Y + R < 0 || Y - R > float(g.yres)) continue;
      emit(s);
      continue;
    }
    // A periodic map: drawn again a map over wherever the support crosses its edge.
    const long x_first = long(floorf((X - R) / float(g.xres))), x_last = long(floorf((X + R) / float(g.xres)));
    const long y_first = long(floorf((Y - R) / float(g.yres))), y_last = long(floorf((Y + R) / float(g.yres)));
    for (long j = y_first; j <= y_last; ++j)
      for (long i = x_first; i <= x_last; ++i) {
        MapSplat c = s;
        c.x = X - float(i * g.xres);
        c.y = Y - float(j * g.yres);
        emit(c);
      }
  }
}

}  // namespace splotch
