// Particles that cannot be drawn: a position that is NaN or infinite, a smoothing length that is
// zero, negative or not finite, a NaN or infinite intensity or colour. They are dropped (the
// caller warns with the counts) rather than poisoning the ranges of the normalisation or the
// image.
#pragma once

#include <cstddef>
#include <vector>

#include "io/particle_set.h"

namespace splotch {

struct DroppedParticles {
  std::size_t bad_position = 0, bad_hsml = 0, bad_value = 0;
  std::size_t total() const { return bad_position + bad_hsml + bad_value; }
};

// `dropped_at`, where given: the places (in `particles` as given) of those dropped, ascending.
DroppedParticles drop_invalid_particles(ParticleSet& particles, std::vector<std::size_t>* dropped_at = nullptr);

}  // namespace splotch
