// The GPU renderer (docs/design.md section 5), as plain C++ so that g++ code can call it; the CUDA
// code stays in .cu files. Built when the Makefile finds nvcc (CUDA=0 leaves it out: then
// cuda_device_present() says so and render_cuda() is never called).
//
// Two algorithms (seed 004), chosen by CudaOptions::algorithm:
//   btile:    the image is cut into tiles of tile_x x tile_y pixels. With a_eq_e each splat whose
//             footprint radius (0.75 r) is at most `boundary` pixels belongs to the tile holding
//             its centre, so that its footprint lies within that tile grown by `boundary` pixels
//             on every side (the Btile); one thread block per tile accumulates its splats in
//             shared memory and adds the Btile to the image. With a_eq_e = FALSE each tile
//             composites, one thread per pixel, every splat touching it, in draw order.
//   fragment: a fragment per pixel of each footprint, sorted and combined by pixel.
// With a_eq_e the GPU leaves out the splats larger than the boundary (beyond_boundary(),
// splotch/splat/splat_maths.h): the caller draws them on CPU threads while the GPU works
// (splotch/render/gpu_render.h, which is what the rest of splotch calls), and the GPU's image is
// added at the end. With a_eq_e = FALSE every splat is drawn on the GPU: compositing is not
// additive, so a separate host part could not be combined with the GPU's.
// The splats travel in chunks (`chunk_particles`), so device memory does not grow with N; with
// a_eq_e = FALSE the chunks follow the draw order (splotch/splat/draw_order_chunks.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/image.h"
#include "splotch/splat/splat_view.h"

namespace splotch {

enum class CudaAlgorithm { btile, fragment };

struct CudaOptions {
  CudaAlgorithm algorithm = CudaAlgorithm::btile;
  int tile_x = 32, tile_y = 32;  // Btile interior, pixels
  // Pixels; splats with a larger footprint radius render on the host. 32 keeps nearly every splat
  // of a typical view on the GPU (with 8, a quarter of the benchmark's splats, and most of its
  // pixels, stayed on the host); its Btile, 96 x 96 x 3 floats, needs the shared memory of a GPU
  // of compute capability 8.0 or later.
  int boundary = 32;
  // When the Btile does not fit the GPU's shared memory: false, an error naming the keys (the user
  // chose the sizes); true, the boundary is narrowed until it fits (CudaReport::boundary says so).
  bool narrow_to_fit = false;
  std::size_t chunk_particles = 0;  // splats per transfer; 0: from the free device memory
  RenderOptions host;               // a_eq_e, gray absorption; the CPU threads' part's tile size
  // Work items per pass (fragments; tile-list entries with a_eq_e = FALSE); 0: from the free
  // device memory. Tests set it small to force many passes.
  std::size_t pass_items = 0;
  // With a_eq_e and the particles kept on the GPU (device_particles.h): the splats larger than the
  // boundary drawn on the GPU, tile by tile (true), or on CPU threads meanwhile (false, seed 004's
  // way). (Splats streamed from the host leave them to CPU threads either way.)
  bool large_on_gpu = true;
};

// As the parameter cuda_algorithm spells it.
inline const char* algorithm_name(CudaAlgorithm a) { return a == CudaAlgorithm::fragment ? "fragment" : "btile"; }

struct CudaReport {
  std::size_t on_gpu = 0, on_host = 0;       // splats drawn by each
  std::size_t large_on_gpu = 0;              // of on_gpu: those beyond the boundary, drawn tile by tile
  double gpu_seconds = 0, host_seconds = 0;  // wall time of each part (they overlap)
  // The GPU part's pieces, summed over chunks (uploads overlap kernels): copying chunks to the
  // device, and the kernels drawing them.
  double upload_seconds = 0, kernel_seconds = 0;
  // Particles kept on the device (device_particles.h): projected there, and the kernels of
  // geometry, colour and the choice of the splats in view, before the drawing (not in
  // kernel_seconds).
  bool geometry_on_gpu = false;
  double geometry_seconds = 0;
  // Of those: the particles a view's working memory held at a time, when fewer than all (0).
  std::size_t window = 0;
  // Chunks copied to the device; with particles kept there, the windows (or the slabs of the
  // draw order) drawn in turn, 0 when all fit at once.
  std::size_t chunks = 0;
  double device_mib = 0;  // device memory in use at the end of the GPU part (all of it)
  int boundary = -1;      // the Btile boundary used, when narrowed to fit; else -1
  std::string bus_id;     // the GPU's PCI bus id (CudaSession::bus_id)
};

// Bytes of shared memory a Btile takes: 3 sums of 32 bits per pixel of the tile grown by the
// boundary (cuda/btile_renderer.cu).
inline std::size_t btile_bytes(int tile_x, int tile_y, int boundary) {
  return std::size_t(3) * std::size_t(tile_x + 2 * boundary) * std::size_t(tile_y + 2 * boundary) *
         sizeof(std::int32_t);
}

// The widest Btile boundary, at most `boundary`, with which a Btile of tile_x x tile_y pixels
// fits in `bytes`; -1 when none does.
inline int widest_boundary_fitting(int tile_x, int tile_y, int boundary, std::size_t bytes) {
  for (int b = boundary; b >= 0; --b)
    if (btile_bytes(tile_x, tile_y, b) <= bytes) return b;
  return -1;
}

// Whether CUDA device `device` (0, 1, ... of those visible) is present and this build can use it;
// if not, `why` (when given) says why. Its memory, bytes, goes to `memory` (when given; no
// context is made for it).
bool cuda_device_present(std::string* why = nullptr, int device = 0, std::size_t* memory = nullptr);

// What render_cuda() needs before it can start and that costs time to get: the CUDA runtime
// started on the device (a tenth of a second or more), the page-locked staging buffers through
// which the chunks go to the device and the image comes back (pinning memory runs at a few GB/s),
// and the render's two streams (copies, kernels). A caller makes one while other work goes on
// (the pipeline, while it reads the snapshot) and passes it to every render_cuda() call (the
// frames of a scene), one call at a time; the buffers grow when a call needs more.
class CudaSession {
 public:
  // Starts the runtime on `device` and pins buffers for chunks of `chunk_particles` (0: the
  // default chunk). render_cuda() renders on the session's device, from whichever thread.
  explicit CudaSession(std::size_t chunk_particles, int device = 0);
  CudaSession();  // starts the runtime on device 0 only

