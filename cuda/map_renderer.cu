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

// A splat's pixels, its support clipped to the map.
struct Footprint {
  long x_lo, x_hi, y_lo, y_hi;
  __device__ long count() const { return x_lo < x_hi && y_lo < y_hi ? (x_hi - x_lo) * (y_hi - y_lo) : 0; }
};
__device__ Footprint footprint(int xres, int yres, const MapSplat& s) {
  return {max(long(floorf(s.x - s.radius)), 0L), min(long(floorf(s.x + s.radius)) + 1, long(xres)),
          max(long(floorf(s.y - s.radius)), 0L), min(long(floorf(s.y + s.radius)) + 1, long(yres))};
}

// Splats of at most this many pixels are drawn by one thread, larger ones by a warp: most of a
// large snapshot's particles cover one to four pixels, and a warp's 32 lanes would idle on them.
constexpr long thread_pixels = 16;

// What a splat's pixels share, computed once per splat.
struct SplatPixels {
  float x, y, inverse, inverse2, dz2;
  bool corners;
  double over;
  float w[2];
  __device__ SplatPixels(const MapArgs& a, const MapSplat& s)
      : x(s.x),
        y(s.y),
        inverse(1.0f / s.radius),
        inverse2(1.0f / (s.radius * s.radius)),
        dz2(a.slice ? s.z * s.z * inverse2 : 0.0f),
        corners(!a.slice && s.radius * midpoint_pixel_fraction < 1.0f),
        over(a.slice ? 1.0 / (double(s.radius) * s.radius * s.radius) : 1.0 / (double(s.radius) * s.radius)),
        w{s.w0, s.w1} {}

  // Adds the splat's share of pixel (c, j) to the sums.
  __device__ void add(const MapArgs& a, int c, int j) const {
    double share;
    if (corners) {
      share = double(corner_share(a.k, (float(c) - x) * inverse, (float(c + 1) - x) * inverse, (float(j) - y) * inverse,
                                  (float(j + 1) - y) * inverse));
    } else {
      const float dx = float(c) + 0.5f - x, dy = float(j) + 0.5f - y;
      const float q2 = dx * dx * inverse2 + (dy * dy * inverse2 + dz2);
      if (!(q2 < 1.0f)) return;
      share = over * double(a.slice ? profile_at(a.k.volume, a.k.profile_steps, q2) : centre_share(a.k, q2, inverse2));
    }
    deposit(a, c, j, share);
  }
  __device__ void deposit(const MapArgs& a, int c, int j, double share) const {
    // (never below 0: the tables' rounding at a kernel's edge would weigh an average with shares
    // of either sign, and its pixel's value would leave the range of the values averaged)
    if (!(share > 0)) return;
    const std::size_t at = std::size_t(j) * std::size_t(a.xres) + std::size_t(c);
    for (int q = 0; q < a.planes; ++q) add_fixed(a.sum[q] + at, share * double(w[q]) * a.scale[q]);
  }
};

// A warp's room in shared memory for a splat's corners: those of supports below 8 pixels (the
// corner table's), at most 18 x 18.
constexpr int warp_corners = 18 * 18;
constexpr int block_threads = 256;

// The warp's lanes add one splat's shares to the pixels of its support (every lane with the same
// splat: the warp is converged here). From the corner table, the lanes first read each corner's Q
// once into the warp's `corners` (a pixel's four corners are its neighbours' too), then difference
// them in corner_share's order.
__device__ void draw_splat(const MapArgs& a, const MapSplat& s, const Footprint& f, unsigned lane, float* corners) {
  const long width = f.x_hi - f.x_lo, count = f.count();
  if (count == 0) return;
  const SplatPixels pixels(a, s);
  const long row = width + 1, grid = row * (f.y_hi - f.y_lo + 1);
  if (!pixels.corners || grid > warp_corners) {
    for (long p = lane; p < count; p += 32) pixels.add(a, int(f.x_lo + p % width), int(f.y_lo + p / width));
    return;
  }
  for (long p = lane; p < grid; p += 32)
    corners[p] = corner_at(a.k, (float(f.x_lo + p % row) - pixels.x) * pixels.inverse,
                           (float(f.y_lo + p / row) - pixels.y) * pixels.inverse);
  __syncwarp();
  for (long p = lane; p < count; p += 32) {
    const long c = p % width, j = p / width;
    const float* lo = corners + j * row + c;
    const float share = (lo[row + 1] - lo[row]) - (lo[1] - lo[0]);
    pixels.deposit(a, int(f.x_lo + c), int(f.y_lo + j), double(share));
  }
  __syncwarp();  // (before the next splat's corners)
}

