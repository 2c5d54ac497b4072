// The particles of a frame's snapshot made ready for any camera: read, the invalid ones dropped
// (and counted), smoothing lengths estimated where asked, intensities and colours normalised.
// What follows depends on the camera (splotch/stages/geometry.h), so a scene can keep this for the
// frames that only move the camera, and read the next snapshot in the background.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/particle_set.h"
#include "io/snapshot_request.h"
#include "splotch/load/particle_check.h"
#include "splotch/mpi/comm.h"
#include "splotch/stages/framing.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

// The intensities and colours as read, before normalisation: kept only when asked (the server,
// which normalises its snapshot again when the browser changes a type's range or log/asinh).
struct RawValues {
  ParticleArray<float> intensity, colour[3];
  // The places, among the particles as read, of those dropped (ascending): where the values of
  // other fields go (splotch/load/values_reread.h).
  std::vector<std::size_t> dropped_at;
};

struct LoadedSnapshot {
  ParticleSet particles;
  RawValues raw;  // empty unless load_snapshot was asked to keep them
  std::size_t read = 0, dropped = 0;
  DroppedParticles dropped_kinds;  // `dropped`, by what was wrong with them
  NormalizedRanges ranges;         // the colour and intensity ranges found and used, per type
  // What a camera placed from the data frames (splotch/stages/framing.h), once worked out: by the
  // load for a preview (from all its valid particles, before the thinning, so that it is framed as
  // the full render), else when first asked (framing_of).
  mutable std::optional<Framing> framing;
  std::vector<std::pair<std::string, double>> stages;  // read, hsml, normalize: seconds
  std::vector<std::string> notes;                      // for the run's report: smoothing lengths estimated after all
  // An MPI share's warnings that every process meets alike, for one to say (a single process's
  // load says them itself).
  std::vector<std::string> shared_warnings;

  std::size_t bytes() const;  // of the particle arrays
  double seconds() const;     // the stages' sum
};

// What a camera placed from the data frames for `loaded`: kept from the load (a preview), or
// worked out now and kept. `reduce`: over an MPI run's processes (every process calls it).
const Framing& framing_of(const LoadedSnapshot& loaded, bool periodic, const FramingReduction& reduce = {});

// Reads and prepares the snapshot `input` names; warnings and progress go to `console`. Throws
// UserError when nothing can be drawn or a type is out of range.
// `keep_raw`: the intensities and colours as read are kept too (LoadedSnapshot::raw).
LoadedSnapshot load_snapshot(const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization,
                             Console& console, bool keep_raw = false);

// `loaded` (kept with its raw values) normalised again, with `normalization`: its particles and
// ranges as a fresh load_snapshot with that normalisation would give them. Returns the seconds.
double renormalize(LoadedSnapshot& loaded, const std::vector<TypeNormalization>& normalization);

// One process's share of the snapshot in an MPI run (its ReadShare set in `input`): as
// load_snapshot, but a share may be empty, the normalisation's ranges are those of all processes,
// and `console` warns of the invalid particles of all. Every process calls it; an error on any of
// them is thrown on all, naming the first process that failed.
LoadedSnapshot load_snapshot_share(const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization,
                                   const Comm& comm, Console& console);

}  // namespace splotch
