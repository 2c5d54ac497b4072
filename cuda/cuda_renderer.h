// The GPU renderer (DESIGN.md section 5), as plain C++ so that g++ code can call it; the CUDA
// code stays in .cu files. Built when the Makefile finds nvcc (CUDA=0 leaves it out: then
// cuda_device_present() says so and render_cuda() is never called).
//
// Btile (seed 004, Algorithm B): the image is cut into tiles of tile_x x tile_y pixels; each
// splat whose footprint radius (0.75 r) is at most `boundary` pixels belongs to the tile holding
// its centre, so that its whole footprint lies within that tile grown by `boundary` pixels on
// every side (the Btile). One thread block per tile accumulates its splats in shared memory and
// adds the Btile to the image. Larger splats are rendered by the host renderer on CPU threads
// while the GPU works, straight into the image, and the GPU's image is added to it at the end.
// The GPU's splats travel in chunks (`chunk_particles`), so device memory does not grow with N.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "io/image.h"
#include "splotch/host_renderer.h"

namespace splotch {

struct CudaOptions {
  int tile_x = 32, tile_y = 32;      // Btile interior, pixels
  // Pixels; splats with a larger footprint radius render on the host. 32 keeps nearly every splat
  // of a typical view on the GPU (with 8, a quarter of the benchmark's splats, and most of its
  // pixels, stayed on the host); its Btile, 96 x 96 x 3 floats, needs the shared memory of a GPU
  // of compute capability 8.0 or later.
  int boundary = 32;
  std::size_t chunk_particles = 0;   // splats per transfer; 0: from the free device memory
  RenderOptions host;                // for the splats rendered on the host
};

struct CudaReport {
  std::size_t on_gpu = 0, on_host = 0;   // splats drawn by each
  double gpu_seconds = 0, host_seconds = 0;  // wall time of each part (they overlap)
  std::size_t chunks = 0;                // transfers to the device
};

// Whether a CUDA device this build can use is present; if not, `why` (when given) says why.
bool cuda_device_present(std::string* why = nullptr);

// What render_cuda() needs before it can start and that costs time to get: the CUDA runtime
// started on the device (a tenth of a second or more) and the page-locked staging buffers through
// which the chunks go to the device and the image comes back (pinning memory runs at a few GB/s).
// A caller makes one while other work goes on (the pipeline, while it reads the snapshot) and
// passes it to every render_cuda() call (the frames of a scene); the buffers grow when a call
// needs more.
class CudaSession {
 public:
  // Starts the runtime and pins buffers for chunks of `chunk_particles` (0: the default chunk).
  explicit CudaSession(std::size_t chunk_particles);
  CudaSession();  // starts the runtime only
  ~CudaSession();
  CudaSession(const CudaSession&) = delete;
  CudaSession& operator=(const CudaSession&) = delete;

  struct Buffers;  // defined by the CUDA code
  Buffers& buffers() { return *buffers_; }

 private:
  std::unique_ptr<Buffers> buffers_;
};

// Adds the splats (a_eq_e only, for now) to `image`. Errors of the CUDA runtime are thrown as
// std::runtime_error naming the call, file and line. Without a session, one is made for the call.
CudaReport render_cuda(const SplatView& splats, const CudaOptions& options, Image& image,
                       CudaSession* session = nullptr);

}  // namespace splotch
