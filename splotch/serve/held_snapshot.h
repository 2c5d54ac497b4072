// The server's snapshot (bin/splotch --serve): read once, by the first frame, and kept with its
// intensities and colours as read, so that a browser's change of a type's range or log/asinh
// normalises it again (a pass over two or four fields) instead of reading the file again; and a
// share of it for reduced frames (the preview's choice of particles and look,
// splotch/load/preview_subset.h), made once per normalisation. Their copies on the GPU are the
// session's (splotch/render/gpu_copies.h: the whole snapshot's, part "all", and the share's; the
// share gives its room up where the whole does not fit beside it, never the other way).
#pragma once

#include <atomic>
#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "io/particle_set.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/particle_source.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/util/console.h"

namespace splotch {

// What a frame drawn from the held snapshot checks between its steps (a browser's picture):
// whether it is still wanted (ViewCancelled thrown, before the read or normalisation, the
// projection and the copy to the GPU, once `cancelled` is set), and whether the pixels its splats
// cover are within `work_budget` (BadRequest beyond), once they are known: after the projection, or
// before a GPU projects them, estimated from a sample.
struct DrawLimits {
  const std::atomic<bool>* cancelled = nullptr;
  double work_budget = HUGE_VAL;
};

class HeldSnapshot {
 public:
  // The source of a frame's particles: this snapshot, read if the frame's input keys are not
  // those it was read with, normalised as the frame asks, and thinned to `thin` of its particles
  // (1: all of them; a .par that asks for a preview itself, boost_fraction, is drawn as it asks).
  // `copies`: the run's copies on the GPU, which the source names and renews.
  std::unique_ptr<ParticleSource> source(const FramePlan& plan, Console& console, double thin, DrawLimits limits,
                                         GpuCopies& copies);

  int reads() const { return reads_; }                    // of the snapshot file
  int normalisations() const { return normalisations_; }  // again, from the values as read
  const LoadedSnapshot* loaded() const { return loaded_ ? &*loaded_ : nullptr; }
  // The pixels the splats of the last frame covered (estimated, where the GPU projected them).
  double splat_pixels() const { return splat_pixels_; }

 private:
  friend class HeldSource;
  std::string input_keys_, normalization_;  // what the held snapshot was read and normalised with
  std::optional<LoadedSnapshot> loaded_;
  ParticleSet thinned_;  // the share for reduced frames, of the current normalisation
  double thinned_fraction_ = 1;
  int reads_ = 0, normalisations_ = 0;
  double splat_pixels_ = 0;
};

}  // namespace splotch
