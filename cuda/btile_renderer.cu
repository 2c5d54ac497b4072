// Btile rendering (seed 004, Algorithm B) for a_eq_e, streamed in chunks, with the large splats
// on the host meanwhile; see cuda_renderer.h.
//
// Per chunk, on the device: each splat's key (the tile holding its centre, or "not here" for the
// host's splats and those off the image), a radix sort of (key, index), each tile's range by
// binary search, and the ranges cut into pieces of at most piece_splats splats (the dense tiles
// of a clustered snapshot would otherwise keep one block busy long after the others). Then one
// block per piece: it takes its splats 256 at a time, every thread setting up one splat's
// footprint; a block-wide prefix sum of the footprint sizes lays all their pixels end to end, and
// the block's 1024 threads walk that list, one pixel each, adding into the shared-memory Btile.
// (The seed gives each splat all threads of the block in turn; with most splats a few pixels
// wide, that leaves most threads idle.) The Btile is then added to the image with atomics.
//
// Chunks go through two slots (pinned staging buffer, device buffers): while the kernels of one
// slot's chunk run on the compute stream, the next chunk is copied into the other slot on the
// copy stream. The image comes back through the same staging buffers.
#include <cuda_runtime.h>
#include <omp.h>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/cuda_renderer.h"
#include "cuda/device_buffer.h"

namespace splotch {
namespace {
using cuda_detail::DeviceBuffer;
using cuda_detail::Event;
using cuda_detail::PinnedBuffer;
using cuda_detail::Stream;

constexpr int block_threads = 256;  // the small kernels
// The Btile kernel: a batch of splats is set up by one thread each, and all threads of the block
// walk their pixels. Many threads per block, because a Btile takes so much shared memory that an
// SM holds only one or two blocks, and the latency of exp and of the shared-memory atomics wants
// many warps to hide it (256 threads measured at about half the speed).
constexpr int btile_threads = 1024, batch_splats = 256;
constexpr int fields = 6;  // x, y, radius, e0, e1, e2

}  // namespace

// The session's page-locked buffers (cuda_renderer.h).
struct CudaSession::Buffers {
  PinnedBuffer<float> staging[2];  // fields x staging_chunk each
  std::size_t staging_chunk = 0;

  void reserve_staging(std::size_t chunk) {
    // Room for a useful piece of the image too, which goes back through these buffers.
    chunk = std::max(chunk, std::size_t(1) << 16);
    if (chunk <= staging_chunk) return;
    for (auto& b : staging) b.allocate(fields * chunk);
    staging_chunk = chunk;
  }
};

namespace {

struct BtileGrid {
  int tile_x, tile_y, boundary;
  int nx, ny;             // tiles
  std::uint32_t tiles;    // nx * ny; also the key of splats not drawn here
  int xres, yres;         // image
  float h2sigma;          // sigma = h2sigma r
};

// As truncate_to_int (splotch/geometry.h): the same float operations give the same pixels.
__device__ inline int truncate_clamped(float v) { return int(fminf(fmaxf(v, -1.0e9f), 1.0e9f)); }

// As centre_tile_along (splotch/tile_order.h): off-image centres count for the nearest tile.
__device__ inline int centre_tile(float v, int resolution, int tile, int tiles) {
  const int pixel = min(max(int(fminf(fmaxf(v, 0.0f), 1.0e9f)), 0), resolution - 1);
  return min(pixel / tile, tiles - 1);
}

struct Footprint {
  int x_lo, x_hi, y_lo, y_hi;
};
__device__ inline Footprint footprint(float X, float Y, float R, const BtileGrid& g) {
  return {max(truncate_clamped(X - R + 1.0f), 0), min(truncate_clamped(X + R + 1.0f), g.xres),
          max(truncate_clamped(Y - R + 1.0f), 0), min(truncate_clamped(Y + R + 1.0f), g.yres)};
}

// The splats the host draws (footprint radius beyond the boundary) and those with no pixel on
// the image get key g.tiles: they sort after every tile's range.
__global__ void key_kernel(const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ radius,
                           std::uint32_t n, BtileGrid g, std::uint32_t* __restrict__ key,
                           std::uint32_t* __restrict__ index) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float X = x[i], Y = y[i], R = 0.75f * radius[i];
  const Footprint f = footprint(X, Y, R, g);
  const bool here = R <= float(g.boundary) && f.x_lo < f.x_hi && f.y_lo < f.y_hi;
  key[i] = here ? std::uint32_t(centre_tile(Y, g.yres, g.tile_y, g.ny) * g.nx + centre_tile(X, g.xres, g.tile_x, g.nx))
                : g.tiles;
  index[i] = i;
}

// start[t] = the first sorted position with key >= t, for t = 0 .. tiles.
__global__ void tile_ranges_kernel(const std::uint32_t* __restrict__ key, std::uint32_t n, std::uint32_t tiles,
                                   std::uint32_t* __restrict__ start) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (key[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  start[t] = lo;
}

// A block's work: splats [begin, end) of the sorted order, all of one tile. A tile holding more
// than piece_splats splats is cut into several pieces, so that the dense tiles of a clustered
// snapshot do not leave one block working long after the others (pieces of one tile add to the
// image with atomics like neighbouring tiles do).
struct Piece {
  std::uint32_t tile, begin, end;
};
constexpr std::uint32_t piece_splats = 1024;

__global__ void piece_count_kernel(const std::uint32_t* __restrict__ start, std::uint32_t tiles,
                                   std::uint32_t* __restrict__ count) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < tiles) count[t] = (start[t + 1] - start[t] + piece_splats - 1) / piece_splats;
  else if (t == tiles) count[t] = 0;
}

