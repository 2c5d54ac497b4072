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
//
// The sums are integers, so that the picture is the same from run to run: atomic float additions
// land in no fixed order, and their roundings differ with it (on the H100 up to 3 pictures of
// tests/picture_check.sh's 18 differed between two runs of one build); integer addition gives one
// sum in any order. A piece adds its contributions in 32-bit fixed point scaled by a power of two,
// from the piece's sum of |emission| (no pixel of its Btile can hold more, every weight being at
// most 1), so the Btile stays the size of a float one; pieces add into a 64-bit image scaled from
// the chunk's bound (its splats times the largest |emission|), which a last kernel adds to the
// float image, each value by one thread. (64-bit Btiles would double the shared memory: the default
// 96 x 96 Btile would no longer fit an H100's.) A contribution's rounding is at most 2^-30 of its
// piece's sum, and a piece's at most 2^-60 of its chunk's bound: a pixel as bright as a few
// hundredths of its piece's sum keeps the precision of a float sum, a pixel 10^4 times fainter than
// the brightest splat of its tile still a part in 10^4 or so, and contributions below 2^-31 of the
// piece's sum (a contrast of 10^9 within one tile) are lost. NaN and infinite emissions have no
// bound: they add to the float image as they are, where they absorb the rest in any order. The
// picture is the same for the same chunks: they are 2^20 splats (gpu_chunk_particles), or 2^22 of
// the particles kept on the GPU, but fewer on a GPU short of free memory, and then the last bits of
// the float image may differ.
#include <algorithm>
#include <cfloat>
#include <cub/block/block_reduce.cuh>
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
// the block walk their pixels (kernel_config.h). Every splat of a piece gives one thread its
// emission for the piece's bound.
static_assert(piece_splats <= std::uint32_t(btile_threads), "a piece's splats, one a thread");

// The fixed point of the sums (see the file comment): a sum of at most `bound` is held as an
// integer of at most 2^bits, scaled by 2^(bits - E) where bound < 2^E.
constexpr int piece_bits = 30, chunk_bits = 60;

__device__ inline int exponent_above(double bound) {  // E with bound < 2^E (0 for 0)
  int e = 0;
  frexp(bound, &e);
  return e;
}
__device__ inline double power_of_two(int k) {  // k within +-1022
  return __longlong_as_double((long long)(1023 + k) << 52);
}
// A chunk's scale for one channel: `largest` holds its largest |emission|'s float bits.
__device__ inline int chunk_exponent(std::uint32_t largest, std::uint32_t count) {
  return chunk_bits - exponent_above(double(count) * double(__uint_as_float(largest)));
}
// An emission's size for the bounds. A NaN or infinite one has none: its splat adds to the float
// image directly, where it absorbs whatever else is added, in any order.
__device__ inline float bounded(float e) { return isfinite(e) ? fabsf(e) : 0.0f; }

// q in units of 2^-from, in units of 2^-to, rounded to nearest (halves up). (From a piece to its
// chunk d is at most 30: the chunk's bound is at least the piece's.)
__device__ inline long long rescaled(int q, int from, int to) {
  const int d = to - from;
  if (d >= 0) return (long long)q * (long long)(1ull << min(d, 62));
  if (d < -32) return 0;  // |q| < 2^31
  return ((long long)q + (1ll << (-d - 1))) >> -d;
}

// The splats the host draws and those with no pixel on the image get key g.tiles: they sort
// after every tile's range. The largest |emission| of each channel of the drawn splats, for the
// chunk's scale, goes to `largest` (as float bits, which order as the floats do when not
// negative).
__global__ void key_kernel(Chunk c, RenderGrid g, std::uint32_t* __restrict__ key, std::uint32_t* __restrict__ index,
                           std::uint32_t* __restrict__ largest) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  float e[3] = {0.0f, 0.0f, 0.0f};
  if (i < c.count) {
    const float X = c.x[i], Y = c.y[i], r = c.radius[i];
    const SplatShape s = shape_of(X, Y, r, g);
    const bool drawn = drawn_on_gpu(s, r, g);
    key[i] = drawn
                 ? std::uint32_t(centre_tile(Y, g.yres, g.tile_y, g.ny) * g.nx + centre_tile(X, g.xres, g.tile_x, g.nx))
                 : g.tiles;
    index[i] = i;
    if (drawn)
      for (int ch = 0; ch < 3; ++ch) e[ch] = bounded(c.e[ch][i]);
  }
  // The block's largest, then one atomic a block. (Every thread of the block is here.)
  __shared__ float warp_largest[3][small_block / 32];
  for (int ch = 0; ch < 3; ++ch) {
    for (int lane = 16; lane > 0; lane /= 2) e[ch] = fmaxf(e[ch], __shfl_xor_sync(0xffffffffu, e[ch], lane));
    if (threadIdx.x % 32 == 0) warp_largest[ch][threadIdx.x / 32] = e[ch];
  }
  __syncthreads();
  if (threadIdx.x < 3) {
    float most = 0.0f;
    for (int w = 0; w < small_block / 32; ++w) most = fmaxf(most, warp_largest[threadIdx.x][w]);
    if (most > 0.0f) atomicMax(largest + threadIdx.x, __float_as_uint(most));
  }
}

