// Quick previews (boost, boost_fraction): a trial render of a huge snapshot draws a fixed share of
// its particles, made to keep the picture's look. The share is chosen from each particle's position
// (a hash of its coordinates' bits), so the same particles are kept on every run, in every MPI
// split and in whatever order a reader delivers them, and a camera flight over one snapshot does
// not flicker.
//
// The look: a kept particle stands for 1/fraction particles, so its smoothing length grows by
// fraction^(-1/3) (the spacing of the particles left) and the light it gives grows by 1/fraction.
// A splat's light is I * (0.5 bfak / h) * (area ~ h^2), proportional to I h, so with h grown by
// fraction^(-1/3) the intensity takes fraction^(-2/3) (preview_light_factor) for the light to grow by
// 1/fraction. Types whose smoothing lengths are estimated from neighbours (size_estimate = knn)
// get theirs from the kept particles, which grow by the same factor on their own.
#pragma once

#include <cmath>
#include <cstddef>

#include "io/particle_set.h"

namespace splotch {

// Whether the particle at (x, y, z) is among the `fraction` kept.
bool kept_in_preview(float x, float y, float z, double fraction);

// Keeps the particles kept_in_preview chooses (in their order) and grows their smoothing lengths
// by fraction^(-1/3); returns how many are kept. fraction >= 1 keeps all, unchanged.
std::size_t keep_preview_subset(ParticleSet& particles, double fraction);

// The factor on every kept particle's intensity: fraction^(-2/3).
inline float preview_light_factor(double fraction) {
  return fraction >= 1 ? 1.0f : float(std::pow(fraction, -2.0 / 3.0));
}

}  // namespace splotch
