// The host/GPU split of a GPU render (docs/design.md section 5): with a_eq_e the splats whose footprint
// would not fit a Btile (beyond_boundary(), splotch/splat/splat_maths.h) are drawn by the host
// renderer on CPU threads, straight into the image, while the GPU draws the rest; the GPU's image
// is added at the end. With a_eq_e = FALSE every splat goes to the GPU (compositing needs each
// pixel's splats in one order). cuda/ draws; this decides who draws what.
#pragma once

#include "cuda/cuda_renderer.h"
#include "io/image.h"
#include "splotch/splat/splat_view.h"

namespace splotch {

// Draws every splat into `image` as render_host() does. `splats.tile_start` is not used (the CPU
// threads' part is a subset of the splats). Errors as render_cuda().
CudaReport render_gpu(const SplatView& splats, const CudaOptions& options, Image& image,
                      CudaSession* session = nullptr);

}  // namespace splotch