using PieceReduce = cub::BlockReduce<double, btile_threads>;

// A piece's scale per channel, 2^exponent (into `exponent`, shared memory), from its splats' sum
// of |emission|, which bounds every pixel of its Btile: summed in double, in the block's fixed
// order, so the same from run to run. Every thread of the block calls it.
__device__ void piece_exponents(const Chunk& c, const std::uint32_t* __restrict__ order, const Piece& piece,
                                PieceReduce::TempStorage& temp, int* exponent) {
  const std::uint32_t mine = piece.begin + threadIdx.x;
  for (int ch = 0; ch < 3; ++ch) {
    const double e = mine < piece.end ? double(bounded(c.e[ch][order[mine]])) : 0.0;
    const double total = PieceReduce(temp).Sum(e);
    if (threadIdx.x == 0) exponent[ch] = piece_bits - exponent_above(total);
    __syncthreads();  // the reduction's storage is used again, and `exponent` is read
  }
}

// An emission in the piece's fixed point (exact but for underflow: a power of two), or as it is
// where it has no bound (NaN, infinite).
__device__ inline float scaled(float e, int exponent) { return isfinite(e) ? scalbnf(e, exponent) : e; }

// One block per piece of a tile; see the file comment.
__global__ void __launch_bounds__(btile_threads)
    btile_kernel(Chunk c, const std::uint32_t* __restrict__ order, const Piece* __restrict__ pieces,
                 const std::uint32_t* __restrict__ piece_total, RenderGrid g, const std::uint32_t* __restrict__ largest,
                 unsigned long long* __restrict__ sum, float* __restrict__ image) {
  extern __shared__ int btile[];
  using Scan = cub::BlockScan<int, btile_threads>;
  __shared__ union {
    typename Scan::TempStorage scan;
    PieceReduce::TempStorage reduce;
  } temp;
  __shared__ SplatShape s_shape[batch_splats];
  __shared__ float s_e[3][batch_splats];
  __shared__ unsigned char s_unbounded[batch_splats];  // bit ch: emission ch NaN or infinite
  __shared__ int s_offset[batch_splats + 1];
  __shared__ int s_exponent[3];

  const int W = g.tile_x + 2 * g.boundary, H = g.tile_y + 2 * g.boundary, plane = W * H;
  if (blockIdx.x >= *piece_total) return;  // the grid is sized for the most pieces there can be
  const Piece piece = pieces[blockIdx.x];
  const int tile = int(piece.tile);
  const int ox = (tile % g.nx) * g.tile_x - g.boundary, oy = (tile / g.nx) * g.tile_y - g.boundary;
  for (int k = threadIdx.x; k < 3 * plane; k += btile_threads) btile[k] = 0;

  piece_exponents(c, order, piece, temp.reduce, s_exponent);

  for (std::uint32_t base = piece.begin; base < piece.end; base += batch_splats) {
    const int batch = int(min(piece.end - base, std::uint32_t(batch_splats)));
    int pixels = 0;
    __syncthreads();  // the previous batch's pixel loop is done with the arrays and scan storage
    if (int(threadIdx.x) < batch) {
      const std::uint32_t p = order[base + threadIdx.x];
      const SplatShape s = shape_of(c.x[p], c.y[p], c.radius[p], g);
      s_shape[threadIdx.x] = s;
      unsigned unbounded = 0;
      for (int ch = 0; ch < 3; ++ch) {
        const float e = c.e[ch][p];
        s_e[ch][threadIdx.x] = scaled(e, s_exponent[ch]);
        unbounded |= isfinite(e) ? 0u : 1u << ch;
      }
      s_unbounded[threadIdx.x] = (unsigned char)unbounded;
      pixels = s.f.width() * s.f.height();  // keyed here, so not empty
    }
    int offset, total;
    Scan(temp.scan).ExclusiveSum(pixels, offset, total);
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
      if (s_unbounded[j] == 0) {
        atomicAdd(btile + at, __float2int_rn(weight * s_e[0][j]));
        atomicAdd(btile + plane + at, __float2int_rn(weight * s_e[1][j]));
        atomicAdd(btile + 2 * plane + at, __float2int_rn(weight * s_e[2][j]));
        continue;
      }
      float* to = image + (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
      for (int ch = 0; ch < 3; ++ch) {
        const float v = weight * s_e[ch][j];
        if (s_unbounded[j] & (1u << ch))
          atomicAdd(to + ch, v);  // (NaN or infinite: the same whatever else is added, in any order)
        else
          atomicAdd(btile + ch * plane + at, __float2int_rn(v));
      }
    }
  }
  __syncthreads();
  int exponent[3];
  for (int ch = 0; ch < 3; ++ch) exponent[ch] = chunk_exponent(largest[ch], c.count);
  for (int k = threadIdx.x; k < plane; k += btile_threads) {
    const int lx = k % W, ly = k / W, px = ox + lx, py = oy + ly;
    if (px < 0 || py < 0 || px >= g.xres || py >= g.yres) continue;
    const std::size_t pixel = (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * 3;
    for (int ch = 0; ch < 3; ++ch) {
      const int q = btile[ch * plane + k];
      if (q != 0) atomicAdd(sum + pixel + ch, (unsigned long long)rescaled(q, s_exponent[ch], exponent[ch]));
    }
  }
}

// The chunk's sums added to the float image, each value by one thread (so in one order from run
// to run), and cleared for the next chunk.
__global__ void add_sums_kernel(unsigned long long* __restrict__ sum, std::size_t values,
                                const std::uint32_t* __restrict__ largest, std::uint32_t count,
                                float* __restrict__ image) {
  const int exponent[3] = {chunk_exponent(largest[0], count), chunk_exponent(largest[1], count),
                           chunk_exponent(largest[2], count)};
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < values;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const long long q = (long long)sum[i];
    if (q == 0) continue;
    image[i] += float(double(q) * power_of_two(-exponent[i % 3]));
    sum[i] = 0;
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
    if (!scratch_.allocate([&](DeviceLayout& l) { return lay_out(l, chunk); })) return false;
    // Cleared once (and done before any kernel of the render's streams, which do not wait for the
    // default stream): each chunk's last kernel leaves the sums it added cleared.
    CUDA_CHECK(cudaMemsetAsync(scratch_->sum, 0, 3 * std::size_t(g_.pixels()) * sizeof(*scratch_->sum), nullptr));
    CUDA_CHECK(cudaStreamSynchronize(nullptr));
    return true;
  }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    const Scratch& a = *scratch_;
    const std::size_t values = 3 * std::size_t(g_.pixels());
    CUDA_CHECK(cudaMemsetAsync(a.largest, 0, 3 * sizeof(*a.largest), stream));
    key_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, g_, a.key[0], a.order[0], a.largest);
    CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint32_t> keys(a.key[0], a.key[1]), order(a.order[0], a.order[1]);
    sort_pairs(a.sort, keys, order, c.count, key_bits_, stream);
    a.pieces.make(keys.Current(), c.count, stream);
    // The grid covers the most pieces there can be; blocks beyond the real count return at once
    // (so that the host need not wait for the count).
    const std::uint32_t blocks = std::uint32_t(TilePieces::most_pieces(c.count, g_.tiles));
    btile_kernel<<<blocks, btile_threads, btile_bytes(g_), stream>>>(c, order.Current(), a.pieces.pieces(),
                                                                     a.pieces.total(), g_, a.largest, a.sum, image);
    CUDA_CHECK_LAUNCH();
    add_sums_kernel<<<sum_blocks(values), small_block, 0, stream>>>(a.sum, values, a.largest, c.count, image);
    CUDA_CHECK_LAUNCH();
  }

 private:
  struct Scratch {
    std::uint32_t *key[2], *order[2];
    TilePieces pieces;
    CubScratch sort;
    unsigned long long* sum;  // the chunk's sums, 3 a pixel, in the chunk's fixed point (0 between chunks)
    std::uint32_t* largest;   // per channel, float bits
  };
  // Blocks of the grid-stride loop over `values`: enough to fill the GPU, no more.
  static std::uint32_t sum_blocks(std::size_t values) { return std::min<std::uint32_t>(blocks_for(values), 65536); }
  Scratch lay_out(DeviceLayout& l, std::size_t chunk) const {
    Scratch a{};
    for (int k = 0; k < 2; ++k) {
      a.key[k] = l.take<std::uint32_t>(chunk);
      a.order[k] = l.take<std::uint32_t>(chunk);
    }
    a.pieces = TilePieces::lay_out(l, chunk, g_.tiles);
    a.sort = take_cub_scratch(l, sort_pairs_bytes(chunk, key_bits_));
    a.sum = l.take<unsigned long long>(3 * std::size_t(g_.pixels()));
    a.largest = l.take<std::uint32_t>(3);
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
  // Less the kernel's own shared arrays (the batch's splats, the scan's storage).
  cudaFuncAttributes kernel{};
  CUDA_CHECK(cudaFuncGetAttributes(&kernel, btile_kernel));
  return std::size_t(limit) > kernel.sharedSizeBytes ? std::size_t(limit) - kernel.sharedSizeBytes : 0;
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
