// a_eq_e = FALSE on the GPU, tile by tile (as tile-based Gaussian splatting does): the chunk is
// put in draw order, every splat is listed in each tile its footprint touches, the list is sorted
// by tile (stably, so each tile's splats stay in draw order), and one block per tile walks its
// splats in order, each thread compositing its own pixels: no two threads write one pixel, and
// every pixel sees its splats in the host renderer's order. Large splats stay here too: the host
// cannot composite its part separately and add it (see cuda_renderer.h). Dense tiles are cut into
// pieces that composite side by side into per-pixel maps, applied in order afterwards.
//
// The lists are built in passes that fit the scratch memory; passes follow the draw order, so
// compositing pass after pass keeps every pixel's order.
//
// The same lists draw the splats larger than the Btile boundary with a_eq_e (additive): each
// pixel's map is then P -> P + B, the sum of its splats' weight times emission, so that those
// splats need not go to CPU threads (which, with several processes of a node each drawing frames,
// the processes share).
//
// And they draw a layer of a_eq_e = FALSE (one process's range of the draw order, which others
// composite over and under): six floats a pixel, the colour C composited over black and the
// transmittance T, the product of the splats' exp(-w e), which is the map's A.
#include <algorithm>

#include "cuda/chunk_renderer.h"
#include "cuda/cub_calls.cuh"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"
#include "cuda/tile_pieces.cuh"

namespace splotch::cuda_detail {
namespace {

// Compositing tiles of composite_side pixels square, one thread per pixel (kernel_config.h; the
// tile sides of the parameters shape the additive Btiles).

// The number of tiles each splat touches, in draw order.
__global__ void tile_count_kernel(Chunk c, const std::uint32_t* __restrict__ order, RenderGrid g,
                                  std::uint64_t* __restrict__ count) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= c.count) return;
  SplatShape s;
  if (!drawn_splat(c, order, j, g, s)) {
    count[j] = 0;
    return;
  }
  const TileSpan t = tile_span(s.f, g.tile_x, g.tile_y);
  count[j] = std::uint64_t(t.width()) * std::uint64_t(t.height());
}

// Entries [first, first + n) of the lists: (tile, draw position of the splat).
__global__ void tile_entries_kernel(Chunk c, const std::uint32_t* __restrict__ order,
                                    const std::uint64_t* __restrict__ end, std::uint64_t first, std::uint32_t n,
                                    RenderGrid g, std::uint32_t* __restrict__ tile,
                                    std::uint32_t* __restrict__ position) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const std::uint64_t item = first + t;
  const std::uint32_t j = owner_of(end, c.count, item);
  const std::uint32_t k = std::uint32_t(item - (j > 0 ? end[j - 1] : 0));
  const std::uint32_t p = order[j];
  const TileSpan s = tile_span(shape_of(c.x[p], c.y[p], c.radius[p], g).f, g.tile_x, g.tile_y);
  tile[t] = std::uint32_t(s.ty0 + int(k) / s.width()) * std::uint32_t(g.nx) + std::uint32_t(s.tx0 + int(k) % s.width());
  position[t] = j;
}

// Pieces of a tile (tile_pieces.cuh) run side by side: each composites its splats into a map
// P -> A P + B per pixel, kept in its scratch slot, and combine_kernel applies a tile's maps in
// order. A tile of one piece applies its map straight away.

// What the maps draw: a_eq_e = FALSE's picture, a_eq_e's sum (A stays 1), or a layer (C, T).
enum class Mode { composite, sum, layer };
__host__ __device__ constexpr int channels(Mode m) { return m == Mode::layer ? 6 : 3; }

template <Mode M>
__device__ inline float* pixel_of(float* image, const RenderGrid& g, int px, int py) {
  return image + (std::size_t(py) * std::size_t(g.xres) + std::size_t(px)) * channels(M);
}

