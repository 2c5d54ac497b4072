// The work a browser's picture may ask of the server (bin/splotch --serve): the pixels its splats
// cover, which is what the renderer writes (one request of 4096 x 4096 pixels with smooth_factor 64
// covered 10^13 of them and held the server for minutes while every other browser waited). A view
// beyond the budget is refused before it is drawn, saying what would bring it within.
#pragma once

#include <cstddef>
#include <string>

#include "io/particle_set.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/splats.h"

namespace splotch {

// The pixels the splats' footprints cover in a picture of width x height (each splat's as the
// renderers clip it: splotch/splat/splat_maths.h).
double splat_pixels(const Splats& splats, int width, int height);

// The same for `particles` projected by `geometry` (wrapped as the frame wraps them), estimated
// from at most `sample` of them spread evenly through the arrays: a view drawn from particles kept
// on the GPU is projected there, after the budget must be known.
double estimated_splat_pixels(const ParticleSet& particles, const GeometryOptions& geometry, bool wrap,
                              std::size_t sample = 65536);

// The refusal of a view of `pixels` beyond `budget`, saying what brings it within.
std::string over_budget_text(double pixels, double budget);

}  // namespace splotch