// `first` is the exclusive prefix sum of the counts: first[tiles] pieces in all.
__global__ void pieces_kernel(const std::uint32_t* __restrict__ start, const std::uint32_t* __restrict__ first,
                              std::uint32_t tiles, Piece* __restrict__ pieces) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tiles) return;
  for (std::uint32_t k = first[t], b = start[t]; k < first[t + 1]; ++k, b += piece_splats)
    pieces[k] = {t, b, min(b + piece_splats, start[t + 1])};
}

struct ChunkFields {
  const float* f[fields];
};

// One block per piece of a tile; see the file comment.
__global__ void __launch_bounds__(btile_threads)
    btile_kernel(ChunkFields in, const std::uint32_t* __restrict__ order, const Piece* __restrict__ pieces,
                 const std::uint32_t* __restrict__ piece_total, BtileGrid g, float* __restrict__ image) {
  extern __shared__ float btile[];
  using Scan = cub::BlockScan<int, btile_threads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ float s_x[batch_splats], s_y[batch_splats], s_r2[batch_splats], s_inv[batch_splats];
  __shared__ float s_e[3][batch_splats];
  __shared__ int s_xlo[batch_splats], s_w[batch_splats], s_ylo[batch_splats], s_yhi[batch_splats];
  __shared__ int s_offset[batch_splats + 1];

  const int W = g.tile_x + 2 * g.boundary, H = g.tile_y + 2 * g.boundary, plane = W * H;
  if (blockIdx.x >= *piece_total) return;  // the grid is sized for the most pieces there can be
  const Piece piece = pieces[blockIdx.x];
  const int tile = int(piece.tile);
  const int ox = (tile % g.nx) * g.tile_x - g.boundary, oy = (tile / g.nx) * g.tile_y - g.boundary;
  const std::uint32_t begin = piece.begin, end = piece.end;
  for (int k = threadIdx.x; k < 3 * plane; k += btile_threads) btile[k] = 0.0f;

  for (std::uint32_t base = begin; base < end; base += batch_splats) {
    const int batch = int(min(end - base, std::uint32_t(batch_splats)));
    int pixels = 0;
    __syncthreads();  // the previous batch's pixel loop is done with the arrays and scan storage
    if (int(threadIdx.x) < batch) {
      const std::uint32_t p = order[base + threadIdx.x];
      const float X = in.f[0][p], Y = in.f[1][p], r = in.f[2][p];
      const float R = 0.75f * r, sigma = g.h2sigma * r;
      const Footprint f = footprint(X, Y, R, g);
      s_x[threadIdx.x] = X;
      s_y[threadIdx.x] = Y;
      s_r2[threadIdx.x] = R * R;
      s_inv[threadIdx.x] = 1.0f / (sigma * sigma);
      for (int c = 0; c < 3; ++c) s_e[c][threadIdx.x] = in.f[3 + c][p];
      s_xlo[threadIdx.x] = f.x_lo;
      s_w[threadIdx.x] = f.x_hi - f.x_lo;
      s_ylo[threadIdx.x] = f.y_lo;
      s_yhi[threadIdx.x] = f.y_hi;
      pixels = (f.x_hi - f.x_lo) * (f.y_hi - f.y_lo);  // keyed here, so not empty
    }
    int offset, total;
    Scan(scan).ExclusiveSum(pixels, offset, total);
    if (threadIdx.x < batch_splats) s_offset[threadIdx.x] = offset;
    if (threadIdx.x == 0) s_offset[batch] = total;
    __syncthreads();
    for (int q = threadIdx.x; q < total; q += btile_threads) {
      // The splat of pixel q: the last j with offset[j] <= q.
      int lo = 0, hi = batch;
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (s_offset[mid] <= q) lo = mid;
        else hi = mid;
      }
      const int j = lo, local = q - s_offset[j], w = s_w[j];
      const int px = s_xlo[j] + local % w, py = s_ylo[j] + local / w;
      // The column's rows inside the disc, exactly as the host renderer computes them.
      const float X = s_x[j], Y = s_y[j];
      const float dx = float(px) - X, dx2 = dx * dx;
      const float half = sqrtf(fmaxf(s_r2[j] - dx2, 0.0f));
      const int row_lo = max(s_ylo[j], truncate_clamped(Y - half + 1.0f));
      const int row_hi = min(s_yhi[j], truncate_clamped(Y + half + 1.0f));
      if (py < row_lo || py >= row_hi) continue;
      const float dy = float(py) - Y, inv = s_inv[j];
      // One fast exponential (relative error near 1e-6 here) for the host's product of two.
      const float weight = __expf(-(dx2 + dy * dy) * inv);
      const int at = (py - oy) * W + (px - ox);
      atomicAdd(btile + at, weight * s_e[0][j]);
      atomicAdd(btile + plane + at, weight * s_e[1][j]);
      atomicAdd(btile + 2 * plane + at, weight * s_e[2][j]);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < plane; k += btile_threads) {
    const int px = ox + k % W, py = oy + k / W;
    if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
    float* out = image + (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
    for (int c = 0; c < 3; ++c)
      if (btile[c * plane + k] != 0.0f) atomicAdd(out + c, btile[c * plane + k]);
  }
}

std::uint32_t blocks_for(std::size_t n) { return std::uint32_t((n + block_threads - 1) / block_threads); }

// Each tile with splats makes at least one piece, and every piece but a tile's last is full.
std::size_t most_pieces(std::size_t splats, std::uint32_t tiles) { return tiles + splats / piece_splats + 1; }

// The buffers of one chunk in flight.
struct Slot {
  DeviceBuffer<float> field;               // fields x chunk
  DeviceBuffer<std::uint32_t> key[2], order[2];
  DeviceBuffer<std::uint32_t> tile_start, piece_count, piece_first;  // tiles + 1
  DeviceBuffer<Piece> pieces;
  DeviceBuffer<unsigned char> sort_space, scan_space;
  std::size_t sort_bytes = 0, scan_bytes = 0;
  Event uploaded, rendered;

  // False when the device is out of memory.
  bool allocate(std::size_t chunk, std::uint32_t tiles, int key_bits) {
    cub::DoubleBuffer<std::uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    sort_bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, k, v, int(chunk), 0, key_bits));
    scan_bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::uint32_t*>(nullptr),
                                             static_cast<std::uint32_t*>(nullptr), int(tiles + 1)));
    return field.try_allocate(fields * chunk) && key[0].try_allocate(chunk) && key[1].try_allocate(chunk) &&
           order[0].try_allocate(chunk) && order[1].try_allocate(chunk) && tile_start.try_allocate(tiles + 1) &&
           piece_count.try_allocate(tiles + 1) && piece_first.try_allocate(tiles + 1) &&
           pieces.try_allocate(most_pieces(chunk, tiles)) &&
           sort_space.try_allocate(std::max<std::size_t>(sort_bytes, 1)) &&
           scan_space.try_allocate(std::max<std::size_t>(scan_bytes, 1));
  }
};

