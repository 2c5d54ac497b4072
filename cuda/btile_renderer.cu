// Btile rendering (seed 004, Algorithm B) for a_eq_e, with the large splats on the host
// meanwhile; see cuda_renderer.h. This first version sends all GPU splats in one transfer and
// adds each Btile to the image with atomics; chunked streaming and the seed's race-free
// three-step boundary scheme come next.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <stdexcept>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/cuda_renderer.h"
#include "splotch/tile_order.h"

namespace splotch {
namespace {

struct BtileGrid {
  int tile_x, tile_y, boundary;
  int nx, ny;      // tiles
  int xres, yres;  // image
  float h2sigma;   // sigma = h2sigma r
};

// As truncate_to_int (splotch/geometry.h): the same float operations give the same pixels.
__device__ inline int truncate_clamped(float v) { return int(fminf(fmaxf(v, -1.0e9f), 1.0e9f)); }

// One block per tile: the tile's splats, one pixel of the footprint per thread, accumulate in a
// shared-memory Btile (three planes), which is then added to the image (rgb interleaved).
__global__ void btile_kernel(const float* __restrict__ x, const float* __restrict__ y,
                             const float* __restrict__ radius, const float* __restrict__ e0,
                             const float* __restrict__ e1, const float* __restrict__ e2,
                             const int* __restrict__ tile_start, BtileGrid g, float* __restrict__ image) {
  extern __shared__ float btile[];
  const int W = g.tile_x + 2 * g.boundary, H = g.tile_y + 2 * g.boundary, plane = W * H;
  const int tile = blockIdx.x;
  const int ox = (tile % g.nx) * g.tile_x - g.boundary, oy = (tile / g.nx) * g.tile_y - g.boundary;
  for (int k = threadIdx.x; k < 3 * plane; k += blockDim.x) btile[k] = 0.0f;
  __syncthreads();
  for (int p = tile_start[tile]; p < tile_start[tile + 1]; ++p) {
    const float X = x[p], Y = y[p], r = radius[p];
    const float R = 0.75f * r;
    // The footprint exactly as the host computes it (splotch/geometry.h, footprint()).
    const int x_lo = max(truncate_clamped(X - R + 1.0f), 0), x_hi = min(truncate_clamped(X + R + 1.0f), g.xres);
    const int y_lo = max(truncate_clamped(Y - R + 1.0f), 0), y_hi = min(truncate_clamped(Y + R + 1.0f), g.yres);
    if (x_lo >= x_hi || y_lo >= y_hi) continue;
    const float sigma = g.h2sigma * r, inv_sigma2 = 1.0f / (sigma * sigma), R2 = R * R;
    const float c0 = e0[p], c1 = e1[p], c2 = e2[p];
    const int w = x_hi - x_lo, n = w * (y_hi - y_lo);
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      const int px = x_lo + k % w, py = y_lo + k / w;
      const float dx = float(px) - X, dx2 = dx * dx;
      const float half = sqrtf(fmaxf(R2 - dx2, 0.0f));
      const int lo = max(y_lo, truncate_clamped(Y - half + 1.0f)), hi = min(y_hi, truncate_clamped(Y + half + 1.0f));
      if (py < lo || py >= hi) continue;
      const float dy = float(py) - Y;
      const float weight = expf(-dx2 * inv_sigma2) * expf(-dy * dy * inv_sigma2);
      const int at = (py - oy) * W + (px - ox);
      atomicAdd(btile + at, weight * c0);
      atomicAdd(btile + plane + at, weight * c1);
      atomicAdd(btile + 2 * plane + at, weight * c2);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < plane; k += blockDim.x) {
    const int px = ox + k % W, py = oy + k / W;
    if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
    float* out = image + (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
    if (btile[k] != 0.0f) atomicAdd(out, btile[k]);
    if (btile[plane + k] != 0.0f) atomicAdd(out + 1, btile[plane + k]);
    if (btile[2 * plane + k] != 0.0f) atomicAdd(out + 2, btile[2 * plane + k]);
  }
}

// Device memory that frees itself.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) {
    if (n_ > 0) CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), n_ * sizeof(T)));
  }
  ~DeviceArray() {
    if (p_) cudaFree(p_);  // no throw from a destructor; a failure here would have shown before
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  void upload(const T* host) {
    if (n_ > 0) CUDA_CHECK(cudaMemcpy(p_, host, n_ * sizeof(T), cudaMemcpyHostToDevice));
  }

 private:
  std::size_t n_;
  T* p_ = nullptr;
};

// The splats split in two: those for the GPU, ordered by Btile, and the rest, for the host.
struct Split {
  std::vector<float> gpu[6], host[6];  // x, y, radius, e0, e1, e2
  std::vector<int> tile_start;
};

