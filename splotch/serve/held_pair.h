// The server's snapshots of a time between two (issue 42: the page's time slider dragged between
// two snapshots of the series, fidx = 92.25 with interpolation_mode): both read once, with their
// IDs, matched once, and each step of the slider draws the particles at its fraction of the way
// (splotch/load/interpolate_snapshots.h): the picture bin/splotch draws for the same keys. A
// reduced picture interpolates the reduced shares of the two (chosen by ID, so that both hold the
// same particles), matched once too. The next pair keeps the snapshot the two pairs share, and
// the snapshot shown alone (splotch/serve/held_snapshot.h) comes from, and goes back to, the pair.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/particle_set.h"
#include "io/snapshot_request.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/particle_source.h"
#include "splotch/load/interpolate_snapshots.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/serve/draw_limits.h"
#include "splotch/util/console.h"

namespace splotch {

// A snapshot the server holds: read with `input_keys` (FramePlan::input_keys) and `request`, its
// values as read kept (LoadedSnapshot::raw) and normalised as `normalization` says (its
// signature, snapshot_signature), and its reduced pictures' share of `share_fraction` (1: none made),
// with the share's places in it (for the share's values taken again where the snapshot's change).
struct HeldEnd {
  std::string input_keys, normalization;
  SnapshotRequest request;
  LoadedSnapshot loaded;
  ParticleSet share;
  double share_fraction = 1;
  ParticleArray<std::size_t> share_places;
};

// `end`'s share made anew of `fraction` of its particles (by ID where it has them and `by_id`).
void make_share(HeldEnd& end, double fraction, bool by_id);
// `end`'s share dropped (its memory back).
void drop_share(HeldEnd& end);
// After `end`'s values changed: its share's values taken again from them, or the share dropped
// where it no longer fits them. Returns whether a share is held.
bool refresh_share(HeldEnd& end);

// Whether `end` holds the snapshot that `input_keys` and `request` read: the same keys, but those
// that only read the IDs (and velocities) for interpolation, which `end` has where `request` asks.
bool holds_snapshot(const HeldEnd& end, const std::string& input_keys, const SnapshotRequest& request);

// `end` normalised as `normalization` (signature `signature`) where it is not yet; its share's
// values then taken again (refresh_share). Returns whether it was normalised again.
bool normalise_held(HeldEnd& end, const std::vector<TypeNormalization>& normalization, const std::string& signature);

class HeldPair {
 public:
  // The source of an interpolated frame (plan.settings.interpolation.between), thinned to `thin`
  // of the particles for a reduced picture (1: all); `splat_pixels` gets the pixels its splats
  // cover (estimated, where the GPU projects them).
  std::unique_ptr<ParticleSource> source(const FramePlan& plan, Console& console, double thin, DrawLimits limits,
                                         GpuCopies& copies, double& splat_pixels);

  // An end kept for a later pair, or for the snapshot shown alone (two are kept: the one kept
  // longest goes for a third).
  void keep(HeldEnd end);
  // The end that holds the snapshot `input_keys` and `request` read, taken out; none where none does.
  std::optional<HeldEnd> take(const std::string& input_keys, const SnapshotRequest& request);

  void clear();  // every end's memory back

  int reads() const { return reads_; }  // of snapshot files
  const LoadedSnapshot* first() const { return ends_.empty() ? nullptr : &ends_.front().loaded; }
  const ParticleSet& between() const { return between_; }  // the last frame's particles

 private:
  friend class PairSource;
  std::vector<HeldEnd> ends_;  // the pair, [first, second], once a frame has drawn from it
  // How the ends' particles match, and their shares' (reset when the ends or shares change).
  std::optional<SnapshotMatch> match_, share_match_;
  ParticleSet between_;  // the last frame's particles
  int reads_ = 0;
};

}  // namespace splotch
