// Interpolation between two snapshots (the original's interpolation_mode): a movie frame at
// fidx = 92.25 draws the particles a quarter of the way from snapshot 92 to 93, matched by their
// IDs.
//   mode 1: positions, smoothing lengths, colours and intensities linear in the fraction f.
//   mode 2: positions by the cubic Hermite curve through both ends with both ends' velocities as
//           its tangents, so that orbits stay curved:
//             x(f) = x1 + (x2 - x1)(3f^2 - 2f^3) + m1 (f - 2f^2 + f^3) + m2 (f^3 - f^2),
//           m_i = v_i * u_i the displacement per unit of f. As the original converts Gadget's
//           velocities (comoving, in v_unit cm/s per unit, times sqrt(a)) with the cosmic time of
//           a flat universe, t(a) = 2 / (3 sqrt(lambda) H0) asinh(sqrt(lambda / omega a^3)):
//             u_i = v_unit / l_unit / sqrt(a_i) * (t(a2) - t(a1)) * hubble.
//           The rest as mode 1.
// A particle that crossed the periodic box's edge between the snapshots moves the short way (its
// second position is taken from the image of the box nearest the first). A particle in one
// snapshot only (star formation, accretion, a particle swallowed) is drawn where that snapshot has
// it, unmoved, its intensity faded in (f I) or out ((1 - f) I) as the original does, so that it
// neither pops in nor out. f = 0 and f = 1 give the snapshots themselves, particle for particle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/particle_set.h"

namespace splotch {

struct InterpolationOptions {
  int mode = 1;  // 1 linear, 2 Hermite
  double hubble = 0.7, omega = 0.3, lambda = 0.7;
  double l_unit = 3.0856780e21, v_unit = 1e5;  // cm per length unit, cm/s per velocity unit
  bool periodic = true;                        // with the snapshots' box_size > 0
};

struct InterpolationCounts {
  std::size_t matched = 0, only_first = 0, only_second = 0;
};

// Seconds since the big bang at scale factor a (flat, matter and lambda), as the original has it.
double cosmic_time(double a, const InterpolationOptions& o);
// u_i above: a velocity of the snapshot at scale factor `a` times this is its displacement per unit
// of the fraction between a1 and a2.
double velocity_to_fraction(double a, double a1, double a2, const InterpolationOptions& o);
// Whether two snapshots' header times are scale factors (a cosmological run's, where the
// velocities above apply): both in (0, 1], and each equal to 1 / (1 + redshift) where the header
// gives a redshift. Otherwise the times are physical (a non-cosmological Gadget run: time 0 and
// 0.8, redshift 0), and a velocity v moves a particle v (t2 - t1) over the interval.
bool comoving_times(const ParticleSet& first, const ParticleSet& second);

// Which particle of the second snapshot each of the first's is (by ParticleSet::id, or by order
// when neither snapshot has IDs): worked out once for the frames between a pair of snapshots.
// Throws UserError when particles matched by order differ in count, or one snapshot has IDs and
// the other none.
constexpr std::size_t no_partner = ~std::size_t(0);
struct SnapshotMatch {
  std::vector<std::size_t> partner;       // per particle of the first: its match in the second, or no_partner
  std::vector<std::size_t> second_alone;  // the second's particles without a match, in order
  InterpolationCounts counts;
};
SnapshotMatch match_snapshots(const ParticleSet& first, const ParticleSet& second);

// The particles at fraction f between `first` and `second` (velocities and scale factor, for mode
// 2, from their vx, vy, vz and time): the first snapshot's particles in its order (matched or not),
// then those of the second only, in its order. Throws UserError for mode 2 without velocities.
// `reuse`: a set whose arrays' memory the answer takes over (the particles of a step before: a
// time slider's steps then write over memory already in use, instead of faulting in fresh pages
// each step); its values are not read.
ParticleSet interpolate_snapshots(const ParticleSet& first, const ParticleSet& second, const SnapshotMatch& match,
                                  double f, const InterpolationOptions& options, ParticleSet reuse = {});

}  // namespace splotch