// One block per piece, one thread per pixel of the tile; splats staged through shared memory.
template <Mode M>
__global__ void __launch_bounds__(composite_threads)
    composite_kernel(Chunk c, const std::uint32_t* __restrict__ order, const std::uint32_t* __restrict__ position,
                     const Piece* __restrict__ pieces, const std::uint32_t* __restrict__ piece_total, RenderGrid g,
                     float* __restrict__ image, float* __restrict__ scratch) {
  __shared__ SplatShape s_shape[composite_threads];
  __shared__ float s_e[3][composite_threads], s_q[3][composite_threads];
  if (blockIdx.x >= *piece_total) return;  // the grid is sized for the most pieces there can be
  const Piece piece = pieces[blockIdx.x];
  const int x0 = int(piece.tile % std::uint32_t(g.nx)) * composite_side;
  const int y0 = int(piece.tile / std::uint32_t(g.nx)) * composite_side;
  const int px = x0 + int(threadIdx.x) % composite_side, py = y0 + int(threadIdx.x) / composite_side;
  const bool on_image = px < g.xres && py < g.yres;
  // The piece's map P -> A P + B: each splat turns P into P + (P - q)(exp(-w e) - 1), as the host
  // writes it, so B goes the same way and A picks up the factor exp(-w e).
  float A[3] = {1.0f, 1.0f, 1.0f}, B[3] = {0.0f, 0.0f, 0.0f};
  for (std::uint32_t base = piece.begin; base < piece.end; base += composite_threads) {
    const int batch = int(min(piece.end - base, std::uint32_t(composite_threads)));
    __syncthreads();  // the previous batch is done with the shared arrays
    if (int(threadIdx.x) < batch) {
      const std::uint32_t p = order[position[base + threadIdx.x]];
      s_shape[threadIdx.x] = shape_of(c.x[p], c.y[p], c.radius[p], g);
      for (int ch = 0; ch < 3; ++ch) {
        const float e = c.e[ch][p];
        s_e[ch][threadIdx.x] = e;
        s_q[ch][threadIdx.x] = absorption_colour(e, g.gray);
      }
    }
    __syncthreads();
    for (int j = 0; j < batch; ++j) {
      const SplatShape& s = s_shape[j];
      if (px < s.f.x_lo || px >= s.f.x_hi || py < s.f.y_lo || py >= s.f.y_hi) continue;
      const float weight = weight_at(s, px, py);
      if (weight == 0.0f) continue;  // as the host, which leaves pixels outside the disc alone
      for (int ch = 0; ch < 3; ++ch) {
        if constexpr (M == Mode::sum) {
          B[ch] += weight * s_e[ch][j];
        } else {
          const float t = __expf(-weight * s_e[ch][j]) - 1.0f;
          B[ch] += (B[ch] - s_q[ch][j]) * t;
          A[ch] += A[ch] * t;
        }
      }
    }
  }
  if (!on_image) return;
  if (piece.scratch == no_scratch) {
    float* P = pixel_of<M>(image, g, px, py);
    for (int ch = 0; ch < 3; ++ch) {
      P[ch] = A[ch] * P[ch] + B[ch];
      if constexpr (M == Mode::layer) P[3 + ch] *= A[ch];
    }
  } else {
    float* out = scratch + (std::size_t(piece.scratch) * composite_threads + threadIdx.x) * 6;
    for (int ch = 0; ch < 3; ++ch) {
      out[ch] = A[ch];
      out[3 + ch] = B[ch];
    }
  }
}

// One block per tile cut into pieces: each pixel takes the pieces' maps in order.
template <Mode M>
__global__ void __launch_bounds__(composite_threads)
    combine_kernel(const std::uint32_t* __restrict__ first, const std::uint32_t* __restrict__ first_slot, RenderGrid g,
                   const float* __restrict__ scratch, float* __restrict__ image) {
  const std::uint32_t t = blockIdx.x;
  const std::uint32_t pieces = first[t + 1] - first[t];
  if (pieces < 2) return;
  const int px = int(t % std::uint32_t(g.nx)) * composite_side + int(threadIdx.x) % composite_side;
  const int py = int(t / std::uint32_t(g.nx)) * composite_side + int(threadIdx.x) / composite_side;
  if (px >= g.xres || py >= g.yres) return;
  float* P = pixel_of<M>(image, g, px, py);
  float v[3] = {P[0], P[1], P[2]}, T[3] = {1.0f, 1.0f, 1.0f};
  if constexpr (M == Mode::layer)
    for (int ch = 0; ch < 3; ++ch) T[ch] = P[3 + ch];
  for (std::uint32_t k = 0; k < pieces; ++k) {
    const float* map = scratch + (std::size_t(first_slot[t] + k) * composite_threads + threadIdx.x) * 6;
    for (int ch = 0; ch < 3; ++ch) {
      v[ch] = map[ch] * v[ch] + map[3 + ch];
      T[ch] *= map[ch];
    }
  }
  for (int ch = 0; ch < 3; ++ch) P[ch] = v[ch];
  if constexpr (M == Mode::layer)
    for (int ch = 0; ch < 3; ++ch) P[3 + ch] = T[ch];
}

RenderGrid composite_grid(RenderGrid g) {
  g.tile_x = g.tile_y = composite_side;
  g.big_on_host = false;  // every splat is drawn here
  g.nx = (g.xres + composite_side - 1) / composite_side;
  g.ny = (g.yres + composite_side - 1) / composite_side;
  g.tiles = std::uint32_t(g.nx) * std::uint32_t(g.ny);
  return g;
}

