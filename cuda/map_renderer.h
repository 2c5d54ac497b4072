// The GPU's map drawer (docs/maps.md): draw_map_host's sums (splotch/render/host_map.h) drawn on a
// GPU from the same splats and the same per-pixel arithmetic (splotch/splat/map_kernel.h).
//
// A thread draws each splat of at most 16 pixels (most of a large snapshot's particles cover one to
// four), a warp each larger one, its lanes the pixels of its support (the particles kept on the
// GPU: their threads make the splats, and set the large ones aside for the warps after them). The
// sums are 64-bit integers, in
// fixed point at a scale per plane that the splats' weights bound (no pixel can exceed the sum of
// |w| times a splat's largest share of one pixel): integer additions give the same map whatever
// the order the GPU runs them in, and the rounding of each contribution is 2^-63 of that bound,
// far below the float the host adds. The host evaluates the kernel's tables in other forms (docs/maps.md):
// tests/gpu/test_map_gpu.cc holds the two within the bounds.
#pragma once

#include "cuda/device_particles.h"
#include "splotch/splat/map_copies.h"
#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"

namespace splotch {

// Adds `splats` to `sums` on GPU `device`. Throws std::runtime_error where the GPU fails, lacks the
// memory, or the weights have no finite bound; the caller draws on the host then.
void draw_map_cuda(const MapSplats& splats, MapMode mode, const MapKernelTables& tables, MapSums& sums, int device);

// The same map from particles kept on the GPU (splotch/render/gpu_copies.h): their splats made
// there (splotch/splat/map_copies.h, as the host's map stage makes them) and drawn as they are
// made, so that nothing but the map's sums crosses to the host. Each particle's support is
// `support_factor` times its smoothing length. Throws as draw_map_cuda does.
void draw_map_cuda_kept(const DeviceParticles::Fields& particles, const MapProjection& projection,
                        double support_factor, const MapKernelTables& tables, MapSums& sums);

}  // namespace splotch