// One thread adds a small splat's shares (the same arithmetic, pixel by pixel). From the corner
// table, each corner's Q once (a pixel's four corners are its neighbours' too): the row of corners
// below the pixels kept while the row above is read, differenced in corner_share's order.
__device__ void draw_small_splat(const MapArgs& a, const MapSplat& s, const Footprint& f) {
  const SplatPixels pixels(a, s);
  const long width = f.x_hi - f.x_lo;
  if (!pixels.corners || width > thread_pixels) {
    for (long j = f.y_lo; j < f.y_hi; ++j)
      for (long c = f.x_lo; c < f.x_hi; ++c) pixels.add(a, int(c), int(j));
    return;
  }
  const float x = pixels.x, y = pixels.y, inverse = pixels.inverse;
  float below[thread_pixels + 1];
  const float b_lo = (float(f.y_lo) - y) * inverse;
  for (long c = 0; c <= width; ++c) below[c] = corner_at(a.k, (float(f.x_lo + c) - x) * inverse, b_lo);
  for (long j = f.y_lo; j < f.y_hi; ++j) {
    const float b1 = (float(j + 1) - y) * inverse;
    float left = corner_at(a.k, (float(f.x_lo) - x) * inverse, b1);
    for (long c = 0; c < width; ++c) {
      const float right = corner_at(a.k, (float(f.x_lo + c + 1) - x) * inverse, b1);
      const float share = (right - left) - (below[c + 1] - below[c]);
      below[c] = left;
      left = right;
      pixels.deposit(a, int(f.x_lo + c), int(j), double(share));
    }
    below[width] = left;
  }
}

__device__ MapSplat uploaded_splat(const MapArgs& a, std::size_t i) {
  return {a.x[i], a.y[i], a.radius[i], a.w0[i], a.planes > 1 ? a.w1[i] : 0.0f, a.slice ? a.z[i] : 0.0f};
}

// The uploaded splats: a thread draws each small one, then a warp each large one.
__global__ void small_splats_kernel(MapArgs a) {
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += threads) {
    const MapSplat s = uploaded_splat(a, i);
    const Footprint f = footprint(a.xres, a.yres, s);
    const long count = f.count();
    if (count > 0 && count <= thread_pixels) draw_small_splat(a, s, f);
  }
}

__global__ void large_splats_kernel(MapArgs a) {
  __shared__ float corners[block_threads / 32][warp_corners];
  const unsigned lane = threadIdx.x & 31u;
  const std::size_t warps = (std::size_t(gridDim.x) * blockDim.x) >> 5;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    const MapSplat s = uploaded_splat(a, i);
    const Footprint f = footprint(a.xres, a.yres, s);
    if (f.count() > thread_pixels) draw_splat(a, s, f, lane, corners[threadIdx.x >> 5]);
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

// Each plane's bound (see draw_map_cuda): the sum over the splats of |w| times its largest share;
// and how many splats are too large for one thread.
struct BoundSum {
  const KeptArgs* k;
  int xres, yres;
  double sum[2];
  unsigned long long large;
  __device__ void operator()(const MapSplat& s) {
    const double largest = k->g.mode == MapMode::slice ? k->peak / (double(s.radius) * s.radius * s.radius) : 1.0;
    sum[0] += fabs(double(s.w0)) * largest;
    sum[1] += fabs(double(s.w1)) * largest;
    large += footprint(xres, yres, s).count() > thread_pixels;
  }
};

struct BoundResult {
  double sum[2];
  unsigned long long large;
};

__global__ void bound_kernel(KeptArgs k, KernelTableView tables, BoundResult* result) {
  BoundSum b{&k, k.g.xres, k.g.yres, {0, 0}, 0};
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < k.p.n; i += threads) {
    double at[3], H;
    particle_copies_at(k, i, at, H);
    map_copies(k.g, tables, at, H, k.p.intensity[i], k.p.colour[i], b);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    for (int q = 0; q < 2; ++q) b.sum[q] += __shfl_down_sync(0xffffffffu, b.sum[q], offset);
    b.large += __shfl_down_sync(0xffffffffu, b.large, offset);
  }
  if ((threadIdx.x & 31u) == 0) {
    for (int q = 0; q < 2; ++q) atomicAdd(result->sum + q, b.sum[q]);
    atomicAdd(&result->large, b.large);
  }
}

