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

// The warp's lanes add one splat's shares to the pixels of its support.
__device__ void draw_splat(const MapArgs& a, const MapSplat& s, unsigned lane) {
  const float x = s.x, y = s.y, radius = s.radius;
  const long x_lo = max(long(floorf(x - radius)), 0L), x_hi = min(long(floorf(x + radius)) + 1, long(a.xres));
  const long y_lo = max(long(floorf(y - radius)), 0L), y_hi = min(long(floorf(y + radius)) + 1, long(a.yres));
  if (x_lo >= x_hi || y_lo >= y_hi) return;
  const long width = x_hi - x_lo, count = width * (y_hi - y_lo);
  const float inverse = 1.0f / radius, inverse2 = 1.0f / (radius * radius);
  const bool corners = !a.slice && radius * midpoint_pixel_fraction < 1.0f;
  const double over = a.slice ? 1.0 / (double(radius) * radius * radius) : 1.0 / (double(radius) * radius);
  const float dz2 = a.slice ? s.z * s.z * inverse2 : 0.0f;
  const float w[2] = {s.w0, s.w1};
  for (long p = lane; p < count; p += 32) {
    const int j = int(y_lo + p / width), c = int(x_lo + p % width);
    double share;
    if (corners) {
      share = double(corner_share(a.k, (float(c) - x) * inverse, (float(c + 1) - x) * inverse, (float(j) - y) * inverse,
                                  (float(j + 1) - y) * inverse));
    } else {
      const float dx = float(c) + 0.5f - x, dy = float(j) + 0.5f - y;
      const float q2 = dx * dx * inverse2 + (dy * dy * inverse2 + dz2);
      if (!(q2 < 1.0f)) continue;
      share = over * double(a.slice ? profile_at(a.k.volume, a.k.profile_steps, q2) : centre_share(a.k, q2, inverse2));
    }
    if (share == 0) continue;
    const std::size_t at = std::size_t(j) * std::size_t(a.xres) + std::size_t(c);
    for (int q = 0; q < a.planes; ++q) add_fixed(a.sum[q] + at, share * double(w[q]) * a.scale[q]);
  }
}

__global__ void map_kernel(MapArgs a) {
  const unsigned lane = threadIdx.x & 31u;
  const std::size_t warps = (std::size_t(gridDim.x) * blockDim.x) >> 5;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    const MapSplat s{a.x[i], a.y[i], a.radius[i], a.w0[i], a.planes > 1 ? a.w1[i] : 0.0f, a.slice ? a.z[i] : 0.0f};
    draw_splat(a, s, lane);
  }
}

// The particles kept on the GPU (DeviceParticles::fields) and how they become splats.
struct KeptArgs {
  DeviceParticles::Fields p;
  MapProjection g;
  double support_factor;
  double peak;  // W(0): a slice splat's largest share of a pixel is peak / R^3
};

__device__ void particle_copies_at(const KeptArgs& k, std::size_t i, double at[3], double& H) {
  at[0] = k.p.x[i], at[1] = k.p.y[i], at[2] = k.p.z[i];
  H = k.support_factor * double(k.p.hsml[i]);
}

// Each plane's bound (see draw_map_cuda): the sum over the splats of |w| times its largest share.
struct BoundSum {
  const KeptArgs* k;
  double sum[2];
  __device__ void operator()(const MapSplat& s) {
    const double largest = k->g.mode == MapMode::slice ? k->peak / (double(s.radius) * s.radius * s.radius) : 1.0;
    sum[0] += fabs(double(s.w0)) * largest;
    sum[1] += fabs(double(s.w1)) * largest;
  }
};

__global__ void bound_kernel(KeptArgs k, KernelTableView tables, double* bound) {
  BoundSum b{&k, {0, 0}};
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < k.p.n; i += threads) {
    double at[3], H;
    particle_copies_at(k, i, at, H);
    map_copies(k.g, tables, at, H, k.p.intensity[i], k.p.colour[i], b);
  }
  for (int q = 0; q < 2; ++q) {
    for (int offset = 16; offset > 0; offset /= 2) b.sum[q] += __shfl_down_sync(0xffffffffu, b.sum[q], offset);
    if ((threadIdx.x & 31u) == 0) atomicAdd(bound + q, b.sum[q]);
  }
}

struct DrawSplats {
  const MapArgs* a;
  unsigned lane;
  __device__ void operator()(const MapSplat& s) { draw_splat(*a, s, lane); }
};

// A warp per particle: every lane makes the particle's splats alike, and the warp draws each.
__global__ void kept_kernel(MapArgs a, KeptArgs k) {
  DrawSplats draw{&a, threadIdx.x & 31u};
  const std::size_t warps = (std::size_t(gridDim.x) * blockDim.x) >> 5;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < k.p.n; i += warps) {
    double at[3], H;
    particle_copies_at(k, i, at, H);
    map_copies(k.g, a.k, at, H, k.p.intensity[i], k.p.colour[i], draw);
  }
}

template <class T>
void upload(DeviceBuffer<T>& buffer, const T* values, std::size_t n, const char* what) {
  if (!buffer.try_allocate(std::max<std::size_t>(n, 1)))
    throw std::runtime_error(std::string("the GPU has too little free memory for the map's ") + what);
  if (n) CUDA_CHECK(cudaMemcpy(buffer.get(), values, n * sizeof(T), cudaMemcpyHostToDevice));
}

