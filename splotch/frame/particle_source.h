// Where a frame's particles come from, behind one interface: the snapshot file, read by this
// process for this frame; a scene's cache (the particles the frame before used, or those read
// ahead in the background, kept for the frames after); or, in an MPI run, this process's share
// of the file. Each checks before a read that it fits in memory, and fills the report's counts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "splotch/frame/frame_plan.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/run_report.h"
#include "splotch/frame/splat_steps.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/stages/framing.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;

// What a view would copy to the GPU to draw from (ParticleSource::for_gpu): the particles, and
// the name of their copy in the run's GpuCopies (splotch/render/gpu_copies.h).
struct GpuParticles {
  GpuCopyKey key;
  const ParticleSet* particles = nullptr;
};

// The snapshot a scene's frame loaded through its cache (an interpolated frame: the second of its
// two): its signature, its bytes and the seconds its loading took, wherever it ran. The scene reads
// a later snapshot in the background then (splotch/scene/scene_run.h).
struct SnapshotLoaded {
  std::string signature;
  std::size_t bytes = 0;
  double seconds = 0;
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
  // Loads the particles (or takes them as they are kept): the stages read, hsml, normalize. What
  // a scene's cache gave, where the source loads through one.
  virtual std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) = 0;
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
  // The particles as loaded (a map draws from them as they are: splotch/frame/map_frame.h).
  virtual const ParticleSet& particles() const = 0;
  // What a view copies to the GPU to draw from, with the GPU chosen; `geometry` gets the preview
  // share they are. None: the source offers none (a frame between snapshots), and the frame's
  // stages run on the host.
  virtual std::optional<GpuParticles> for_gpu(GeometryOptions& /*geometry*/) { return std::nullopt; }
  // The memory this source owns (its particles, on the host and the GPU), handed over whole so
  // that the run's session keeps it to the end (RenderSession::keep_until_end); the source keeps no
  // part of it and nothing of the frame's (its plan, its console). Null where it owns none of its
  // own.
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

// The particles the headers of both snapshots of a frame between two promise; none where either
// cannot be counted.
std::optional<std::uint64_t> particles_of_both(const Settings& s);

// What a frame between snapshots `a` and `b` warns of (interpolation_mode = 2 without time between
// them) and notes (how their times were taken).
void interpolation_notes(const InterpolationSettings& in, const ParticleSet& a, const ParticleSet& b, Console& console,
                         RunReport& report);

// What the report says of a frame between two snapshots: their numbers, the fraction, the
// particles matched and those of one snapshot alone.
void report_between(const InterpolationSettings& in, const InterpolationCounts& counts, RunReport& report);

// Why a frame reading `input` cannot be drawn by `processes` MPI processes each holding a share of
// the particles (smoothing lengths estimated from the nearest neighbours, which a share does not
// hold); "" where it can.
std::string share_obstacle(const SnapshotRequest& input, int processes);

// The source of the frame's particles: this process's share when `comm` has several (kept in
// `cache` where given), the cache where given (a scene's), else the file. A source through the
// cache frees the copies on the GPU (`copies`) of other snapshots than its own as it loads.
// `plan`, `cache`, `copies` and `console` outlive the source.
std::unique_ptr<ParticleSource> particle_source(const FramePlan& plan, SnapshotCache* cache, GpuCopies& copies,
                                                const Comm* comm, Console& console);

}  // namespace splotch