// The large splats, set aside by the threads that make them for the warps that draw them.
struct LargeQueue {
  MapSplat* splats;
  unsigned long long capacity;
  unsigned long long* count;
};

// A thread makes a particle's splats and draws the small ones; a large one goes to the queue (or,
// where the GPU had no room for the queue, the thread draws it too).
struct DrawOrQueue {
  const MapArgs* a;
  LargeQueue q;
  __device__ void operator()(const MapSplat& s) {
    const Footprint f = footprint(a->xres, a->yres, s);
    const long count = f.count();
    if (count == 0) return;
    if (count > thread_pixels) {
      const unsigned long long at = atomicAdd(q.count, 1ull);
      if (at < q.capacity) {
        q.splats[at] = s;
        return;
      }
    }
    draw_small_splat(*a, s, f);
  }
};

__global__ void kept_kernel(MapArgs a, KeptArgs k, LargeQueue q) {
  DrawOrQueue draw{&a, q};
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < k.p.n; i += threads) {
    double at[3], H;
    particle_copies_at(k, i, at, H);
    map_copies(k.g, a.k, at, H, k.p.intensity[i], k.p.colour[i], draw);
  }
}

// A warp per queued splat.
__global__ void queue_kernel(MapArgs a, LargeQueue q) {
  __shared__ float corners[block_threads / 32][warp_corners];
  const unsigned lane = threadIdx.x & 31u;
  const unsigned long long n = min(*q.count, q.capacity);
  const std::size_t warps = (std::size_t(gridDim.x) * blockDim.x) >> 5;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < n; i += warps) {
    const MapSplat s = q.splats[i];
    draw_splat(a, s, footprint(a.xres, a.yres, s), lane, corners[threadIdx.x >> 5]);
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

// A launch of a thread (or a warp) per item, at most 16 blocks per multiprocessor.
unsigned thread_blocks(std::size_t n, int device) {
  int processors = 1;
  CUDA_CHECK(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
  const std::size_t wanted = (n + block_threads - 1) / block_threads;
  return unsigned(std::max<std::size_t>(1, std::min<std::size_t>(wanted, std::size_t(processors) * 16)));
}
unsigned warp_blocks(std::size_t n, int device) { return thread_blocks(n * 32, device); }

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
    small_splats_kernel<<<thread_blocks(s.n, device), block_threads>>>(a);
    CUDA_CHECK_LAUNCH();
    large_splats_kernel<<<warp_blocks(s.n, device), block_threads>>>(a);
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
  BoundResult bound{{0, 0}, 0};
  {
    DeviceBuffer<BoundResult> result;
    if (!result.try_allocate(1)) throw std::runtime_error("the GPU has too little free memory for the map");
    CUDA_CHECK(cudaMemset(result.get(), 0, sizeof(BoundResult)));
    if (p.n) {
      bound_kernel<<<thread_blocks(p.n, p.device), block_threads>>>(k, a.k, result.get());
      CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaMemcpy(&bound, result.get(), sizeof(BoundResult), cudaMemcpyDeviceToHost));
  }
  set_scales(a, bound.sum, sums.planes());
  a.n = p.n;
  // The queue for the large splats; where the GPU lacks the room, their threads draw them.
  DeviceBuffer<MapSplat> queued;
  DeviceBuffer<unsigned long long> count;
  if (!count.try_allocate(1)) throw std::runtime_error("the GPU has too little free memory for the map");
  CUDA_CHECK(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
  const LargeQueue q{queued.try_allocate(bound.large) ? queued.get() : nullptr, queued.get() ? bound.large : 0ull,
                     count.get()};
  if (p.n) {
    kept_kernel<<<thread_blocks(p.n, p.device), block_threads>>>(a, k, q);
    CUDA_CHECK_LAUNCH();
    if (q.capacity) {
      queue_kernel<<<warp_blocks(q.capacity, p.device), block_threads>>>(a, q);
      CUDA_CHECK_LAUNCH();
    }
  }
  d.add_to(sums, a);
}

}  // namespace splotch
