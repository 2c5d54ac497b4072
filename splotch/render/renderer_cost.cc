#include "splotch/render/renderer_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace splotch {
namespace {

double host_frame(const RenderWork& w, const RendererCosts& c) {
  const int m = w.a_eq_e ? 0 : 1;
  const double covered = std::cbrt(w.particles) * w.pixels;
  return (w.particles * c.host_particle[m] + w.pixels * c.host_pixel[m] + covered * c.host_covered[m]) /
         std::max(1, w.threads);
}

double gpu_frame(const RenderWork& w, const RendererCosts& c) {
  const int m = w.a_eq_e ? 0 : 1;
  return w.particles * c.gpu_particle[m] + w.pixels * c.gpu_pixel[m] + c.gpu_frame[m];
}

}  // namespace

RendererEstimate choose_before_read(const RenderWork& w, const RendererCosts& c) {
  const double frames = std::max(1, w.frames);
  const double hidden = w.particles * c.cpu_stages_particle / std::max(1, w.threads);
  RendererEstimate e;
  e.host_seconds = frames * host_frame(w, c);
  e.gpu_seconds = c.gpu_fixed + std::max(0.0, c.gpu_start_hideable - hidden) + frames * gpu_frame(w, c);
  e.gpu = e.gpu_seconds < e.host_seconds;
  return e;
}

RendererEstimate choose_at_render(const RenderWork& w, double start_left, const RendererCosts& c) {
  const double frames = std::max(1, w.frames);
  RendererEstimate e;
  e.host_seconds = frames * host_frame(w, c);
  e.gpu_seconds = std::max(0.0, start_left) + frames * gpu_frame(w, c);
  e.gpu = e.gpu_seconds < e.host_seconds;
  return e;
}

std::string describe_choice(const RendererEstimate& e, const RenderWork& w, bool before_read) {
  char text[400];
  std::snprintf(text, sizeof text,
                "renderer = auto: the %s (modelled: %.2f s on the host, %.2f s on the GPU%s, for %.3g particles%s "
                "at %.3g Mpixels, %d thread%s, %d frame%s; renderer = host or cuda decides instead)",
                e.gpu ? "GPU" : "host", e.host_seconds, e.gpu_seconds, before_read ? " with its start" : "",
                w.particles, before_read ? " to read" : " in view", w.pixels / 1e6, w.threads,
                w.threads == 1 ? "" : "s", w.frames, w.frames == 1 ? "" : "s");
  return text;
}

bool auto_wants_particle_count(bool refused) { return !refused; }

AutoBeforeRead auto_before_read(bool refused, std::optional<std::uint64_t> particles, RenderWork work,
                                const RendererCosts& costs) {
  AutoBeforeRead d;
  if (refused) return d;
  d.gpu = true;
  if (!particles) return d;
  work.particles = double(*particles);
  const RendererEstimate e = choose_before_read(work, costs);
  if (e.gpu) return d;
  d.gpu = false;
  d.declined = true;
  d.note = describe_choice(e, work, true);
  return d;
}

AutoAtRender auto_at_render(const RenderWork& work, bool started, double since_start, const RendererCosts& costs) {
  const double left = started ? 0 : std::max(0.0, costs.gpu_start - since_start);
  const RendererEstimate e = choose_at_render(work, left, costs);
  return {e.gpu, describe_choice(e, work, false)};
}

}  // namespace splotch
