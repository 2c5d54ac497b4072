// a_eq_e = FALSE drawn by the GPUs of several MPI processes of one node, from the particles each
// keeps on its GPU: the draw order's ranges come from the draw keys counted on the GPUs
// (key_splitters(), splotch/mpi/draw_order_split.h), each process's splats go GPU to GPU to the
// process whose range holds them (CUDA IPC), and each draws its range as a layer there; the layers
// are composited as those of the host's split are (LayersOnRoot, splotch/frame/image_combine.h).
// The host's split (draw_order_split.h) passed the splats through host memory and MPI instead:
// 1.4 s for 10^8 particles on 2 GPUs, against a frame of 0.7 s on one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_renderer.h"
#include "cuda/device_particles.h"
#include "io/image.h"
#include "splotch/mpi/comm.h"
#include "splotch/mpi/draw_order_split.h"

namespace splotch {

// This process's draw keys counted on its GPU for key_splitters(): the keys of the particles in
// view (`particles` and `failure` must outlive the counts; the view is copied). A failure (out of GPU memory) goes to
// `failure`, and the counts after it are zero, so that every process takes the search's collective steps.
KeyCounts gpu_key_counts(DeviceParticles& particles, const DeviceView& view, std::string& failure);

// Whether the processes of `comm` may split the draw order on their GPUs: all on one node (CUDA
// IPC reaches no further) and the draw order by key (sort_type 0 goes by position). The same on
// every process.
bool gpus_may_split(const Comm& comm, SortOrder sort);

// Draws this process's range of the draw order of `view` (a_eq_e = FALSE's `options`) as a layer
// of width x height pixels into `layer` (draw_split(), cuda/device_particles.h). Collective.
// A failure on any process (out of GPU memory, CUDA IPC refused) is every process's
// std::runtime_error, for the caller to draw the view through the host's stages instead. The
// parts' times go to `parts`.
CudaReport render_gpu_split(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                            const Comm& comm, int width, int height, float* layer,
                            std::vector<std::pair<std::string, double>>& parts);

}  // namespace splotch
