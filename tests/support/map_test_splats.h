// A map drawer's splats held in arrays, for the map tests (host and GPU).
#pragma once

#include <vector>

#include "splotch/splat/map_view.h"

namespace splotch::testing {

struct MapArrays {
  std::vector<float> x, y, r, w0, w1, z;
  // The splats of the arrays for `mode`: w1 for an average, z for a slice.
  MapSplats view(MapMode mode = MapMode::column) const {
    MapSplats s;
    s.n = x.size();
    s.x = x.data();
    s.y = y.data();
    s.radius = r.data();
    s.w[0] = w0.data();
    s.w[1] = mode == MapMode::average ? w1.data() : nullptr;
    s.z = mode == MapMode::slice ? z.data() : nullptr;
    return s;
  }
};

}  // namespace splotch::testing
