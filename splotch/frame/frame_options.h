// What the caller of a frame (splotch/frame/pipeline.h) says of it: which frame it is, and how it
// is drawn. What the frames of a run share is the caller's RenderSession
// (splotch/frame/render_session.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace splotch {

class Comm;
struct ColumnSnapshot;

// Which frame a run renders: its number (the image's name), whether it is a frame of a scene file,
// and whether an existing image is left alone (resume).
struct FrameOptions {
  int number = 0;
  bool in_scene = false;
  bool resume = false;
  bool warn_unused = true;  // the scene runner warns once, not per frame
  // The processes of an MPI run: with more than one, each reads its share of the particles and
  // draws it (a_eq_e) or its range of the draw order (a_eq_e = FALSE), and rank 0 sums or
  // composites the images and writes the picture (a scene's cache holds the shares then).
  const Comm* comm = nullptr;
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
  // Set while the frame draws: the picture is no longer wanted (the server's view superseded or
  // its browser gone). The host renderer leaves its tiles not yet begun; the caller, which set it,
  // drops the picture.
  const std::atomic<bool>* stop = nullptr;
  // The finished pictures are kept for the caller (FrameRun::take_pictures: the server sends them
  // to a browser) instead of written.
  bool keep_pictures = false;
  // A kept map comes with its figure (KeptMap::figure: the Python module's); false: its values
  // alone (the server shows them through a palette of its own, splotch/serve/map_view.h).
  bool map_figures = true;
  // The particles a caller holds in memory (io/memory_arrays.h), drawn instead of a file; the
  // caller's session keeps the snapshot (RenderSession::keep_snapshots), so that no stage writes
  // to them.
  std::shared_ptr<const ColumnSnapshot> arrays;
};

}  // namespace splotch
