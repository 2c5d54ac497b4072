// Particles copied to the GPU, kept by the run for as long as they serve its views: the one place
// that copies particles up. A single frame's particles are copied once for its views; a scene's
// snapshot once for all the frames that draw it (an orbit, a fly-through); the server's snapshot
// and its reduced share once for every browser's pictures. Copying up costs a fraction of what
// the CPU's geometry, colour and ordering cost (10^8 particles on the H100 node: 0.06 s against
// 0.35 s), so a view whose particles are copied runs those stages on the GPU.
//
// One policy for all: copies of one snapshot at a time (asking for another's frees the old ones
// first, so that the new copy gets all the room); a copy of all the particles that does not fit
// beside the snapshot's other parts (the server's share) takes their room; a copy refused (too large even for a narrow
// window), failed while drawing, or given up (the other MPI processes could not copy theirs) is not tried again for
// that snapshot.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "cuda/cuda_renderer.h"
#include "cuda/device_particles.h"
#include "io/particle_set.h"

namespace splotch {

// Which copy: the snapshot's identity (its signature: the keys that chose it and its
// normalisation) and the part of it (all its particles, or the server's reduced share).
struct GpuCopyKey {
  std::string snapshot;
  std::string part = "all";
};

// What a request for a copy gave: the copy (null: the view takes the CPU's stages), and where it
// was refused just now, why (empty otherwise) and whether it is the run's first refusal (the one
// worth a warning: a scene of many snapshots too large would say it every frame).
struct GpuCopyAnswer {
  DeviceParticles* particles = nullptr;
  std::string refused;
  bool first_refusal = false;
};

class GpuCopies {
 public:
  GpuCopies() = default;
  GpuCopies(const GpuCopies&) = delete;
  GpuCopies& operator=(const GpuCopies&) = delete;

  // The copy of `particles` that `key` names, on `session`'s GPU: kept from before, or copied up
  // now (a view's working memory holding at most `window` particles at a time; 0: as the GPU's
  // free memory allows, DeviceParticles::upload).
  GpuCopyAnswer get(const GpuCopyKey& key, const ParticleSet& particles, CudaSession& session, std::size_t window = 0);
  // The copy goes, and is not made again for this snapshot (drawing from it failed, or the other
  // MPI processes could not make theirs).
  void give_up(const GpuCopyKey& key);
  // A part's copy goes (its particles on the host are to change: the server's share made anew).
  void drop(const GpuCopyKey& key);
  // The intensities and colours of the part's copy, if any, copied again from `particles` (the
  // same particles, normalised anew). A failure leaves no copy.
  void refresh_values(const GpuCopyKey& key, const ParticleSet& particles);
  // Every copy and every refusal goes (the run ends, or its snapshot changed).
  void clear();
  // The copies of snapshots other than `snapshot` go (a scene's frame has loaded another: their
  // GPU memory back at once, even where this frame copies nothing up).
  void keep_only(const std::string& snapshot) { keep_snapshot(snapshot); }

  bool holds(const GpuCopyKey& key) const;
  std::size_t copies() const;  // held now
  // Whether the copy was refused or given up before (asking again gives none).
  bool refused(const GpuCopyKey& key) const { return key.snapshot == snapshot_ && refused_.count(key.part) > 0; }

 private:
  void keep_snapshot(const std::string& snapshot);
  std::unique_ptr<DeviceParticles> upload(const ParticleSet& particles, CudaSession& session, std::size_t window,
                                          std::string& why);

  std::string snapshot_;
  std::map<std::string, std::unique_ptr<DeviceParticles>> copies_;  // by part
  std::map<std::string, std::string> refused_;                      // parts refused, and why
  bool refused_before_ = false;
};

}  // namespace splotch