// Bytes of device memory a slot needs per particle of its chunk.
constexpr std::size_t slot_bytes_per_particle = fields * sizeof(float) + 4 * sizeof(std::uint32_t);

// The default chunk: a fixed size that keeps the pinned staging buffers modest and leaves enough
// chunks for copies to overlap kernels, within a third of the free device memory for both slots.
constexpr std::size_t default_chunk_particles = std::size_t(1) << 20;
std::size_t default_chunk(std::size_t n) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t by_memory = free_bytes / 3 / (2 * slot_bytes_per_particle);
  return std::max<std::size_t>(std::min({n, default_chunk_particles, by_memory}), 1);
}

constexpr int staging_threads = 8;

// The view's arrays in the order of a chunk's fields.
std::array<const float*, fields> fields_of(const SplatView& s) { return {s.x, s.y, s.radius, s.e[0], s.e[1], s.e[2]}; }

// The splats whose footprint radius is beyond the boundary, in index order (the GPU's key_kernel
// leaves exactly these out).
std::vector<std::uint32_t> host_splats(const SplatView& s, int boundary) {
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::uint32_t>> found(std::size_t(threads), std::vector<std::uint32_t>{});
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t lo = s.n * std::size_t(t) / std::size_t(threads), hi = s.n * std::size_t(t + 1) / std::size_t(threads);
    for (std::size_t i = lo; i < hi; ++i)
      if (0.75f * s.radius[i] > float(boundary)) found[std::size_t(t)].push_back(std::uint32_t(i));
  }
  std::vector<std::uint32_t> all;
  for (auto& part : found) all.insert(all.end(), part.begin(), part.end());
  return all;
}

