#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/map_renderer.h"

namespace splotch {
namespace {

using cuda_detail::DeviceBuffer;

struct MapArgs {
  const float *x, *y, *radius, *w0, *w1, *z;
  std::size_t n;
  int xres, yres, planes;
  bool slice;
  KernelTableView k;
  double scale[2];
  unsigned long long* sum[2];
};

__device__ void add_fixed(unsigned long long* at, double value) {
  atomicAdd(at, static_cast<unsigned long long>(llrint(value)));  // (two's complement: negative values add too)
}

__global__ void map_kernel(MapArgs a) {
  const unsigned lane = threadIdx.x & 31u;
  const std::size_t warps = (std::size_t(gridDim.x) * blockDim.x) >> 5;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    const float x = a.x[i], y = a.y[i], radius = a.radius[i];
    const long x_lo = max(long(floorf(x - radius)), 0L), x_hi = min(long(floorf(x + radius)) + 1, long(a.xres));
    const long y_lo = max(long(floorf(y - radius)), 0L), y_hi = min(long(floorf(y + radius)) + 1, long(a.yres));
    if (x_lo >= x_hi || y_lo >= y_hi) continue;
    const long width = x_hi - x_lo, count = width * (y_hi - y_lo);
    const float inverse = 1.0f / radius, inverse2 = 1.0f / (radius * radius);
    const bool corners = !a.slice && radius * midpoint_pixel_fraction < 1.0f;
    const double over = a.slice ? 1.0 / (double(radius) * radius * radius) : 1.0 / (double(radius) * radius);
    const float dz2 = a.slice ? a.z[i] * a.z[i] * inverse2 : 0.0f;
    const float w[2] = {a.w0[i], a.planes > 1 ? a.w1[i] : 0.0f};
    for (long p = lane; p < count; p += 32) {
      const int j = int(y_lo + p / width), c = int(x_lo + p % width);
      double share;
      if (corners) {
        share = double(corner_share(a.k, (float(c) - x) * inverse, (float(c + 1) - x) * inverse,
                                    (float(j) - y) * inverse, (float(j + 1) - y) * inverse));
      } else {
        const float dx = float(c) + 0.5f - x, dy = float(j) + 0.5f - y;
        const float q2 = dx * dx * inverse2 + (dy * dy * inverse2 + dz2);
        if (!(q2 < 1.0f)) continue;
        share =
            over * double(a.slice ? profile_at(a.k.volume, a.k.profile_steps, q2) : centre_share(a.k, q2, inverse2));
      }
      if (share == 0) continue;
      const std::size_t at = std::size_t(j) * std::size_t(a.xres) + std::size_t(c);
      for (int q = 0; q < a.planes; ++q) add_fixed(a.sum[q] + at, share * double(w[q]) * a.scale[q]);
    }
  }
}

template <class T>
void upload(DeviceBuffer<T>& buffer, const T* values, std::size_t n, const char* what) {
  if (!buffer.try_allocate(std::max<std::size_t>(n, 1)))
    throw std::runtime_error(std::string("the GPU has too little free memory for the map's ") + what);
  if (n) CUDA_CHECK(cudaMemcpy(buffer.get(), values, n * sizeof(T), cudaMemcpyHostToDevice));
}

}  // namespace

void draw_map_cuda(const MapSplats& s, MapMode mode, const MapKernelTables& tables, MapSums& sums, int device) {
  CUDA_CHECK(cudaSetDevice(device));
  const int planes = sums.planes();
  const bool slice = mode == MapMode::slice;
  // Each plane's bound: the sum of |w| times a splat's largest share of one pixel (1 for a column's
  // pixel integrals; a slice's W(0) / H^3, H in pixels).
  double bound0 = 0, bound1 = 0;
  const long n = long(s.n);
  const double peak = double(tables.volume[0]);
#pragma omp parallel for schedule(static) reduction(+ : bound0, bound1)
  for (long i = 0; i < n; ++i) {
    const double largest = slice ? peak / (double(s.radius[i]) * s.radius[i] * s.radius[i]) : 1.0;
    bound0 += std::fabs(double(s.w[0][i])) * largest;
    if (planes > 1) bound1 += std::fabs(double(s.w[1][i])) * largest;
  }
  const double bound[2] = {bound0, bound1};
  MapArgs a{};
  for (int q = 0; q < planes; ++q) {
    if (!std::isfinite(bound[q])) throw std::runtime_error("the map's weights have no finite sum for the GPU's sums");
    a.scale[q] = bound[q] > 0 ? std::ldexp(1.0, 62 - std::ilogb(bound[q]) - 1) : 1.0;
  }
  DeviceBuffer<float> x, y, radius, w0, w1, z, column, laplacian, volume, corner;
  upload(x, s.x, s.n, "particles");
  upload(y, s.y, s.n, "particles");
  upload(radius, s.radius, s.n, "particles");
  upload(w0, s.w[0], s.n, "particles");
  if (planes > 1) upload(w1, s.w[1], s.n, "particles");
  if (slice) upload(z, s.z, s.n, "particles");
  upload(column, tables.column.data(), tables.column.size(), "kernel tables");
  upload(laplacian, tables.laplacian.data(), tables.laplacian.size(), "kernel tables");
  upload(volume, tables.volume.data(), tables.volume.size(), "kernel tables");
  upload(corner, tables.corner.data(), tables.corner.size(), "kernel tables");
  const std::size_t pixels = std::size_t(sums.xres) * std::size_t(sums.yres);
  DeviceBuffer<unsigned long long> sum[2];
  for (int q = 0; q < planes; ++q) {
    if (!sum[q].try_allocate(pixels)) throw std::runtime_error("the GPU has too little free memory for the map");
    CUDA_CHECK(cudaMemset(sum[q].get(), 0, pixels * sizeof(unsigned long long)));
    a.sum[q] = sum[q].get();
  }
  a.x = x.get();
  a.y = y.get();
  a.radius = radius.get();
  a.w0 = w0.get();
  a.w1 = w1.get();
  a.z = z.get();
  a.n = s.n;
  a.xres = sums.xres;
  a.yres = sums.yres;
  a.planes = planes;
  a.slice = slice;
  a.k = KernelTableView{column.get(), laplacian.get(),      volume.get(),       corner.get(),
                        nullptr,      tables.profile_steps, tables.corner_steps};
  int processors = 1;
  CUDA_CHECK(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
  const int threads = 256;
  const std::size_t wanted = (s.n * 32 + threads - 1) / threads;
  const unsigned blocks =
      unsigned(std::max<std::size_t>(1, std::min<std::size_t>(wanted, std::size_t(processors) * 16)));
  if (s.n) {
    map_kernel<<<blocks, threads>>>(a);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<unsigned long long> back(pixels);
  for (int q = 0; q < planes; ++q) {
    CUDA_CHECK(cudaMemcpy(back.data(), sum[q].get(), pixels * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    const double unscale = 1.0 / a.scale[q];
    for (std::size_t i = 0; i < pixels; ++i) sums.plane[q][i] += double(static_cast<long long>(back[i])) * unscale;
  }
}

}  // namespace splotch
