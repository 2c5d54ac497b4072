// Btile rendering (seed 004, Algorithm B) for a_eq_e; see chunk_renderer.h.
//
// Per chunk: each splat's key (the tile holding its centre, or "not here" for the host's splats
// and those off the image), a radix sort of (key, index), and the tiles' ranges cut into pieces
// (tile_pieces.cuh; pieces of one tile add to the image with atomics). Then one block per piece:
// it takes its splats 256 at a time, every thread setting up one splat's footprint; a block-wide
// prefix sum of the footprint sizes lays all their pixels end to end, and the block's 1024
// threads walk that list, one pixel each, adding into the shared-memory Btile. (The seed gives
// each splat all threads of the block in turn; with most splats a few pixels wide, that leaves
// most threads idle.) The Btile then goes to the image with atomics: Btiles of neighbouring tiles
// overlap by the boundary, and the blocks of one tile's pieces overlap wholly. (The seed's
// race-free scheme, the interior added plainly and the boundary strips kept per tile and added in
// steps whose strips cannot overlap, and a variant with the boundaries in a second image, drew the
// same picture no faster on the H100: kernels of the benchmark at 1e8 particles, 2048^2, 0.088 and
// 0.082 s against 0.079 s, and they took more memory; they are gone. docs/performance.md.)
#include <cub/block/block_scan.cuh>
#include <stdexcept>
#include <string>

#include "cuda/chunk_renderer.h"
#include "cuda/cub_calls.cuh"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"
#include "cuda/tile_pieces.cuh"

namespace splotch::cuda_detail {
namespace {

// A batch of batch_splats splats is set up by one thread each, and all btile_threads threads of
// the block walk their pixels (kernel_config.h).

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
        if (s_offset[mid] <= q)
          lo = mid;
        else
          hi = mid;
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
    const int lx = k % W, ly = k / W, px = ox + lx, py = oy + ly;
    if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
    const std::size_t pixel = (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
    const float v[3] = {btile[k], btile[plane + k], btile[2 * plane + k]};
    for (int ch = 0; ch < 3; ++ch)
      if (v[ch] != 0.0f) atomicAdd(image + pixel + ch, v[ch]);
  }
}

class BtileRenderer : public ChunkRenderer {
 public:
  explicit BtileRenderer(const RenderGrid& g) : g_(g), key_bits_(bits_for(g.tiles)) {
    check_btile_fits(g_);
    CUDA_CHECK(cudaFuncSetAttribute(btile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(btile_bytes(g_))));
  }

  std::size_t bytes_for(std::size_t chunk) const override {
    return bytes_of([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }
  bool allocate(std::size_t chunk) override {
    return scratch_.allocate([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    const Scratch& a = *scratch_;
    key_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, g_, a.key[0], a.order[0]);
    CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint32_t> keys(a.key[0], a.key[1]), order(a.order[0], a.order[1]);
    sort_pairs(a.sort, keys, order, c.count, key_bits_, stream);
    a.pieces.make(keys.Current(), c.count, stream);
    // The grid covers the most pieces there can be; blocks beyond the real count return at once
    // (so that the host need not wait for the count).
    const std::uint32_t blocks = std::uint32_t(TilePieces::most_pieces(c.count, g_.tiles));
    btile_kernel<<<blocks, btile_threads, btile_bytes(g_), stream>>>(c, order.Current(), a.pieces.pieces(),
                                                                     a.pieces.total(), g_, image);
    CUDA_CHECK_LAUNCH();
  }

 private:
  struct Scratch {
    std::uint32_t *key[2], *order[2];
    TilePieces pieces;
    CubScratch sort;
  };
  Scratch lay_out(DeviceLayout& l, std::size_t chunk) const {
    Scratch a{};
    for (int k = 0; k < 2; ++k) {
      a.key[k] = l.take<std::uint32_t>(chunk);
      a.order[k] = l.take<std::uint32_t>(chunk);
    }
    a.pieces = TilePieces::lay_out(l, chunk, g_.tiles);
    a.sort = take_cub_scratch(l, sort_pairs_bytes(chunk, key_bits_));
    return a;
  }

  RenderGrid g_;
  int key_bits_;
  DeviceArena<Scratch> scratch_;
};

}  // namespace

std::size_t btile_bytes(const RenderGrid& g) { return splotch::btile_bytes(g.tile_x, g.tile_y, g.boundary); }

std::size_t btile_bytes_available() {
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return std::size_t(limit) > btile_own_shared_bytes ? std::size_t(limit) - btile_own_shared_bytes : 0;
}

void check_btile_fits(const RenderGrid& g) {
  const std::size_t bytes = btile_bytes(g), available = btile_bytes_available();
  if (bytes > available)
    throw std::runtime_error(
        "tile_x-side = " + std::to_string(g.tile_x) + ", tile_y-side = " + std::to_string(g.tile_y) +
        " and tile_boundary_width = " + std::to_string(g.boundary) + " make a Btile of " +
        std::to_string(bytes / 1024) + " KiB; this GPU offers " + std::to_string(available / 1024) +
        " KiB of shared memory for it: use smaller tiles or a narrower boundary");
}

std::unique_ptr<ChunkRenderer> make_btile_renderer(const RenderGrid& grid) {
  return std::make_unique<BtileRenderer>(grid);
}

}  // namespace splotch::cuda_detail