struct GatheredSplats {
  std::vector<float> field[fields];
  SplatView view() const {
    SplatView v;
    v.n = field[0].size();
    v.x = field[0].data();
    v.y = field[1].data();
    v.radius = field[2].data();
    for (int c = 0; c < 3; ++c) v.e[c] = field[3 + c].data();
    return v;
  }
};

GatheredSplats gather(const SplatView& s, const std::vector<std::uint32_t>& which) {
  GatheredSplats g;
  const auto in = fields_of(s);
  for (int f = 0; f < fields; ++f) {
    g.field[f].resize(which.size());
    float* out = g.field[f].data();
    const float* from = in[f];
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < which.size(); ++k) out[k] = from[which[k]];
  }
  return g;
}

std::size_t btile_size(const BtileGrid& g) {
  return std::size_t(3) * std::size_t(g.tile_x + 2 * g.boundary) * std::size_t(g.tile_y + 2 * g.boundary) * sizeof(float);
}

void check_btile_fits(const CudaOptions& o, std::size_t bytes) {
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t own = 16 * 1024;  // the kernel's batch arrays and scan storage, rounded up
  if (bytes + own > std::size_t(limit))
    throw std::runtime_error("tile_x-side = " + std::to_string(o.tile_x) + ", tile_y-side = " + std::to_string(o.tile_y) +
                             " and tile_boundary_width = " + std::to_string(o.boundary) + " make a Btile of " +
                             std::to_string(bytes / 1024) + " KiB; this GPU offers " + std::to_string((limit - own) / 1024) +
                             " KiB of shared memory for it: use smaller tiles or a narrower boundary");
}

