// ParticleSet: the particles as a reader delivers them, one array per field (structure of
// arrays), in world units. The stages after reading take these arrays over (by move) rather
// than copying them, so a field costs its memory once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/particle_array.h"
#include "io/snapshot_units.h"

namespace splotch {

struct ParticleSet {
  ParticleArray<float> x, y, z;      // position
  ParticleArray<float> hsml;         // smoothing length (world units), > 0
  ParticleArray<float> intensity;    // I, before normalisation
  ParticleArray<float> colour[3];    // colour value; [1] and [2] are empty unless the type has vector colours
  ParticleArray<std::uint8_t> type;  // particle type; empty when every particle is of type 0
  // Read only for interpolation between snapshots (interpolation_mode), else empty: the particles'
  // IDs (empty too for Tipsy, whose particles match by order) and velocities in the file's units.
  ParticleArray<std::uint64_t> id;
  ParticleArray<float> vx, vy, vz;
  double box_size = 0.0;  // periodic box size; 0 when the file has none (raw binary)
  double time = 0.0;      // the header's time (the scale factor of a cosmological run); 0 when none
  double redshift = -1;   // the header's redshift; -1 when it has none (Tipsy, raw, some SWIFT files)
  SnapshotUnits units;    // what the file says of its units and kernel (maps)
  // What the reader took as absent and the user should hear of, one message each (a colour or
  // intensity label that names no field of the file: drawn with the absent default).
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  // for the run's report (how much of the snapshot a region read took)

  std::size_t size() const { return x.size(); }
  // Every per-particle float array (empty ones included), for the steps that drop particles.
  std::array<ParticleArray<float>*, 11> float_fields() {
    return {&x, &y, &z, &hsml, &intensity, &colour[0], &colour[1], &colour[2], &vx, &vy, &vz};
  }
  std::array<const ParticleArray<float>*, 11> float_fields() const {
    return {&x, &y, &z, &hsml, &intensity, &colour[0], &colour[1], &colour[2], &vx, &vy, &vz};
  }
  int type_of(std::size_t i) const { return type.empty() ? 0 : type[i]; }
  // Memory of its own for every array that uses a caller's in place (io/particle_array.h): called
  // by a step before it writes to them.
  void own_all() {
    for (ParticleArray<float>* f : float_fields()) own(*f);
    own(type);
    own(id);
  }
};

}  // namespace splotch