// Each plane's scale: 2^62 over the bound, rounded down to a power of two. (The bound is
// enlarged by 1e-4 first: a sum of weights that is a power of two, a normalised mass of 1, would
// otherwise fall on either side of it with the GPU's order of adding.)
void set_scales(MapArgs& a, const double bound[2], int planes) {
  for (int q = 0; q < planes; ++q) {
    if (!std::isfinite(bound[q])) throw std::runtime_error("the map's weights have no finite sum for the GPU's sums");
    a.scale[q] = bound[q] > 0 ? std::ldexp(1.0, 62 - std::ilogb(bound[q] * 1.0001) - 1) : 1.0;
  }
}

// The kernel's tables and the map's sums on the GPU, for either drawer.
struct MapDevice {
  DeviceBuffer<float> column, laplacian, volume, corner, marginal;
  DeviceBuffer<unsigned long long> sum[2];
  std::size_t pixels = 0;

  MapDevice(const MapKernelTables& tables, MapSums& sums, MapArgs& a) {
    upload(column, tables.column.data(), tables.column.size(), "kernel tables");
    upload(laplacian, tables.laplacian.data(), tables.laplacian.size(), "kernel tables");
    upload(volume, tables.volume.data(), tables.volume.size(), "kernel tables");
    upload(corner, tables.corner.data(), tables.corner.size(), "kernel tables");
    upload(marginal, tables.marginal.data(), tables.marginal.size(), "kernel tables");
    a.k = KernelTableView{column.get(),   laplacian.get(),      volume.get(),       corner.get(),
                          marginal.get(), tables.profile_steps, tables.corner_steps};
    pixels = std::size_t(sums.xres) * std::size_t(sums.yres);
    a.planes = sums.planes();
    for (int q = 0; q < a.planes; ++q) {
      if (!sum[q].try_allocate(pixels)) throw std::runtime_error("the GPU has too little free memory for the map");
      CUDA_CHECK(cudaMemset(sum[q].get(), 0, pixels * sizeof(unsigned long long)));
      a.sum[q] = sum[q].get();
    }
    a.xres = sums.xres;
    a.yres = sums.yres;
  }
  void add_to(MapSums& sums, const MapArgs& a) const {
    std::vector<unsigned long long> back(pixels);
    for (int q = 0; q < a.planes; ++q) {
      CUDA_CHECK(cudaMemcpy(back.data(), sum[q].get(), pixels * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      const double unscale = 1.0 / a.scale[q];
      for (std::size_t i = 0; i < pixels; ++i) sums.plane[q][i] += double(static_cast<long long>(back[i])) * unscale;
    }
  }
};

// A launch of a warp per item, at most 16 blocks of 256 per multiprocessor.
unsigned warp_blocks(std::size_t n, int device) {
  int processors = 1;
  CUDA_CHECK(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
  const std::size_t wanted = (n * 32 + 255) / 256;
  return unsigned(std::max<std::size_t>(1, std::min<std::size_t>(wanted, std::size_t(processors) * 16)));
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
  set_scales(a, bound, planes);
  MapDevice d(tables, sums, a);
  DeviceBuffer<float> x, y, radius, w0, w1, z;
  upload(x, s.x, s.n, "particles");
  upload(y, s.y, s.n, "particles");
  upload(radius, s.radius, s.n, "particles");
  upload(w0, s.w[0], s.n, "particles");
  if (planes > 1) upload(w1, s.w[1], s.n, "particles");
  if (slice) upload(z, s.z, s.n, "particles");
  a.x = x.get();
  a.y = y.get();
  a.radius = radius.get();
  a.w0 = w0.get();
  a.w1 = w1.get();
  a.z = z.get();
  a.n = s.n;
  a.slice = slice;
  if (s.n) {
    map_kernel<<<warp_blocks(s.n, device), 256>>>(a);
    CUDA_CHECK_LAUNCH();
  }
  d.add_to(sums, a);
}

void draw_map_cuda_kept(const DeviceParticles::Fields& p, const MapProjection& g, double support_factor,
                        const MapKernelTables& tables, MapSums& sums) {
  CUDA_CHECK(cudaSetDevice(p.device));
  MapArgs a{};
  a.slice = g.mode == MapMode::slice;
  KeptArgs k{p, g, support_factor, double(tables.volume[0])};
  // The tables and sums first: the bound's kernel reads the tables (the marginal, for the depth
  // cut and the faces); the scales it gives are needed only by the drawing after it.
  MapDevice d(tables, sums, a);
  double bound[2] = {0, 0};
  {
    DeviceBuffer<double> sum;
    if (!sum.try_allocate(2)) throw std::runtime_error("the GPU has too little free memory for the map");
    CUDA_CHECK(cudaMemset(sum.get(), 0, 2 * sizeof(double)));
    if (p.n) {
      bound_kernel<<<warp_blocks((p.n + 31) / 32, p.device), 256>>>(k, a.k, sum.get());
      CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaMemcpy(bound, sum.get(), 2 * sizeof(double), cudaMemcpyDeviceToHost));
  }
  set_scales(a, bound, sums.planes());
  a.n = p.n;
  if (p.n) {
    kept_kernel<<<warp_blocks(p.n, p.device), 256>>>(a, k);
    CUDA_CHECK_LAUNCH();
  }
  d.add_to(sums, a);
}

}  // namespace splotch
