// Quick previews (boost, boost_fraction): a trial render of a huge snapshot draws a fixed share of
// its particles, made to keep the picture's look. The share is chosen from each particle's position
// (a hash of its coordinates' bits), so the same particles are kept on every run, in every MPI
// split and in whatever order a reader delivers them, and a camera flight over one snapshot does
// not flicker.
//
// The look: a kept particle stands for 1/fraction particles, so its smoothing length grows by
// fraction^(-1/3) (the spacing of the particles left) and the light it gives grows by 1/fraction.
// Under the classic normalisation a splat's light is proportional to I h (wider than minrad_pix)
// or to I (held at minrad_pix), so the geometry stage gives each splat the factor on I that makes
// its light 1/fraction times its full render's (GeometryOptions::preview_fraction): fraction^(-2/3)
// for wide splats, up to 1/fraction for the smallest. Types whose smoothing lengths are estimated
// from neighbours (size_estimate = knn) get theirs from the kept particles, which grow by the same
// factor on their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/particle_set.h"

namespace splotch {

// Whether the particle at (x, y, z) is among the `fraction` kept; with IDs (read for a movie
// between snapshots), by its ID instead, so that both snapshots keep the same particles.
bool kept_in_preview(float x, float y, float z, double fraction);
bool kept_in_preview(std::uint64_t id, double fraction);

// Keeps the particles kept_in_preview chooses (in their order) and grows their smoothing lengths
// by fraction^(-1/3); returns how many are kept. fraction >= 1 keeps all, unchanged.
std::size_t keep_preview_subset(ParticleSet& particles, double fraction);

// The same share as a new set, `p` left whole (the server's reduced frames, from the particles it
// keeps): the particles of `p` that kept_in_preview chooses, their smoothing lengths grown as above.
// `by_id` false: by position even where `p` has IDs (a snapshot shown alone keeps the same share
// whether or not it was read with IDs, for a time between two).
ParticleSet preview_subset(const ParticleSet& p, double fraction, bool by_id = true);

// The same in two steps, for a share kept beside its particles (the server's): the places in `p`
// of the particles kept (in order), and the share of those places.
ParticleArray<std::size_t> preview_places(const ParticleSet& p, double fraction, bool by_id = true);
ParticleSet preview_subset(const ParticleSet& p, const ParticleArray<std::size_t>& places, double fraction);
// The intensities and colours of `share` (made of `places` in `p`) taken again from `p`, whose
// values changed (normalised anew, another field read): the share's particles stay, so that its
// copy on the GPU needs only these values again. False, `share` unchanged, where `p` now has
// fields the share lacks or the other way (a type's colours turned vector): the share is made anew.
bool regather_preview_values(const ParticleSet& p, const ParticleArray<std::size_t>& places, ParticleSet& share);

// The error of a preview that keeps no particle of `valid`.
std::string preview_kept_none(double fraction, std::size_t valid, const std::string& path);

}  // namespace splotch
