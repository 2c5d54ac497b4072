// The server's snapshot (bin/splotch --serve): read once, by the first frame, and kept with its
// intensities and colours as read, so that a browser's change of a type's range or log/asinh
// normalises it again (a pass over two or four fields) instead of reading the file again; and a
// share of it for reduced frames (the preview's choice of particles and look,
// splotch/load/preview_subset.h), made once per normalisation.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cuda/device_particles.h"
#include "io/particle_set.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/particle_source.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/util/console.h"

namespace splotch {

// What a frame drawn from the held snapshot asks its caller between its steps (a browser's
// picture): whether it is still wanted (else still_wanted throws, before the read or
// normalisation, the projection and the upload to the GPU), and whether the pixels its splats
// cover are within what it may take (else `work` throws), once they are known: after the
// projection, or before a GPU projects them, estimated from a sample.
struct DrawChecks {
  std::function<void()> still_wanted;
  std::function<void(double splat_pixels)> work;
};

class HeldSnapshot {
 public:
  // The source of a frame's particles: this snapshot, read if the frame's input keys are not
  // those it was read with, normalised as the frame asks, and thinned to `thin` of its particles
  // (1: all of them; a .par that asks for a preview itself, boost_fraction, is drawn as it asks).
  std::unique_ptr<ParticleSource> source(const FramePlan& plan, Console& console, double thin, DrawChecks checks = {});

  int reads() const { return reads_; }                    // of the snapshot file
  int normalisations() const { return normalisations_; }  // again, from the values as read
  const LoadedSnapshot* loaded() const { return loaded_ ? &*loaded_ : nullptr; }

 private:
  friend class HeldSource;
  void drop_share() {
    on_gpu_share_.reset();
    thinned_ = ParticleSet();
    thinned_fraction_ = 1;
  }
  std::string input_keys_, normalization_;  // what the held snapshot was read and normalised with
  std::optional<LoadedSnapshot> loaded_;
  ParticleSet thinned_;  // the share for reduced frames, of the current normalisation
  double thinned_fraction_ = 1;
  // Their copies on the GPU (the GPU chosen to draw), made when first drawn; the refusals say why
  // one could not be (then its views take the host's stages, said once), until the next read.
  std::unique_ptr<DeviceParticles> on_gpu_, on_gpu_share_;
  std::string gpu_refused_, gpu_share_refused_;
  int reads_ = 0, normalisations_ = 0;
};

}  // namespace splotch
