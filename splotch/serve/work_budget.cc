#include "splotch/serve/work_budget.h"

#include <cstdio>

#include "splotch/splat/splat_maths.h"

namespace splotch {

double splat_pixels(const Splats& s, int width, int height) {
  double pixels = 0;
#pragma omp parallel for reduction(+ : pixels) schedule(static)
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Footprint f = footprint(s.x[i], s.y[i], s.radius[i], width, height);
    if (!f.empty()) pixels += double(f.width()) * double(f.height());
  }
  return pixels;
}

double estimated_splat_pixels(const ParticleSet& p, const GeometryOptions& geometry, bool wrap, std::size_t sample) {
  const std::size_t n = p.size();
  if (n == 0 || sample == 0) return 0;
  const std::size_t stride = (n + sample - 1) / sample;
  const std::size_t m = (n + stride - 1) / stride;
  ParticleSet few;
  few.box_size = p.box_size;
  // (by all threads: a sample is a cache miss in every field, and a picture waits for them all)
  auto take = [&](const auto& from, auto& to) {
    if (from.empty()) return;
    to.resize(m);
#pragma omp parallel for schedule(static) if (m > 4096)
    for (std::size_t k = 0; k < m; ++k) to[k] = from[k * stride];
  };
  for (auto [from, to] : {std::pair{&p.x, &few.x}, std::pair{&p.y, &few.y}, std::pair{&p.z, &few.z},
                          std::pair{&p.hsml, &few.hsml}, std::pair{&p.intensity, &few.intensity}})
    take(*from, *to);
  for (int c = 0; c < 3; ++c) take(p.colour[c], few.colour[c]);
  take(p.type, few.type);
  const Splats splats = project(few, geometry, wrap);
  return splat_pixels(splats, geometry.camera.xres, geometry.camera.yres) * double(n) / double(few.size());
}

std::string over_budget_text(double pixels, double budget) {
  char text[600];
  std::snprintf(text, sizeof text,
                "this view's splats would cover %.3g pixels, beyond the %.3g a browser's picture may take here (the "
                "server draws one picture at a time, and every other browser would wait): lower smooth_factor, "
                "minrad_pix or the picture's size, or move out; bin/splotch draws it without a limit (Save .par, "
                "then bin/splotch view.par with these keys)",
                pixels, budget);
  return text;
}

}  // namespace splotch
