// Where a frame's particles come from, behind one interface: the snapshot file, read by this
// process for this frame; a scene's cache (the particles the frame before used, or those read
// ahead in the background, kept for the frames after); or, in an MPI run, this process's share
// of the file. Each checks before a read that it fits in memory, and fills the report's counts.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cuda/cuda_renderer.h"
#include "cuda/device_particles.h"
#include "splotch/frame/frame_options.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/run_report.h"
#include "splotch/frame/splat_steps.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/stages/framing.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;

// A scene's copy on the GPU of the snapshot its cache keeps (FrameOptions::kept_on_gpu): made by
// the first frame that draws that snapshot on the GPU, so that its frames' geometry, colour and
// ordering run there.
struct KeptOnGpu {
  std::string signature;  // of the snapshot copied
  std::unique_ptr<DeviceParticles> particles;
  // Why the snapshot of `refused_signature` could not be kept (said once; its frames' stages stay
  // on the host; another snapshot is tried again).
  std::string refused, refused_signature;
};

class ParticleSource {
 public:
  virtual ~ParticleSource() = default;
  // The particles the headers promise to this process, counted when first asked; none when they
  // cannot be counted.
  std::optional<std::uint64_t> particles_to_read() {
    if (!counted_) counted_ = count();
    return *counted_;
  }
  // Loads the particles (or takes them as they are kept): the stages read, hsml, normalize.
  virtual void load(StageClock& clock, RunReport& report) = 0;
  // The bounding box of the particles of every process.
  virtual BoundingBox box() const = 0;
  // What a camera placed from the data frames (splotch/stages/camera_placement.h), of the
  // particles of every process; by default their whole box.
  virtual Framing framing() const { return Framing::of_box(box(), 0); }
  // The colour and intensity ranges found and used, per type.
  virtual NormalizedRanges ranges() const = 0;
  // The particles projected by `geometry`: their own arrays given up where nothing keeps them,
  // unless `keep` (a later view of the frame projects them again).
  virtual ProjectedSplats project(const GeometryOptions& geometry, bool keep) = 0;
  // The particles copied to the GPU (uploaded when first asked: a single frame's, a scene's
  // snapshot, the server's), on the GPU `session` gives (null: the frame draws on the host);
  // `geometry` gets the preview share they are. Null: the source copies none there, or they do
  // not fit (said once), and the frame's stages run on the host.
  virtual DeviceParticles* on_gpu(const std::function<CudaSession*()>& /*session*/, GeometryOptions& /*geometry*/,
                                  Console& /*console*/) {
    return nullptr;
  }
  // Drawing from the copy on_gpu() gave failed (`why`: out of GPU memory, say): the copy goes, it
  // is not made again for these particles, and `console` hears it once.
  virtual void gpu_failed(const std::string& /*why*/, Console& /*console*/) {}
  // The other MPI processes could not draw from copies on their GPUs: this one's copy goes, without
  // a warning, and later views are not copied up again.
  virtual void gpu_declined() {}
  // The memory this source owns (its particles, on the host and the GPU), handed over whole so
  // that the caller frees it when it likes (FrameOptions::retain); the source keeps no part of it
  // and nothing of the frame's (its plan, its console). Null where it owns none of its own.
  virtual std::shared_ptr<void> take_memory() { return nullptr; }

 protected:
  virtual std::optional<std::uint64_t> count() = 0;
  void set_count(std::optional<std::uint64_t> n) { counted_ = n; }

 private:
  std::optional<std::optional<std::uint64_t>> counted_;
};

// What a frame of these settings needs in memory per particle and for its image (splotch/frame/
// memory_need.h): `keeps_particles` where the particles outlive the frame (a scene's cache), and
// `extra_fields` of 4 bytes each beyond what the settings read.
MemoryShape memory_shape(const Settings& s, bool keeps_particles = false, int extra_fields = 0);

// Whether the run fits in memory, from the particles the headers promise (a warning when it
// takes most of it, an error when not). `keeps_particles`: a scene (or the server) keeps them for
// later frames; `extra_fields`: floats per particle kept besides (the server's values as read).
void check_memory_before_read(const FramePlan& plan, ParticleSource& source, bool keeps_particles, const Comm* comm,
                              Console& console, int extra_fields = 0);

// Why a frame reading `input` cannot be drawn by `processes` MPI processes each holding a share of
// the particles (smoothing lengths estimated from the nearest neighbours, which a share does not
// hold); "" where it can.
std::string share_obstacle(const SnapshotRequest& input, int processes);

// The source of the frame's particles: the scene's cache when the frame has one (and the run one
// process), this process's share when `comm` has several, else the file. `plan` and `console`
// outlive the source.
std::unique_ptr<ParticleSource> particle_source(const FramePlan& plan, const FrameOptions& frame, const Comm* comm,
                                                Console& console);

}  // namespace splotch
