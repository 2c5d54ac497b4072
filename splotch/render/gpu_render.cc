#include "splotch/render/gpu_render.h"

#include <omp.h>

#include <array>
#include <cstdint>
#include <vector>

#include "splotch/render/host_renderer.h"
#include "splotch/splat/splat_maths.h"

namespace splotch {
namespace {

// The splats beyond the boundary, in index order.
std::vector<std::uint32_t> beyond(const SplatView& s, int boundary) {
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::uint32_t>> found(std::size_t(threads), std::vector<std::uint32_t>{});
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t lo = s.n * std::size_t(t) / std::size_t(threads),
                      hi = s.n * std::size_t(t + 1) / std::size_t(threads);
    for (std::size_t i = lo; i < hi; ++i)
      if (beyond_boundary(s.radius[i], boundary)) found[std::size_t(t)].push_back(std::uint32_t(i));
  }
  std::vector<std::uint32_t> all;
  for (auto& part : found) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Copies of the chosen splats' fields (no keys: with a_eq_e the order does not matter).
struct GatheredSplats {
  std::array<std::vector<float>, 6> field;  // x, y, radius, e0, e1, e2
  SplatView view() const {
    SplatView v;
    v.n = field[0].size();
    v.x = field[0].data();
    v.y = field[1].data();
    v.radius = field[2].data();
    for (int c = 0; c < 3; ++c) v.e[c] = field[std::size_t(3 + c)].data();
    return v;
  }
};

GatheredSplats gather(const SplatView& s, const std::vector<std::uint32_t>& which) {
  GatheredSplats g;
  const float* in[6] = {s.x, s.y, s.radius, s.e[0], s.e[1], s.e[2]};
  for (std::size_t f = 0; f < g.field.size(); ++f) {
    g.field[f].resize(which.size());
    float* out = g.field[f].data();
    const float* from = in[f];
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < which.size(); ++k) out[k] = from[which[k]];
  }
  return g;
}

}  // namespace

CudaReport render_gpu(const SplatView& splats, const CudaOptions& options, Image& image, CudaSession* session) {
  SplatView all = splats;
  all.tile_start = nullptr;
  if (!options.host.a_eq_e) {
    CudaReport report = render_cuda(all, options, image, session);
    report.on_gpu = all.n;
    return report;
  }
  std::size_t on_host = 0;
  auto draw_beyond = [&](int boundary) {
    const GatheredSplats part = gather(all, beyond(all, boundary));
    on_host = part.field[0].size();
    if (on_host > 0) render_host(part.view(), options.host, image);
  };
  CudaReport report = render_cuda(all, options, image, session, draw_beyond);
  report.on_host = on_host;
  report.on_gpu = all.n - on_host;
  return report;
}

}  // namespace splotch
