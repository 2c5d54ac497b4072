// What every GPU render shares, whether its splats come up from the host in chunks
// (cuda_renderer.cu) or are made on the device from particles kept there (device_particles.cu):
// the session's streams and staging buffers, the target (options fitted to the device, the
// algorithm, the device image), drawing splats that lie on the device, and the image's way back.
// CUDA code only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cuda/chunk_renderer.h"
#include "cuda/cub_calls.cuh"
#include "cuda/cuda_renderer.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"
#include "io/image.h"

namespace splotch {

// A chunk's fields: x, y, radius, e0, e1, e2 (floats), then the draw key (32 bits).
namespace cuda_detail {
constexpr int float_fields = 6, fields = float_fields + 1;
}

// The session's streams and page-locked buffers (cuda_renderer.h): made once, used by every
// render on the session's device. Copies to the device go on `copy`, kernels on `compute`, and
// the image comes back on `copy`.
struct CudaSession::Resources {
  cuda_detail::Stream compute, copy;
  cuda_detail::PinnedBuffer<float> staging[2];  // fields x staging_chunk each
  std::size_t staging_chunk = 0;

  void reserve_staging(std::size_t chunk) {
    // Room for a useful piece of the image too, which goes back through these buffers.
    chunk = std::max(chunk, cuda_detail::least_staging_splats);
    if (chunk <= staging_chunk) return;
    for (auto& b : staging) b.allocate(cuda_detail::fields * chunk);
    staging_chunk = chunk;
  }
};

namespace cuda_detail {

// A render's device side: the options fitted to the GPU (the Btile boundary narrowed when they
// allow it; the report says so), the algorithm, and the device image, cleared (a_eq_e) or holding
// `image` (composited over) on the compute stream ahead of any kernel.
class RenderTarget {
 public:
  RenderTarget(const CudaOptions& requested, const Image& image, CudaSession& session, CudaReport& report);
  const CudaOptions& options() const { return options_; }
  ChunkRenderer& renderer() { return *renderer_; }
  // The splats larger than the Btile boundary (a_eq_e), drawn tile by tile: made at the first call.
  ChunkRenderer& large_renderer();
  float* image() { return image_.get(); }
  CudaSession::Resources& resources() { return resources_; }
  // The device image into `image`: added to it (a_eq_e: the host's part is there) or copied.
  void fetch(Image& image);

 private:
  CudaOptions options_;
  std::unique_ptr<ChunkRenderer> renderer_, large_renderer_;
  RenderGrid grid_;
  DeviceBuffer<float> image_;
  std::size_t floats_ = 0;
  CudaSession::Resources& resources_;
};

// The grid of a render of width x height pixels with these options.
RenderGrid grid_for(const CudaOptions& o, int width, int height);
// Moves `floats` floats from the device to `out` through the session's staging buffers: added to
// `out` (add = true) or copied. After the work that wrote them is done (the copy stream's).
void fetch_device_image(const float* device, std::size_t floats, CudaSession::Resources& b, float* out, bool add);

// Splats lying on the device as fields of `stride` floats each (x, y, radius, e0, e1, e2, then
// the draw keys as 32-bit integers), and the scratch that ordering them needs.
struct DeviceSplats {
  float* field = nullptr;
  std::size_t stride = 0;
  std::uint32_t* key() const { return reinterpret_cast<std::uint32_t*>(field + float_fields * stride); }
};
struct OrderScratch {
  std::uint32_t *key_out = nullptr, *order[2] = {nullptr, nullptr};
  CubScratch sort;
};
OrderScratch lay_out_order(DeviceLayout& l, std::size_t n);

// The splats draw_device_splats() hands the renderer at a time, of n: the scratch it must have.
inline std::size_t device_window(std::size_t n) { return std::max<std::size_t>(1, std::min(n, resident_window)); }

// How splats of equal draw keys are ordered: by `tie` (its low `tie_bits` bits; null: none), then
// by index.
struct TieOrder {
  std::uint32_t* tie = nullptr;
  int tie_bits = 0;
};
// Equal keys by the tiles of `tile_size` pixels of a width x height image, whose numbers `tie`
// holds (tile_size 0: no tiles, by index alone).
inline TieOrder tie_order(std::uint32_t* tie, int width, int height, int tile_size) {
  TieOrder t;
  if (tile_size <= 0) return t;
  const std::uint64_t nx = std::uint64_t((width + tile_size - 1) / tile_size),
                      ny = std::uint64_t((height + tile_size - 1) / tile_size);
  t.tie = tie;
  while ((std::uint64_t(1) << t.tie_bits) < nx * ny) ++t.tie_bits;
  return t;
}

// Queues the drawing of splats [0, n) on the compute stream: with keys (a_eq_e = FALSE) sorted
// into draw order there (stably: equal keys as `ties` says) and drawn in windows of that order;
// without, in windows of index order. The renderer has scratch for device_window(n) splats. The
// keys (and ties) are used up. `finish`: the renderer's finish() after them (false: the caller's,
// after more splats).
void draw_device_splats(const DeviceSplats& splats, std::size_t n, bool keyed, const OrderScratch& scratch,
                        ChunkRenderer& renderer, float* image, cudaStream_t compute, const TieOrder& ties = {},
                        bool finish = true);

}  // namespace cuda_detail
}  // namespace splotch
