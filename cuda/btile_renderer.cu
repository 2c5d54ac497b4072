// Btile rendering (seed 004, Algorithm B) for a_eq_e; see chunk_renderer.h.
//
// Per chunk: each splat's key (the tile holding its centre, or "not here" for the host's splats
// and those off the image), a radix sort of (key, index), and the tiles' ranges cut into pieces
// (tile_pieces.cuh; pieces of one tile add to the image with atomics). Then one block per piece:
// it takes its splats 256 at a time, every thread setting up one splat's footprint; a block-wide
// prefix sum of the footprint sizes lays all their pixels end to end, and the block's 1024
// threads walk that list, one pixel each, adding into the shared-memory Btile. (The seed gives
// each splat all threads of the block in turn; with most splats a few pixels wide, that leaves
// most threads idle.) The Btile is then added to the image with atomics.
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <stdexcept>
#include <string>

#include "cuda/chunk_renderer.h"
#include "cuda/splat_items.cuh"
#include "cuda/tile_pieces.cuh"

namespace splotch::cuda_detail {
namespace {

// A batch of splats is set up by one thread each, and all threads of the block walk their pixels.
// Many threads per block, because a Btile takes so much shared memory that an SM holds only one
// or two blocks, and the latency of exp and of the shared-memory atomics wants many warps to hide
// it (256 threads measured at about half the speed).
constexpr int btile_threads = 1024, batch_splats = 256;

// The splats the host draws and those with no pixel on the image get key g.tiles: they sort
// after every tile's range.
__global__ void key_kernel(Chunk c, RenderGrid g, std::uint32_t* __restrict__ key, std::uint32_t* __restrict__ index) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.count) return;
  const float X = c.x[i], Y = c.y[i], r = c.radius[i];
  const SplatShape s = shape_of(X, Y, r, g);
  key[i] = drawn_on_gpu(s, r, g)
               ? std::uint32_t(centre_tile(Y, g.yres, g.tile_y, g.ny) * g.nx + centre_tile(X, g.xres, g.tile_x, g.nx))
               : g.tiles;
  index[i] = i;
}

// One block per piece of a tile; see the file comment.
__global__ void __launch_bounds__(btile_threads)
    btile_kernel(Chunk c, const std::uint32_t* __restrict__ order, const Piece* __restrict__ pieces,
                 const std::uint32_t* __restrict__ piece_total, RenderGrid g, float* __restrict__ image) {
  extern __shared__ float btile[];
  using Scan = cub::BlockScan<int, btile_threads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ SplatShape s_shape[batch_splats];
  __shared__ float s_e[3][batch_splats];
  __shared__ int s_offset[batch_splats + 1];

  const int W = g.tile_x + 2 * g.boundary, H = g.tile_y + 2 * g.boundary, plane = W * H;
  if (blockIdx.x >= *piece_total) return;  // the grid is sized for the most pieces there can be
  const Piece piece = pieces[blockIdx.x];
  const int tile = int(piece.tile);
  const int ox = (tile % g.nx) * g.tile_x - g.boundary, oy = (tile / g.nx) * g.tile_y - g.boundary;
  for (int k = threadIdx.x; k < 3 * plane; k += btile_threads) btile[k] = 0.0f;

  for (std::uint32_t base = piece.begin; base < piece.end; base += batch_splats) {
    const int batch = int(min(piece.end - base, std::uint32_t(batch_splats)));
    int pixels = 0;
    __syncthreads();  // the previous batch's pixel loop is done with the arrays and scan storage
    if (int(threadIdx.x) < batch) {
      const std::uint32_t p = order[base + threadIdx.x];
      const SplatShape s = shape_of(c.x[p], c.y[p], c.radius[p], g);
      s_shape[threadIdx.x] = s;
      for (int ch = 0; ch < 3; ++ch) s_e[ch][threadIdx.x] = c.e[ch][p];
      pixels = s.f.width() * s.f.height();  // keyed here, so not empty
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
      const int j = lo, local = q - s_offset[j];
      const SplatShape& s = s_shape[j];
      const int w = s.f.width(), px = s.f.x_lo + local % w, py = s.f.y_lo + local / w;
      const float weight = weight_at(s, px, py);
      if (weight == 0.0f) continue;
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
    for (int ch = 0; ch < 3; ++ch)
      if (btile[ch * plane + k] != 0.0f) atomicAdd(out + ch, btile[ch * plane + k]);
  }
}

class BtileRenderer : public ChunkRenderer {
 public:
  explicit BtileRenderer(const RenderGrid& g) : g_(g), key_bits_(bits_for(g.tiles)) {
    check_btile_fits(g_);
    CUDA_CHECK(cudaFuncSetAttribute(btile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(btile_bytes(g_))));
  }

  bool allocate(std::size_t chunk) override {
    cub::DoubleBuffer<std::uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    sort_bytes_ = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes_, k, v, int(chunk), 0, key_bits_));
    return key_[0].try_allocate(chunk) && key_[1].try_allocate(chunk) && order_[0].try_allocate(chunk) &&
           order_[1].try_allocate(chunk) && pieces_.allocate(chunk, g_.tiles) &&
           sort_space_.try_allocate(std::max<std::size_t>(sort_bytes_, 1));
  }
  std::size_t bytes_per_splat() const override { return 4 * sizeof(std::uint32_t); }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    key_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, g_, key_[0].get(), order_[0].get());
    CUDA_CHECK(cudaGetLastError());
    cub::DoubleBuffer<std::uint32_t> keys(key_[0].get(), key_[1].get()), order(order_[0].get(), order_[1].get());
    std::size_t sort_bytes = sort_bytes_;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_space_.get(), sort_bytes, keys, order, int(c.count), 0, key_bits_,
                                               stream));
    pieces_.make(keys.Current(), c.count, stream);
    // The grid covers the most pieces there can be; blocks beyond the real count return at once
    // (so that the host need not wait for the count).
    btile_kernel<<<std::uint32_t(TilePieces::most_pieces(c.count, g_.tiles)), btile_threads, btile_bytes(g_), stream>>>(
        c, order.Current(), pieces_.pieces(), pieces_.total(), g_, image);
    CUDA_CHECK(cudaGetLastError());
  }

 private:
  RenderGrid g_;
  int key_bits_;
  DeviceBuffer<std::uint32_t> key_[2], order_[2];
  TilePieces pieces_;
  DeviceBuffer<unsigned char> sort_space_;
  std::size_t sort_bytes_ = 0;
};

}  // namespace

std::size_t btile_bytes(const RenderGrid& g) {
  return std::size_t(3) * std::size_t(g.tile_x + 2 * g.boundary) * std::size_t(g.tile_y + 2 * g.boundary) * sizeof(float);
}

void check_btile_fits(const RenderGrid& g) {
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t own = 16 * 1024;  // the kernel's batch arrays and scan storage, rounded up
  const std::size_t bytes = btile_bytes(g);
  if (bytes + own > std::size_t(limit))
    throw std::runtime_error("tile_x-side = " + std::to_string(g.tile_x) + ", tile_y-side = " + std::to_string(g.tile_y) +
                             " and tile_boundary_width = " + std::to_string(g.boundary) + " make a Btile of " +
                             std::to_string(bytes / 1024) + " KiB; this GPU offers " + std::to_string((limit - own) / 1024) +
                             " KiB of shared memory for it: use smaller tiles or a narrower boundary");
}

std::unique_ptr<ChunkRenderer> make_btile_renderer(const RenderGrid& grid) { return std::make_unique<BtileRenderer>(grid); }

}  // namespace splotch::cuda_detail