class TileCompositeRenderer : public ChunkRenderer {
 public:
  TileCompositeRenderer(const RenderGrid& g, std::size_t pass_items, Mode mode)
      : g_(composite_grid(g)), key_bits_(bits_for(g_.tiles - 1)), pass_items_(pass_items), mode_(mode) {}

  std::size_t bytes_for(std::size_t chunk) const override {
    return bytes_of([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }
  bool allocate(std::size_t chunk) override {
    return scratch_.allocate([&](DeviceLayout& l) { return lay_out(l, chunk); });
  }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    const Scratch& a = *scratch_;
    const std::uint32_t* order = a.order.sort(c, stream);
    tile_count_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, order, g_, a.items.counts());
    CUDA_CHECK_LAUNCH();
    const std::uint64_t total = a.items.scan(c.count, stream);
    const std::uint32_t tiles = g_.tiles;
    for (std::uint64_t first = 0; first < total; first += a.capacity) {
      const std::uint32_t n = std::uint32_t(std::min<std::uint64_t>(a.capacity, total - first));
      tile_entries_kernel<<<blocks_for(n), small_block, 0, stream>>>(c, order, a.items.ends(), first, n, g_, a.tile[0],
                                                                     a.position[0]);
      CUDA_CHECK_LAUNCH();
      cub::DoubleBuffer<std::uint32_t> keys(a.tile[0], a.tile[1]), positions(a.position[0], a.position[1]);
      sort_pairs(a.sort, keys, positions, n, key_bits_, stream);  // stable: each tile's entries stay in draw order
      a.pieces.make(keys.Current(), n, stream);
      // The grid covers the most pieces there can be; blocks beyond the real count return at once.
      auto composite = mode_ == Mode::sum     ? composite_kernel<Mode::sum>
                       : mode_ == Mode::layer ? composite_kernel<Mode::layer>
                                              : composite_kernel<Mode::composite>;
      composite<<<std::uint32_t(TilePieces::most_pieces(n, tiles)), composite_threads, 0, stream>>>(
          c, order, positions.Current(), a.pieces.pieces(), a.pieces.total(), g_, image, a.maps);
      CUDA_CHECK_LAUNCH();
      auto combine = mode_ == Mode::layer ? combine_kernel<Mode::layer> : combine_kernel<Mode::composite>;
      combine<<<tiles, composite_threads, 0, stream>>>(a.pieces.first_piece(), a.pieces.first_slot(), g_, a.maps,
                                                       image);
      CUDA_CHECK_LAUNCH();
    }
  }

 private:
  struct Scratch {
    std::size_t capacity;  // list entries per pass
    DrawOrder order;
    ItemScan items;
    std::uint32_t *tile[2], *position[2];
    TilePieces pieces;
    float* maps;  // the split tiles' per-pixel maps, 6 floats per pixel and slot
    CubScratch sort;
  };
  Scratch lay_out(DeviceLayout& l, std::size_t chunk) const {
    Scratch a{};
    // Room for every splat to touch tile_entries_per_splat tiles in one pass; more makes more passes.
    a.capacity = pass_items_ > 0 ? pass_items_ : std::max(tile_entries_per_splat * chunk, fewest_pass_items);
    a.order = DrawOrder::lay_out(l, chunk);
    a.items = ItemScan::lay_out(l, chunk);
    for (int k = 0; k < 2; ++k) {
      a.tile[k] = l.take<std::uint32_t>(a.capacity);
      a.position[k] = l.take<std::uint32_t>(a.capacity);
    }
    a.pieces = TilePieces::lay_out(l, a.capacity, g_.tiles);
    a.maps = l.take<float>(TilePieces::most_slots(a.capacity) * composite_threads * 6);
    a.sort = take_cub_scratch(l, sort_pairs_bytes(a.capacity, key_bits_));
    return a;
  }

  RenderGrid g_;
  int key_bits_;
  std::size_t pass_items_;
  Mode mode_;
  DeviceArena<Scratch> scratch_;
};

}  // namespace

std::unique_ptr<ChunkRenderer> make_tile_composite_renderer(const RenderGrid& grid, std::size_t pass_items) {
  return std::make_unique<TileCompositeRenderer>(grid, pass_items, Mode::composite);
}

std::unique_ptr<ChunkRenderer> make_tile_sum_renderer(const RenderGrid& grid, std::size_t pass_items) {
  return std::make_unique<TileCompositeRenderer>(grid, pass_items, Mode::sum);
}

std::unique_ptr<ChunkRenderer> make_tile_layer_renderer(const RenderGrid& grid, std::size_t pass_items) {
  return std::make_unique<TileCompositeRenderer>(grid, pass_items, Mode::layer);
}

}  // namespace splotch::cuda_detail
