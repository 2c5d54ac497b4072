// Btile rendering (seed 004, Algorithm B) for a_eq_e; see chunk_renderer.h.
//
// Per chunk: each splat's key (the tile holding its centre, or "not here" for the host's splats
// and those off the image), a radix sort of (key, index), and the tiles' ranges cut into pieces
// (tile_pieces.cuh; pieces of one tile add to the image with atomics). Then one block per piece:
// it takes its splats 256 at a time, every thread setting up one splat's footprint; a block-wide
// prefix sum of the footprint sizes lays all their pixels end to end, and the block's 1024
// threads walk that list, one pixel each, adding into the shared-memory Btile. (The seed gives
// each splat all threads of the block in turn; with most splats a few pixels wide, that leaves
// most threads idle.) The Btile then goes to the image as BtileWrites (cuda_renderer.h) says.
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

// The boundary strips of a Btile (W x H pixels: the tile of Tx x Ty grown by B on every side) as
// eight regions: left and right sides (B x Ty), top and bottom sides (Tx x B), four corners
// (B x B), numbered in that order and stored one after another (three_step keeps them per tile).
struct BtileRing {
  int Tx, Ty, B;
  __host__ __device__ explicit BtileRing(const RenderGrid& g) : Tx(g.tile_x), Ty(g.tile_y), B(g.boundary) {}
  __host__ __device__ int size() const { return 2 * B * (Tx + Ty) + 4 * B * B; }
  // Region r's first pixel in Btile coordinates, its width and height, and its first ring index.
  struct Region {
    int x0, y0, w, h, at;
  };
  __host__ __device__ Region region(int r) const {
    const int side = B * Ty, top = Tx * B, corner = B * B;
    switch (r) {
      case 0: return {0, B, B, Ty, 0};
      case 1: return {B + Tx, B, B, Ty, side};
      case 2: return {B, 0, Tx, B, 2 * side};
      case 3: return {B, B + Ty, Tx, B, 2 * side + top};
      case 4: return {0, 0, B, B, 2 * side + 2 * top};
      case 5: return {B + Tx, 0, B, B, 2 * side + 2 * top + corner};
      case 6: return {0, B + Ty, B, B, 2 * side + 2 * top + 2 * corner};
      default: return {B + Tx, B + Ty, B, B, 2 * side + 2 * top + 3 * corner};
    }
  }
  // The ring index of Btile pixel (lx, ly), or -1 in the interior.
  __device__ int index(int lx, int ly) const {
    const int cx = lx < B ? 0 : lx < B + Tx ? 1 : 2, cy = ly < B ? 0 : ly < B + Ty ? 1 : 2;
    constexpr int region_of[3][3] = {{4, 2, 5}, {0, -1, 1}, {6, 3, 7}};  // [cy][cx]
    const int r = region_of[cy][cx];
    if (r < 0) return -1;
    const Region g = region(r);
    return g.at + (ly - g.y0) * g.w + (lx - g.x0);
  }
};

// Where a block writes its Btile: the image, and for BtileWrites::boundary the image the
// boundaries go to, for three_step the tiles' strips (ring.size() x 3 floats per tile).
struct BtileTargets {
  float* image;
  float* edge;
  float* strips;
};

