#include "splotch/frame/view_drawer.h"

#include <stdexcept>
#include <string>

#include "splotch/frame/gpu_split.h"
#include "splotch/render/gpu_particles.h"
#include "splotch/render/gpu_render.h"
#include "splotch/render/host_renderer.h"

namespace splotch {

CudaSession& ViewDrawer::gpu() const {
  if (!gpu_) throw std::logic_error("a view drawer of the host asked for the GPU's session");
  return *gpu_;
}

CudaOptions ViewDrawer::cuda_options(const RenderOptions& options) const {
  CudaOptions cuda = settings_.cuda;
  cuda.host = options;
  return cuda;
}

void ViewDrawer::report_gpu(const CudaOptions& cuda, const CudaReport& drawn, RunReport& report,
                            Console& console) const {
  report.gpu = drawn;
  report.gpu->bus_id = gpu().bus_id();
  if (drawn.boundary >= 0)
    console.warning("this GPU's shared memory is too small for a Btile with tile_boundary_width = " +
                    std::to_string(cuda.boundary) + ": narrowed to " + std::to_string(drawn.boundary) +
                    " (splats with a footprint radius above it render on the CPU; set tile_boundary_width to "
                    "choose)");
  report.renderer = std::string("cuda (") + algorithm_name(cuda.algorithm) + ")";
}

void ViewDrawer::draw(const SplatView& view, const RenderOptions& options, Image& image, RunReport& report,
                      Console& console) const {
  if (gpu_) {
    const CudaOptions cuda = cuda_options(options);
    report_gpu(cuda, render_gpu(view, cuda, image, gpu_), report, console);
  } else {
    render_host(view, options, image, console.progress("render"));
  }
  console.end_progress();
}

void ViewDrawer::draw_kept(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                           const std::vector<TypeColour>& looks, const RenderOptions& options, Image& image,
                           RunReport& report, Console& console) const {
  const CudaOptions cuda = cuda_options(options);
  report_gpu(cuda, render_gpu_particles(kept, geometry, wrap, looks, settings_.sort, cuda, image, gpu()), report,
             console);
}

void ViewDrawer::draw_kept_split(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                                 const std::vector<TypeColour>& looks, const RenderOptions& options, const Comm& comm,
                                 int width, int height, float* layer, RunReport& report, Console& console) const {
  gpu();  // (a GPU drawer's only: render_gpu_split() takes the kept particles' session)
  const CudaOptions cuda = cuda_options(options);
  const DeviceView view = device_view(geometry, wrap, looks, settings_.sort, cuda);
  report_gpu(cuda, render_gpu_split(kept, view, cuda, comm, width, height, layer, report.gpu_split_parts), report,
             console);
}

}  // namespace splotch
