// The part of space a picture of a camera can show, as a region to read (io/read_region.h): the
// view's frustum, bounded by zmin and zmax, its sides widened by the pixels a splat's minimum
// radius and footprint add. A splat's own reach (its smoothing length times 2, smooth_factor and
// the footprint) is the region's reach per smoothing length. None for the views whose shape the
// frustum does not bound (the dome's fisheye, an orthographic camera, an off-centre `center`).
#pragma once

#include <optional>
#include <vector>

#include "io/read_region.h"
#include "splotch/stages/geometry.h"

namespace splotch {

std::optional<ReadRegion> view_region(const Camera& camera, const std::vector<float>& smooth_factor, float minrad_pix,
                                      double preview_fraction);

}  // namespace splotch