// Renders the GPU's splats (all those key_kernel keeps) into a device image, chunk by chunk, and
// leaves it in `image` (pixels floats, rgb interleaved); returns the number of chunks.
std::size_t render_on_device(const SplatView& s, const CudaOptions& o, const BtileGrid& g, std::size_t pixels,
                             CudaSession::Buffers& host, DeviceBuffer<float>& image) {
  const std::size_t btile_bytes = btile_size(g);
  CUDA_CHECK(cudaFuncSetAttribute(btile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(btile_bytes)));

  if (!image.try_allocate(pixels))
    throw std::runtime_error("the GPU has too little free memory for a " + std::to_string(g.xres) + " x " +
                             std::to_string(g.yres) + " image");
  Stream compute, copy;
  CUDA_CHECK(cudaMemsetAsync(image.get(), 0, pixels * sizeof(float), compute));

  const int key_bits = 32 - __builtin_clz(g.tiles);  // enough for the key g.tiles
  // (CUB sorts take int counts.)
  std::size_t chunk = std::min(o.chunk_particles > 0 ? std::min(o.chunk_particles, s.n) : default_chunk(s.n),
                               std::size_t(1) << 30);
  std::optional<Slot> slots[2];
  // Out of memory: free both slots, halve the chunk and try again (down to a size not worth
  // streaming).
  for (;;) {
    if (slots[0].emplace().allocate(chunk, g.tiles, key_bits) && slots[1].emplace().allocate(chunk, g.tiles, key_bits))
      break;
    slots[0].reset();
    slots[1].reset();
    if (chunk <= 4096)
      throw std::runtime_error("the GPU has too little free memory even for chunks of " + std::to_string(chunk) +
                               " particles");
    chunk /= 2;
  }
  host.reserve_staging(chunk);

  const auto in = fields_of(s);
  std::size_t k = 0;
  for (std::size_t begin = 0; begin < s.n; begin += chunk, ++k) {
    Slot& slot = *slots[k % 2];
    float* staging = host.staging[k % 2].get();
    const std::size_t count = std::min(chunk, s.n - begin);
    // The staging buffer is free once the upload of the chunk before last has finished.
    CUDA_CHECK(cudaEventSynchronize(slot.uploaded));
    // A few threads: one alone copies at a fraction of the memory bandwidth.
#pragma omp parallel for num_threads(staging_threads) schedule(static) collapse(2)
    for (int f = 0; f < fields; ++f)
      for (int part = 0; part < staging_threads; ++part) {
        const std::size_t lo = count * std::size_t(part) / staging_threads, hi = count * std::size_t(part + 1) / staging_threads;
        std::memcpy(staging + f * chunk + lo, in[f] + begin + lo, (hi - lo) * sizeof(float));
      }
    // The device buffers are free once that chunk's kernels have finished.
    CUDA_CHECK(cudaStreamWaitEvent(copy, slot.rendered, 0));
    for (int f = 0; f < fields; ++f)
      CUDA_CHECK(cudaMemcpyAsync(slot.field.get() + f * chunk, staging + f * chunk, count * sizeof(float),
                                 cudaMemcpyHostToDevice, copy));
    CUDA_CHECK(cudaEventRecord(slot.uploaded, copy));
    CUDA_CHECK(cudaStreamWaitEvent(compute, slot.uploaded, 0));

    const float* field = slot.field.get();
    key_kernel<<<blocks_for(count), block_threads, 0, compute>>>(field, field + chunk, field + 2 * chunk,
                                                                 std::uint32_t(count), g, slot.key[0].get(),
                                                                 slot.order[0].get());
    CUDA_CHECK(cudaGetLastError());
    cub::DoubleBuffer<std::uint32_t> keys(slot.key[0].get(), slot.key[1].get());
    cub::DoubleBuffer<std::uint32_t> order(slot.order[0].get(), slot.order[1].get());
    std::size_t sort_bytes = slot.sort_bytes;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(slot.sort_space.get(), sort_bytes, keys, order, int(count), 0, key_bits,
                                               compute));
    tile_ranges_kernel<<<blocks_for(g.tiles + 1), block_threads, 0, compute>>>(keys.Current(), std::uint32_t(count),
                                                                               g.tiles, slot.tile_start.get());
    CUDA_CHECK(cudaGetLastError());
    piece_count_kernel<<<blocks_for(g.tiles + 1), block_threads, 0, compute>>>(slot.tile_start.get(), g.tiles,
                                                                               slot.piece_count.get());
    CUDA_CHECK(cudaGetLastError());
    std::size_t scan_bytes = slot.scan_bytes;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(slot.scan_space.get(), scan_bytes, slot.piece_count.get(),
                                             slot.piece_first.get(), int(g.tiles + 1), compute));
    pieces_kernel<<<blocks_for(g.tiles), block_threads, 0, compute>>>(slot.tile_start.get(), slot.piece_first.get(),
                                                                      g.tiles, slot.pieces.get());
    CUDA_CHECK(cudaGetLastError());
    ChunkFields chunk_fields;
    for (int f = 0; f < fields; ++f) chunk_fields.f[f] = field + f * chunk;
    // The grid covers the most pieces there can be; blocks beyond the real count return at once
    // (so that the host need not wait for the count).
    btile_kernel<<<std::uint32_t(most_pieces(count, g.tiles)), btile_threads, btile_bytes, compute>>>(
        chunk_fields, order.Current(), slot.pieces.get(), slot.piece_first.get() + g.tiles, g, image.get());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(slot.rendered, compute));
  }
  CUDA_CHECK(cudaStreamSynchronize(compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  return k;
}

// out[k] += device[k] for k < floats: the device image comes back through the two staging
// buffers in turn, each piece added while the next one is copied.
void add_device_image(const float* device, std::size_t floats, CudaSession::Buffers& b, float* out) {
  const std::size_t piece = fields * b.staging_chunk;
  Stream stream;
  Event copied[2];
  auto fetch = [&](std::size_t k) {
    const std::size_t at = k * piece, n = std::min(piece, floats - at);
    CUDA_CHECK(cudaMemcpyAsync(b.staging[k % 2].get(), device + at, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaEventRecord(copied[k % 2], stream));
  };
  fetch(0);
  for (std::size_t k = 0; k * piece < floats; ++k) {
    if ((k + 1) * piece < floats) fetch(k + 1);  // into the buffer whose piece was added last time
    CUDA_CHECK(cudaEventSynchronize(copied[k % 2]));
    const std::size_t at = k * piece, n = std::min(piece, floats - at);
    const float* from = b.staging[k % 2].get();
    float* to = out + at;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) to[i] += from[i];
  }
}

}  // namespace

