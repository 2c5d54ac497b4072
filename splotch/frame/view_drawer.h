// What draws a frame's views once splotch/frame/renderer_decision.h has settled the renderer: the
// host renderer, or the GPU through its session. A drawer is what the choice returns, so no view
// can be drawn before the renderer is chosen, nor on a GPU that was not started.
#pragma once

#include <vector>

#include "cuda/device_particles.h"
#include "io/image.h"
#include "splotch/frame/run_report.h"
#include "splotch/settings/settings.h"
#include "splotch/splat/splat_view.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/geometry.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;

class ViewDrawer {
 public:
  // `gpu` null: the host draws. `settings` (the frame's plan) outlives the drawer.
  ViewDrawer(const Settings& settings, CudaSession* gpu) : settings_(settings), gpu_(gpu) {}

  bool on_gpu() const { return gpu_ != nullptr; }
  // The GPU's session (on_gpu() only: std::logic_error otherwise).
  CudaSession& gpu() const;
  // Draws the splats: added to `image` (a_eq_e) or composited over it. The GPU's part goes to the
  // report.
  void draw(const SplatView& view, const RenderOptions& options, Image& image, RunReport& report,
            Console& console) const;
  // On the GPU only: a view of particles kept there (render_gpu_particles(),
  // splotch/render/gpu_particles.h), drawn as draw() draws splats.
  void draw_kept(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                 const std::vector<TypeColour>& looks, const RenderOptions& options, Image& image, RunReport& report,
                 Console& console) const;
  // On the GPU only: this process's range of the draw order of such a view, as a layer, the GPUs of
  // `comm` splitting it (render_gpu_split(), splotch/frame/gpu_split.h).
  void draw_kept_split(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                       const std::vector<TypeColour>& looks, const RenderOptions& options, const Comm& comm, int width,
                       int height, float* layer, RunReport& report, Console& console) const;

 private:
  CudaOptions cuda_options(const RenderOptions& options) const;
  void report_gpu(const CudaOptions& cuda, const CudaReport& drawn, RunReport& report, Console& console) const;

  const Settings& settings_;
  CudaSession* gpu_;
};

}  // namespace splotch
