// The GPU renderer (DESIGN.md section 5), as plain C++ so that g++ code can call it; the CUDA
// code stays in .cu files. Built when the Makefile finds nvcc (CUDA=0 leaves it out: then
// cuda_device_present() says so and render_cuda() is never called).
//
// Btile (seed 004, Algorithm B): the image is cut into tiles of tile_x x tile_y pixels; each
// splat whose footprint radius (0.75 r) is at most `boundary` pixels belongs to the tile holding
// its centre, so that its whole footprint lies within that tile grown by `boundary` pixels on
// every side (the Btile). One thread block per tile accumulates its splats in shared memory and
// adds the Btile to the image. Larger splats are rendered by the host renderer on CPU threads
// while the GPU works, into an image of their own, and the images are added.
#pragma once

#include <cstddef>
#include <string>

#include "io/image.h"
#include "splotch/host_renderer.h"

namespace splotch {

struct CudaOptions {
  int tile_x = 32, tile_y = 32;  // Btile interior, pixels
  int boundary = 8;              // pixels; splats with a larger footprint radius render on the host
  RenderOptions host;            // for the splats rendered on the host
};

struct CudaReport {
  std::size_t on_gpu = 0, on_host = 0;  // splats drawn by each
};

// Whether a CUDA device this build can use is present; if not, `why` (when given) says why.
bool cuda_device_present(std::string* why = nullptr);

// Adds the splats (a_eq_e only, for now) to `image`. Errors of the CUDA runtime are thrown as
// std::runtime_error naming the call, file and line.
CudaReport render_cuda(const SplatView& splats, const CudaOptions& options, Image& image);

}  // namespace splotch
