#include "splotch/render/gpu_particles.h"

#include <stdexcept>

#include "splotch/render/host_renderer.h"

namespace splotch {

DeviceView device_view(const GeometryOptions& geometry, bool wrap, const std::vector<TypeColour>& looks, SortOrder sort,
                       const CudaOptions& options) {
  if (!gpu_projects(geometry.camera)) throw std::logic_error("device_view: the dome is projected on the host");
  DeviceView view;
  view.projection = projection_constants(geometry);
  for (std::size_t t = 0; t < looks.size(); ++t) {
    DeviceTypeLook look;
    look.vector_colour = looks[t].vector_colour;
    look.palette = looks[t].palette;
    look.brightness = looks[t].brightness;
    look.smooth = t < geometry.smooth_factor.size() ? geometry.smooth_factor[t] : 1.0f;
    view.types.push_back(look);
  }
  view.wrap = wrap;
  const Vec3 centre = geometry.wrap_about();
  view.wrap_centre[0] = centre.x;
  view.wrap_centre[1] = centre.y;
  view.wrap_centre[2] = centre.z;
  view.sort = sort;
  view.tie_tile_size = options.host.tile_size;  // equal keys as the host's tile order leaves them
  // Palette::at (io/palette.h) as this build's target makes it: one fused multiply-add or not.
#ifdef __FMA__
  view.fused_palette = true;
#else
  view.fused_palette = false;
#endif
  return view;
}

CudaReport render_gpu_particles(DeviceParticles& particles, const GeometryOptions& geometry, bool wrap,
                                const std::vector<TypeColour>& looks, SortOrder sort, const CudaOptions& options,
                                Image& image, CudaSession& session) {
  const DeviceView view = device_view(geometry, wrap, looks, sort, options);
  return render_particles_cuda(particles, view, options, image, session,
                               [&](const SplatView& beyond) { render_host(beyond, options.host, image); });
}

}  // namespace splotch
