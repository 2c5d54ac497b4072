// What the frames of one run share, held by the caller that runs them (main for a single frame,
// the scene runner, the server) and handed to each frame (splotch/frame/pipeline.h): the GPU's
// start, made by the first frame that wants it; the particles copied to the GPU; a scene's
// snapshots (the one its frames draw and the one read ahead); the turns in which a node's
// processes read, where frames are dealt out; renderer = auto's finding that the GPU does not pay
// over the frames left; and the memory a run leaves to the process's end.
#pragma once

#include <memory>
#include <optional>

#include "splotch/load/snapshot_cache.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/render/gpu_startup.h"

namespace splotch {

class RenderSession {
 public:
  RenderSession() = default;
  RenderSession(const RenderSession&) = delete;
  RenderSession& operator=(const RenderSession&) = delete;

  // The GPU's start: none until a frame chooses the GPU (renderer = cuda, or auto where it pays).
  std::optional<GpuStartup>& gpu() { return gpu_; }
  // The particles copied to the GPU (the GPU's session they were copied with is gpu()'s).
  GpuCopies& gpu_copies() { return copies_; }

  // The snapshots a scene keeps from frame to frame (null: each frame reads its own and gives
  // its particles up as it projects them). keep_snapshots() makes it.
  SnapshotCache* cache() { return cache_.get(); }
  SnapshotCache& keep_snapshots();
  // No snapshots kept from here on (those kept freed): frames read their own again.
  void drop_snapshots() { cache_.reset(); }

  // Frames dealt out to the processes of an MPI run: the first read of a process waits for its
  // node's processes before it (taking their threads for it), and its turn passes to the next one
  // once it has read its particles (none: no turns). take_read_turns() makes them.
  NodeTurns* read_turns() { return read_turns_ ? &*read_turns_ : nullptr; }
  void take_read_turns(const Comm& comm) { read_turns_.emplace(comm); }
  void end_read_turns() { read_turns_.reset(); }

  // renderer = auto: the first frame that finds starting the GPU would not pay over the frames
  // left says so here, and the run's later ones (a scene's: fewer frames, the same snapshots as a
  // rule; the server's pictures, whose renderer the first settles) take the host without reading
  // the headers again.
  bool gpu_declined() const { return gpu_declined_; }
  void decline_gpu() { gpu_declined_ = true; }

  // Memory a frame is done with (its particles on the host, drawn on the GPU), kept until the
  // session ends instead of freed at the frame's end: a run that ends without waiting for the
  // GPU's teardown (splotch/app/process_end.h) need not wait for its release either (10 to 20 ms
  // for 10^8 particles). Replaces what was kept before.
  void keep_until_end(std::shared_ptr<void> memory) { kept_ = std::move(memory); }
  const std::shared_ptr<void>& kept_until_end() const { return kept_; }

 private:
  // Declared in the order they must outlive each other: the copies on the GPU go first, the GPU's
  // start (whose session they were made on) last.
  std::optional<GpuStartup> gpu_;
  std::unique_ptr<SnapshotCache> cache_;
  std::optional<NodeTurns> read_turns_;
  std::shared_ptr<void> kept_;
  GpuCopies copies_;
  bool gpu_declined_ = false;
};

}  // namespace splotch