Split split(const SplatView& s, const CudaOptions& o, int width, int height, int nx, int ny) {
  Split out;
  const int tiles = nx * ny;
  std::vector<int> tile_of(s.n, -1);
  std::vector<int> count(std::size_t(tiles) + 1, 0);
  const float inverse_x = 1.0f / float(o.tile_x), inverse_y = 1.0f / float(o.tile_y);
  for (std::size_t i = 0; i < s.n; ++i) {
    if (0.75f * s.radius[i] > float(o.boundary)) continue;  // for the host
    // The tile holding the centre (off-image centres: the nearest).
    tile_of[i] = centre_tile_along(s.y[i], height, o.tile_y, inverse_y, ny) * nx +
                 centre_tile_along(s.x[i], width, o.tile_x, inverse_x, nx);
    ++count[std::size_t(tile_of[i]) + 1];
  }
  for (int t = 0; t < tiles; ++t) count[std::size_t(t) + 1] += count[std::size_t(t)];
  out.tile_start = count;
  const std::size_t on_gpu = std::size_t(count[std::size_t(tiles)]);
  for (auto& v : out.gpu) v.resize(on_gpu);
  const float* in[6] = {s.x, s.y, s.radius, s.e[0], s.e[1], s.e[2]};
  std::vector<int> next(count.begin(), count.end() - 1);
  for (std::size_t i = 0; i < s.n; ++i) {
    if (tile_of[i] < 0) {
      for (int f = 0; f < 6; ++f) out.host[f].push_back(in[f][i]);
    } else {
      const std::size_t at = std::size_t(next[std::size_t(tile_of[i])]++);
      for (int f = 0; f < 6; ++f) out.gpu[f][at] = in[f][i];
    }
  }
  return out;
}

}  // namespace

bool cuda_device_present(std::string* why) {
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    if (why)
      *why = error != cudaSuccess ? std::string("no usable CUDA device (") + cudaGetErrorString(error) + ")"
                                  : std::string("no CUDA device");
    cudaGetLastError();  // clear the error for later calls
    return false;
  }
  return true;
}

CudaReport render_cuda(const SplatView& s, const CudaOptions& o, Image& image) {
  CudaReport report;
  if (s.n == 0 || image.width <= 0 || image.height <= 0) return report;
  if (o.tile_x < 1 || o.tile_y < 1 || o.boundary < 0)
    throw std::invalid_argument("render_cuda: tile sides must be positive and the boundary not negative");
  const int nx = (image.width + o.tile_x - 1) / o.tile_x, ny = (image.height + o.tile_y - 1) / o.tile_y;
  const Split parts = split(s, o, image.width, image.height, nx, ny);
  report.on_gpu = parts.gpu[0].size();
  report.on_host = parts.host[0].size();

  // The large splats on CPU threads while the GPU works.
  Image host_image(image.width, image.height);
  std::future<void> host_work = std::async(std::launch::async, [&] {
    SplatView big;
    big.n = parts.host[0].size();
    big.x = parts.host[0].data();
    big.y = parts.host[1].data();
    big.radius = parts.host[2].data();
    for (int c = 0; c < 3; ++c) big.e[c] = parts.host[3 + c].data();
    render_host(big, o.host, host_image);
  });

  const std::size_t n = report.on_gpu, pixels = std::size_t(image.width) * std::size_t(image.height) * 3;
  std::vector<float> gpu_image(pixels, 0.0f);
  if (n > 0) {
    DeviceArray<float> field[6] = {DeviceArray<float>(n), DeviceArray<float>(n), DeviceArray<float>(n),
                                   DeviceArray<float>(n), DeviceArray<float>(n), DeviceArray<float>(n)};
    for (int f = 0; f < 6; ++f) field[f].upload(parts.gpu[f].data());
    DeviceArray<int> tile_start(parts.tile_start.size());
    tile_start.upload(parts.tile_start.data());
    DeviceArray<float> device_image(pixels);
    CUDA_CHECK(cudaMemset(device_image.get(), 0, pixels * sizeof(float)));
    BtileGrid g{o.tile_x, o.tile_y, o.boundary, nx, ny, image.width, image.height,
                float(0.5 * std::pow(3.14159265358979323846, -1.0 / 6.0))};
    const std::size_t shared = std::size_t(3) * std::size_t(o.tile_x + 2 * o.boundary) *
                               std::size_t(o.tile_y + 2 * o.boundary) * sizeof(float);
    if (shared > 48 * 1024) CUDA_CHECK(cudaFuncSetAttribute(btile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
    btile_kernel<<<nx * ny, 256, shared>>>(field[0].get(), field[1].get(), field[2].get(), field[3].get(),
                                           field[4].get(), field[5].get(), tile_start.get(), g, device_image.get());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gpu_image.data(), device_image.get(), pixels * sizeof(float), cudaMemcpyDeviceToHost));
  }
  host_work.get();
  float* out = image.rgb.data();
  for (std::size_t k = 0; k < pixels; ++k) out[k] += gpu_image[k] + host_image.rgb[k];
  return report;
}

}  // namespace splotch