// One block per piece of a tile; see the file comment.
template <BtileWrites writes>
__global__ void __launch_bounds__(btile_threads)
    btile_kernel(Chunk c, const std::uint32_t* __restrict__ order, const Piece* __restrict__ pieces,
                 const std::uint32_t* __restrict__ piece_total, RenderGrid g, BtileTargets to) {
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
  // The only block of its tile writes the interior without atomics: no other block touches it.
  const bool alone = piece.scratch == no_scratch;
  const BtileRing ring(g);
  for (int k = threadIdx.x; k < plane; k += btile_threads) {
    const int lx = k % W, ly = k / W, px = ox + lx, py = oy + ly;
    if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
    const std::size_t pixel = (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
    const float v[3] = {btile[k], btile[plane + k], btile[2 * plane + k]};
    const int r = writes == BtileWrites::atomics ? -1 : ring.index(lx, ly);
    if (writes == BtileWrites::atomics || (r < 0 && !alone)) {
      for (int ch = 0; ch < 3; ++ch)
        if (v[ch] != 0.0f) atomicAdd(to.image + pixel + ch, v[ch]);
    } else if (r < 0) {
      if (v[0] != 0.0f || v[1] != 0.0f || v[2] != 0.0f)
        for (int ch = 0; ch < 3; ++ch) to.image[pixel + ch] += v[ch];
    } else if (writes == BtileWrites::boundary) {
      for (int ch = 0; ch < 3; ++ch)
        if (v[ch] != 0.0f) atomicAdd(to.edge + pixel + ch, v[ch]);
    } else {
      // three_step: a tile of one block stores its whole ring (the step kernels read all of it);
      // the blocks of a split tile add into a ring zeroed beforehand.
      float* strip = to.strips + std::size_t(tile) * 3 * std::size_t(ring.size()) + r;
      for (int ch = 0; ch < 3; ++ch) {
        if (alone)
          strip[ch * ring.size()] = v[ch];
        else if (v[ch] != 0.0f)
          atomicAdd(strip + ch * ring.size(), v[ch]);
      }
    }
  }
}

// three_step: zeroes the rings of the tiles of several blocks (first_piece: per tile, its first
// piece; tiles + 1 entries). One block per tile.
__global__ void clear_split_rings_kernel(const std::uint32_t* __restrict__ first_piece, BtileRing ring,
                                         float* __restrict__ strips) {
  const std::uint32_t tile = blockIdx.x;
  if (first_piece[tile + 1] - first_piece[tile] < 2) return;
  float* mine = strips + std::size_t(tile) * 3 * std::size_t(ring.size());
  for (int k = threadIdx.x; k < 3 * ring.size(); k += blockDim.x) mine[k] = 0.0f;
}

// three_step: adds the strips of regions `regions` (a bit per region of BtileRing) of every tile
// drawn in this chunk to the image. The caller groups regions so that no two strips of one launch
// overlap: plain adds, no atomics. One block per tile.
__global__ void add_strips_kernel(const std::uint32_t* __restrict__ first_piece, RenderGrid g, unsigned regions,
                                  const float* __restrict__ strips, float* __restrict__ image) {
  const std::uint32_t tile = blockIdx.x;
  if (first_piece[tile + 1] == first_piece[tile]) return;  // nothing drawn there
  const BtileRing ring(g);
  const int ox = int(tile % std::uint32_t(g.nx)) * g.tile_x - g.boundary;
  const int oy = int(tile / std::uint32_t(g.nx)) * g.tile_y - g.boundary;
  const float* mine = strips + std::size_t(tile) * 3 * std::size_t(ring.size());
  for (int r = 0; r < 8; ++r) {
    if (!(regions & (1u << r))) continue;
    const BtileRing::Region region = ring.region(r);
    for (int k = threadIdx.x; k < region.w * region.h; k += blockDim.x) {
      const int px = ox + region.x0 + k % region.w, py = oy + region.y0 + k / region.w;
      if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
      float* out = image + (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
      for (int ch = 0; ch < 3; ++ch) out[ch] += mine[ch * ring.size() + region.at + k];
    }
  }
}

// boundary: adds the boundaries' image to the image and clears it for the next render.
__global__ void fold_edges_kernel(std::size_t floats, float* __restrict__ edge, float* __restrict__ image) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= floats) return;
  const float v = edge[i];
  if (v != 0.0f) {
    image[i] += v;
    edge[i] = 0.0f;
  }
}

