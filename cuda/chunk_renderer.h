// The interface between the streaming driver (cuda_renderer.cu) and the GPU algorithms: the
// driver brings chunks of splats to the device, an algorithm draws each chunk into the device
// image. CUDA code only (included by .cu files).
//
// An algorithm's scratch memory serves every chunk: its kernels all run on the one compute
// stream, so chunk k + 1's kernels start after chunk k's are done (only the chunks' uploads, into
// the driver's two slots, overlap them).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "cuda/cuda_renderer.h"
#include "cuda/splat_shape.cuh"

namespace splotch::cuda_detail {

// A chunk on the device: x, y, radius, e0, e1, e2, and with a_eq_e = FALSE the draw keys (null:
// draw in chunk order). Either the arrays hold the chunk's `count` splats, in draw order one
// chunk after another (splotch/splat/draw_order_chunks.h) but not within a chunk; or `order` lists
// them: the chunk's splats are x[order[0]], ... x[order[count - 1]], already in draw order (all
// splats on the device, sorted there).
struct Chunk {
  const float* x;
  const float* y;
  const float* radius;
  const float* e[3];
  const std::uint32_t* key;
  std::uint32_t count;
  const std::uint32_t* order;
};

class ChunkRenderer {
 public:
  virtual ~ChunkRenderer() = default;
  // Device bytes of its scratch for chunks of up to `chunk` splats, for sizing the chunk; what
  // allocate(chunk) takes (both come from the algorithm's one lay_out, device_layout.h).
  virtual std::size_t bytes_for(std::size_t chunk) const = 0;
  // Scratch for chunks of up to `chunk` splats, replacing what it held; false when the device is
  // out of memory (the driver then tries a smaller chunk).
  virtual bool allocate(std::size_t chunk) = 0;
  // Queues the drawing of the chunk into `image` (xres * yres pixels, RGB interleaved) on
  // `stream`. With a_eq_e the chunk's splats are added, otherwise composited in draw order over
  // what the image holds. May wait for the stream (to learn how much work a chunk makes). Every
  // chunk of a render comes on the same stream.
  virtual void draw(const Chunk& chunk, float* image, cudaStream_t stream) = 0;
  // Queues, after the last chunk's draw(), whatever the algorithm still owes the image.
  virtual void finish(float* /*image*/, cudaStream_t /*stream*/) {}
};

// seed 004 Algorithm B, a_eq_e: splats in the tile of their centre, Btiles in shared memory,
// added to the image with atomics.
std::unique_ptr<ChunkRenderer> make_btile_renderer(const RenderGrid& grid);
// a_eq_e = FALSE, tile by tile: each tile composites, one thread per pixel, the splats touching it.
// `pass_items` (0: from free memory) bounds the tile-list entries of one pass.
std::unique_ptr<ChunkRenderer> make_tile_composite_renderer(const RenderGrid& grid, std::size_t pass_items);
// a_eq_e's sum the same way, tile by tile, for splats of any size (those larger than the Btile
// boundary, which the Btiles leave out).
std::unique_ptr<ChunkRenderer> make_tile_sum_renderer(const RenderGrid& grid, std::size_t pass_items);
// a_eq_e = FALSE's layer the same way: six floats a pixel, the colour composited over what it
// holds and the transmittance multiplied by the splats' (cuda/split_draw.cu).
std::unique_ptr<ChunkRenderer> make_tile_layer_renderer(const RenderGrid& grid, std::size_t pass_items);
// seed 004 Algorithm A, either a_eq_e: a fragment per pixel of a splat, sorted and reduced by pixel.
// `pass_items` (0: from free memory) bounds the fragments of one pass.
std::unique_ptr<ChunkRenderer> make_fragment_renderer(const RenderGrid& grid, bool a_eq_e, std::size_t pass_items);

// Bytes of shared memory a Btile takes, the most this GPU offers one, and a clear error when
// it has not that much.
std::size_t btile_bytes(const RenderGrid& grid);
std::size_t btile_bytes_available();
void check_btile_fits(const RenderGrid& grid);

}  // namespace splotch::cuda_detail
