// Particles copied to GPU memory and kept there from view to view (a frame's, a scene's snapshot,
// the server's), and the whole frame of a view drawn from them on the GPU: geometry (project_particle(),
// splotch/splat/projection.h), colour (the type's palette, or its vector colour), the draw keys,
// and the render, so that per view only the camera and the looks go down and only the image (and
// the few splats too wide for a Btile) come up. Plain C++; the kernels are in device_particles.cu.
//
// The host's stages do the same work on the host's arrays (splotch/stages/geometry.h, colour.h,
// sort.h); the GPU's projection is the same float arithmetic, so a splat lands on the same pixels
// within a rounding, and pictures agree within what tests/test_device_particles.cc allows.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_renderer.h"
#include "io/image.h"
#include "io/palette.h"
#include "io/particle_set.h"
#include "splotch/splat/draw_key.h"
#include "splotch/splat/projection.h"
#include "splotch/splat/splat_view.h"

namespace splotch {

// How the particles of one type look: the colour stage's palette or vector colour and brightness,
// and the geometry's smooth_factor.
struct DeviceTypeLook {
  bool vector_colour = false;
  const Palette* palette = nullptr;  // required when !vector_colour
  float brightness = 1;
  float smooth = 1;
};

// One view of the particles.
struct DeviceView {
  ProjectionConstants projection;     // perspective or orthographic (not the dome's)
  std::vector<DeviceTypeLook> types;  // by type number
  bool wrap = false;                  // a periodic box (the particles' box_size) wrapped about wrap_centre
  double wrap_centre[3] = {0, 0, 0};
  SortOrder sort = SortOrder::depth;  // the draw order of a_eq_e = FALSE
  // a_eq_e = FALSE: splats of equal keys are drawn as the host's stages leave them, by the tile of
  // their centre in tiles of this many pixels (splotch/stages/tile_order.h), then in particle
  // order; 0: in particle order.
  int tie_tile_size = 0;
  // Whether the host's Palette::at interpolates with a fused multiply-add (its build's target has
  // one): the GPU's colours are then computed so too, and agree with the host's bit for bit.
  bool fused_palette = false;
};

class DeviceParticles {
 public:
  // Copies the fields a view needs (positions, hsml, intensity, colours, types) to the session's
  // device, with the working memory of a view beside them: for all of them where these take at
  // most half the device's free memory, else for a window of as many as fit (10^9 particles on an
  // 80 GB GPU: views are then drawn a window at a time, see device_particles.cu). `window` (0:
  // none) bounds it. Null, with `why`, when not even a narrow window fits beside the fields (the
  // caller draws on the host's path then).
  static std::unique_ptr<DeviceParticles> upload(const ParticleSet& particles, CudaSession& session,
                                                 std::string* why = nullptr, std::size_t window = 0);
  ~DeviceParticles();
  DeviceParticles(const DeviceParticles&) = delete;
  DeviceParticles& operator=(const DeviceParticles&) = delete;

  // The intensities and colours copied again (normalised anew; the same particles, unmoved).
  void refresh_values(const ParticleSet& particles);
  std::size_t size() const;
  std::size_t window() const;  // the particles a view's working memory holds (size(): all)
  double device_mib() const;   // what they and their working memory take

  struct Memory;  // defined by the CUDA code
  Memory& memory() { return *memory_; }

 private:
  explicit DeviceParticles(std::unique_ptr<Memory> memory);
  std::unique_ptr<Memory> memory_;
};

// Draws `view` of the particles into `image` (cleared or not, as render_cuda: with a_eq_e added,
// else composited over it). With a_eq_e the splats whose footprint is beyond the Btile boundary
// are drawn on the GPU tile by tile (CudaOptions::large_on_gpu; report.large_on_gpu of them), or
// come back to the host: `beyond` draws them into `image` on a thread of its own while the GPU
// draws the rest, whose image is added when both are done (as render_gpu() splits a render).
// The report's on_gpu + on_host are the splats in view.
using DrawBeyond = std::function<void(const SplatView& beyond)>;
CudaReport render_particles_cuda(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                                 Image& image, CudaSession& session, const DrawBeyond& beyond);

}  // namespace splotch
