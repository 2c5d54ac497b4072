// The server's snapshot (bin/splotch --serve): read once, by the first frame, and kept with its
// intensities and colours as read, so that a browser's change of a type's range or log/asinh
// normalises it again (a pass over two or four fields) instead of reading the file again, and its
// choice of other fields reads those alone (splotch/load/values_reread.h); and a share of it for
// reduced frames (the preview's choice of particles and look, splotch/load/preview_subset.h), made
// once, its values taken again where the snapshot's change (a range, a field). A time between two
// snapshots of a series draws from the pair of them (splotch/serve/held_pair.h), which the snapshot
// shown alone comes from and goes back to. Their copies on the GPU are the session's
// (splotch/render/gpu_copies.h: the whole snapshot's, part "all", and the share's; the share gives
// its room up where the whole does not fit beside it, never the other way).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "splotch/frame/frame_plan.h"
#include "splotch/frame/particle_source.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/serve/draw_limits.h"
#include "splotch/serve/held_pair.h"
#include "splotch/util/console.h"

namespace splotch {

class HeldSnapshot {
 public:
  // The source of a frame's particles: this snapshot, read if the frame's input keys are not
  // those it was read with, normalised as the frame asks, and thinned to `thin` of its particles
  // (1: all of them; a .par that asks for a preview itself, boost_fraction, is drawn as it asks);
  // or, for a frame between two snapshots, the pair's. `copies`: the run's copies on the GPU,
  // which the source names and renews.
  std::unique_ptr<ParticleSource> source(const FramePlan& plan, Console& console, double thin, DrawLimits limits,
                                         GpuCopies& copies);

  int reads() const { return reads_; }                    // of the snapshot file shown alone
  int value_reads() const { return value_reads_; }        // of other fields' colours or intensities alone
  int normalisations() const { return normalisations_; }  // again, from the values as read
  int shares_made() const { return shares_made_; }        // of the snapshot shown alone, for reduced frames
  int pair_reads() const { return pair_.reads(); }        // of the snapshots of a time between two
  // The snapshot shown alone, or else the first of the pair; null before the first frame.
  const LoadedSnapshot* loaded() const { return shown_ ? &shown_->loaded : pair_.first(); }
  // The particles the last frame drew from (between two snapshots, of the time between: its header
  // numbers); null before the first.
  const ParticleSet* drawn() const {
    return between_last_ ? &pair_.between() : shown_ ? &shown_->loaded.particles : nullptr;
  }
  // The pixels the splats of the last frame covered (estimated, where the GPU projected them).
  double splat_pixels() const { return splat_pixels_; }

 private:
  friend class HeldSource;
  std::optional<HeldEnd> shown_;  // the snapshot shown alone
  std::string copy_name_;         // of its copies on the GPU (one per whole read, kept while only values change)
  int copies_made_ = 0;
  HeldPair pair_;
  bool between_last_ = false;  // the last frame was between two snapshots
  int reads_ = 0, value_reads_ = 0, normalisations_ = 0, shares_made_ = 0;
  double splat_pixels_ = 0;
};

}  // namespace splotch
