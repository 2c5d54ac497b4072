// A view drawn from particles kept on the GPU (cuda/device_particles.h), given the stages'
// options: the geometry's camera, smooth factors and preview share, the colour stage's looks, the
// sort stage's order. The splats beyond the Btile boundary (a_eq_e) come back and are drawn by the
// host renderer, as render_gpu() splits a render.
#pragma once

#include <vector>

#include "cuda/cuda_renderer.h"
#include "cuda/device_particles.h"
#include "io/image.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/sort.h"

namespace splotch {

// Whether a view of this camera can be drawn from particles on the GPU (not the dome's fisheye,
// which only the host projects).
inline bool gpu_projects(const Camera& camera) { return !camera.dome; }

// The view as the GPU's stages take it (the device's projection, looks, wrap and order).
DeviceView device_view(const GeometryOptions& geometry, bool wrap, const std::vector<TypeColour>& looks, SortOrder sort,
                       const CudaOptions& options);

// Draws the view into `image` as the host's stages and render_gpu() would: `wrap` wraps a
// periodic box about geometry.wrap_about(). The report's on_gpu + on_host are the splats in view.
CudaReport render_gpu_particles(DeviceParticles& particles, const GeometryOptions& geometry, bool wrap,
                                const std::vector<TypeColour>& looks, SortOrder sort, const CudaOptions& options,
                                Image& image, CudaSession& session);

}  // namespace splotch
