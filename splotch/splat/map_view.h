// What a map drawer takes (the host's, splotch/render/host_map.h; the GPU's later): the particles
// in the map's pixel units, as plain arrays, and the map's sums. Pixel (i, j) covers [i, i + 1) x
// [j, j + 1); a particle's support radius is in pixels too, so the drawer knows nothing of world
// units (splotch/frame/map_frame.cc converts).
#pragma once

#include <cstddef>
#include <vector>

namespace splotch {

enum class MapMode { none, column, average, slice };

struct MapSplats {
  std::size_t n = 0;
  const float* x = nullptr;  // centre, pixels
  const float* y = nullptr;
  const float* radius = nullptr;  // the kernel's support, pixels
  // column and average: what each sum adds, times the share of the kernel in the pixel (average:
  // w[0] the weight, w[1] the weight times the quantity). slice: w[0] the volume times the quantity,
  // times W(r / H) / H^3 (H in pixels) at the pixel's centre, with z its distance from the plane.
  const float* w[2] = {nullptr, nullptr};
  const float* z = nullptr;  // slice: pixels from the plane
};

// The map's sums, one plane per w of the splats, row after row, in double: a pixel of a map of
// 10^8 particles adds up to thousands of contributions, and the totals must hold to 1e-5.
struct MapSums {
  int xres = 0, yres = 0;
  std::vector<double> plane[2];
  MapSums(int xres_, int yres_, int planes) : xres(xres_), yres(yres_) {
    for (int p = 0; p < planes; ++p) plane[p].assign(std::size_t(xres_) * std::size_t(yres_), 0.0);
  }
  int planes() const { return plane[1].empty() ? 1 : 2; }
};

}  // namespace splotch