  ~CudaSession();
  CudaSession(const CudaSession&) = delete;
  CudaSession& operator=(const CudaSession&) = delete;

  struct Resources;  // its streams and staging buffers, defined by the CUDA code
  Resources& resources() { return *resources_; }
  int device() const { return device_; }
  // The device's PCI bus id ("0000:1b:00.0"): which GPU this is, the same in every process of a
  // node whatever each process sees (CUDA_VISIBLE_DEVICES renumbers the devices).
  const std::string& bus_id() const { return bus_id_; }
  // Whether other processes may hold contexts on the device beside this one's (its compute mode
  // is the default): false in an exclusive mode, where a next run's context waits for this one's end.
  bool device_shared() const { return shared_; }

 private:
  int device_ = 0;
  bool shared_ = true;
  std::string bus_id_;
  std::unique_ptr<Resources> resources_;
};

// Work that a caller runs on a thread of its own while the GPU draws, given the Btile boundary in
// use (narrowed to fit, perhaps); it may write into the image, and has finished before the GPU's
// image is added to it. Returns nothing: the caller keeps what it wants to know.
using AlongsideGpu = std::function<void(int boundary)>;

// Draws the GPU's splats into `image` as render_host() does: with a_eq_e added to what it holds
// (the splats beyond the boundary left out, for `alongside`), otherwise composited over it in draw
// order (SplatView::key). Errors of the CUDA runtime are thrown as std::runtime_error naming the
// call, file and line. Without a session, one is made for the call. The report's on_gpu and
// on_host are the caller's to fill; host_seconds is the time `alongside` took.
CudaReport render_cuda(const SplatView& splats, const CudaOptions& options, Image& image,
                       CudaSession* session = nullptr, const AlongsideGpu& alongside = {});

}  // namespace splotch