class BtileRenderer : public ChunkRenderer {
 public:
  BtileRenderer(const RenderGrid& g, BtileWrites writes) : g_(g), writes_(writes), key_bits_(bits_for(g.tiles)) {
    check_btile_fits(g_);
    if (writes_ == BtileWrites::three_step && !three_step_fits(g_.tile_x, g_.tile_y, g_.boundary))
      throw std::invalid_argument("btile_writes = three_step needs the boundary no wider than a tile");
    for (auto kernel : {btile_kernel<BtileWrites::atomics>, btile_kernel<BtileWrites::boundary>,
                        btile_kernel<BtileWrites::three_step>})
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(btile_bytes(g_))));
  }

  std::size_t bytes_for(std::size_t chunk) const override {
    return bytes_of([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }
  bool allocate(std::size_t chunk) override {
    edge_cleared_ = false;
    return scratch_.allocate([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    const Scratch& a = *scratch_;
    if (writes_ == BtileWrites::boundary && !edge_cleared_) {
      CUDA_CHECK(cudaMemsetAsync(a.edge, 0, std::size_t(g_.pixels()) * 3 * sizeof(float), stream));
      edge_cleared_ = true;  // and fold_edges_kernel leaves it cleared
    }
    key_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, g_, a.key[0], a.order[0]);
    CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint32_t> keys(a.key[0], a.key[1]), order(a.order[0], a.order[1]);
    sort_pairs(a.sort, keys, order, c.count, key_bits_, stream);
    a.pieces.make(keys.Current(), c.count, stream);
    const BtileRing ring(g_);
    if (writes_ == BtileWrites::three_step) {
      clear_split_rings_kernel<<<g_.tiles, small_block, 0, stream>>>(a.pieces.first_piece(), ring, a.strips);
      CUDA_CHECK_LAUNCH();
    }
    // The grid covers the most pieces there can be; blocks beyond the real count return at once
    // (so that the host need not wait for the count).
    const std::uint32_t blocks = std::uint32_t(TilePieces::most_pieces(c.count, g_.tiles));
    const BtileTargets to{image, a.edge, a.strips};
    auto launch = [&](auto kernel) {
      kernel<<<blocks, btile_threads, btile_bytes(g_), stream>>>(c, order.Current(), a.pieces.pieces(),
                                                                 a.pieces.total(), g_, to);
      CUDA_CHECK_LAUNCH();
    };
    if (writes_ == BtileWrites::atomics)
      launch(btile_kernel<BtileWrites::atomics>);
    else if (writes_ == BtileWrites::boundary)
      launch(btile_kernel<BtileWrites::boundary>);
    else
      launch(btile_kernel<BtileWrites::three_step>);
    if (writes_ != BtileWrites::three_step) return;
    // The seed's steps: sides, then top and bottom, then corners; when the boundary is wider than
    // half a tile, the strips of tiles two apart would overlap, so each region goes alone.
    const bool narrow = 2 * g_.boundary <= g_.tile_x && 2 * g_.boundary <= g_.tile_y;
    const unsigned narrow_steps[] = {0x03u, 0x0cu, 0xf0u};
    for (unsigned step = 0; step < (narrow ? 3u : 8u); ++step) {
      add_strips_kernel<<<g_.tiles, small_block, 0, stream>>>(
          a.pieces.first_piece(), g_, narrow ? narrow_steps[step] : 1u << step, a.strips, image);
      CUDA_CHECK_LAUNCH();
    }
  }

  void finish(float* image, cudaStream_t stream) override {
    if (writes_ != BtileWrites::boundary) return;
    const std::size_t floats = std::size_t(g_.pixels()) * 3;
    fold_edges_kernel<<<blocks_for(floats), small_block, 0, stream>>>(floats, scratch_->edge, image);
    CUDA_CHECK_LAUNCH();
  }

 private:
  struct Scratch {
    std::uint32_t *key[2], *order[2];
    TilePieces pieces;
    CubScratch sort;
    float* edge;    // boundary: the boundaries' image (per render, not per splat)
    float* strips;  // three_step: the tiles' rings (likewise)
  };
  Scratch lay_out(DeviceLayout& l, std::size_t chunk) const {
    Scratch a{};
    for (int k = 0; k < 2; ++k) {
      a.key[k] = l.take<std::uint32_t>(chunk);
      a.order[k] = l.take<std::uint32_t>(chunk);
    }
    a.pieces = TilePieces::lay_out(l, chunk, g_.tiles);
    a.sort = take_cub_scratch(l, sort_pairs_bytes(chunk, key_bits_));
    if (writes_ == BtileWrites::boundary) a.edge = l.take<float>(std::size_t(g_.pixels()) * 3);
    if (writes_ == BtileWrites::three_step)
      a.strips = l.take<float>(std::size_t(g_.tiles) * 3 * std::size_t(BtileRing(g_).size()));
    return a;
  }

  RenderGrid g_;
  BtileWrites writes_;
  int key_bits_;
  DeviceArena<Scratch> scratch_;
  bool edge_cleared_ = false;
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

std::unique_ptr<ChunkRenderer> make_btile_renderer(const RenderGrid& grid, BtileWrites writes) {
  return std::make_unique<BtileRenderer>(grid, writes);
}

}  // namespace splotch::cuda_detail
