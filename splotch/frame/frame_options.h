// What the caller of render_frame (splotch/frame/pipeline.h) says of the frame: which it is, and
// what the frames of a scene or the processes of an MPI run share.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace splotch {

class SnapshotCache;
struct KeptOnGpu;
class GpuStartup;
class Comm;
class NodeTurns;
class ParticleSource;
class ParamFile;
class Console;
struct FramePlan;
struct Settings;
struct Image;
struct NormalizedRanges;

// Which frame a run renders: its number (the image's name), whether it is a frame of a scene file,
// and whether an existing image is left alone (resume). A scene also passes what its frames share.
struct FrameOptions {
  int number = 0;
  bool in_scene = false;
  bool resume = false;
  bool warn_unused = true;  // the scene runner warns once, not per frame
  // The snapshot of the frame before and the one read ahead (null: read, and render from the
  // particles' own arrays).
  SnapshotCache* cache = nullptr;
  // The scene's copy of its kept snapshot on the GPU (null: none is kept there).
  KeptOnGpu* kept_on_gpu = nullptr;
  // The GPU's start, made by the first frame that wants it and kept for the others (null: a
  // start of the frame's own).
  std::optional<GpuStartup>* gpu = nullptr;
  // Called once the frame has its particles, before it renders, with their signature, bytes and
  // the seconds loading them took (wherever it ran): the scene runner starts reading a later
  // snapshot then.
  std::function<void(const std::string& signature, std::size_t bytes, double seconds)> loaded;
  // The processes of an MPI run: with more than one, each reads its share of the particles and
  // draws it (a_eq_e) or its range of the draw order (a_eq_e = FALSE), and rank 0 sums or
  // composites the images and writes the picture (the cache is not used then).
  const Comm* comm = nullptr;
  // Frames dealt out to the processes of an MPI run: the first read of a process waits for its
  // node's processes before it (taking their threads for it), and its turn passes to the next
  // one once it has read its particles (null: no turns).
  NodeTurns* read_turn = nullptr;
  // renderer = auto in a scene: set by the first frame that finds starting the GPU would not pay
  // over the frames left, so that the later ones (fewer frames, the same snapshots as a rule) take
  // the host without reading the headers again (null: a single frame).
  bool* gpu_declined = nullptr;
  // The frames this process renders in the run, this one included (a scene's frames from this one
  // on): renderer = auto weighs the GPU's start against what it saves over them.
  int frames = 1;
  // The GPU of this process among those it sees (Comm::gpu_index, one GPU per MPI process; 0 where
  // it sees its own alone, see_own_gpu_only).
  int device = 0;
  // With `comm` of several processes: whether a model of the frame's time decides that rank 0
  // draws it alone (splotch/render/share_cost.h; mpi_mode = auto of a single frame), the others
  // then leaving it at once; false: every process draws its share.
  bool share_by_model = false;
  // A single frame's particles copied to the GPU: a view's working memory there holds at most this
  // many of them at a time (0: as its free memory allows; tests set it).
  std::size_t gpu_window = 0;
  // Given the frame's particles (on the host and the GPU) once its pictures are written, when they
  // were drawn on the GPU of `gpu` (set), instead of freeing them then (null: freed): a run that
  // ends without waiting for the GPU's teardown (splotch/app/process_end.h) need not wait for
  // their release either (10 to 20 ms for 10^8). The memory holds nothing of the frame's
  // (ParticleSource::take_memory), so it may outlive the frame's plan and console; it must not
  // outlive `gpu`, whose session its GPU copy was made on.
  std::function<void(std::shared_ptr<void> particles)> retain;
  // Set while the frame draws: the picture is no longer wanted (the server's view superseded or
  // its browser gone). The host renderer leaves its tiles not yet begun; the caller, which set it,
  // drops the picture.
  const std::atomic<bool>* stop = nullptr;
  // The frame's particles from the caller, which keeps them (the server, splotch/serve); null:
  // from the file, a scene's cache or an MPI share (splotch/frame/particle_source.h).
  std::function<std::unique_ptr<ParticleSource>(const FramePlan& plan, Console& console)> source;
  // The finished picture handed to the caller instead of written (the server sends it to a
  // browser), with its view's settings and the run's record (used.par); null: written.
  std::function<void(const Image& image, const Settings& view, const ParamFile& params, const NormalizedRanges& ranges)>
      deliver;
};

}  // namespace splotch