CudaSession::CudaSession() : buffers_(std::make_unique<Buffers>()) { CUDA_CHECK(cudaFree(nullptr)); }

CudaSession::CudaSession(std::size_t chunk_particles) : CudaSession() {
  buffers_->reserve_staging(chunk_particles > 0 ? chunk_particles : default_chunk_particles);
}

CudaSession::~CudaSession() = default;

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

CudaReport render_cuda(const SplatView& s, const CudaOptions& o, Image& image, CudaSession* session) {
  CudaReport report;
  if (s.n == 0 || image.width <= 0 || image.height <= 0) return report;
  if (o.tile_x < 1 || o.tile_y < 1 || o.boundary < 0)
    throw std::invalid_argument("render_cuda: tile sides must be positive and the boundary not negative");
  if (s.n > std::size_t(UINT32_MAX)) throw std::invalid_argument("render_cuda: more than 2^32 splats in one call");
  BtileGrid g;
  g.tile_x = o.tile_x;
  g.tile_y = o.tile_y;
  g.boundary = o.boundary;
  g.nx = (image.width + o.tile_x - 1) / o.tile_x;
  g.ny = (image.height + o.tile_y - 1) / o.tile_y;
  g.tiles = std::uint32_t(g.nx) * std::uint32_t(g.ny);
  g.xres = image.width;
  g.yres = image.height;
  g.h2sigma = float(0.5 * std::pow(3.14159265358979323846, -1.0 / 6.0));

  check_btile_fits(o, btile_size(g));

  // The large splats on CPU threads, straight into the image, while the GPU works.
  const std::vector<std::uint32_t> big = host_splats(s, o.boundary);
  report.on_host = big.size();
  report.on_gpu = s.n - big.size();
  const GatheredSplats host_part = gather(s, big);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  std::future<double> host_work = std::async(std::launch::async, [&] {
    render_host(host_part.view(), o.host, image);
    return seconds_since(start);
  });

  const std::size_t pixels = std::size_t(image.width) * std::size_t(image.height) * 3;
  std::unique_ptr<CudaSession> own_session;
  if (!session) session = (own_session = std::make_unique<CudaSession>()).get();
  CudaSession::Buffers& buffers = session->buffers();
  DeviceBuffer<float> device_image;
  try {
    report.chunks = render_on_device(s, o, g, pixels, buffers, device_image);
    report.gpu_seconds = seconds_since(start);
  } catch (...) {
    host_work.wait();  // it writes into `image`: let it finish before the caller sees the error
    throw;
  }
  report.host_seconds = host_work.get();
  add_device_image(device_image.get(), pixels, buffers, image.rgb.data());
  return report;
}

}  // namespace splotch
