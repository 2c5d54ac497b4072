// What every GPU renderer computes about a splat: the footprint, sigma and the "drawn on the GPU"
// test from splotch/splat/splat_maths.h, which the host renderer uses too, so that the GPU covers
// the same pixels; the column-wise disc as splotch/render/host_renderer.cc computes it.
#pragma once

#include <cstdint>

#include "splotch/splat/splat_maths.h"

namespace splotch::cuda_detail {

// The image, its tiles and the rules of a render.
struct RenderGrid {
  int xres, yres;       // image, pixels
  int tile_x, tile_y;   // tile sides, pixels
  int boundary;         // Btile boundary, pixels
  int nx, ny;           // tiles
  std::uint32_t tiles;  // nx * ny; also the key of splats not drawn by a tile
  float gray;           // gray_absorption (a_eq_e = FALSE)
  bool big_on_host;     // splats with a footprint radius beyond `boundary` are the host's
  __host__ __device__ std::uint32_t pixels() const { return std::uint32_t(xres) * std::uint32_t(yres); }
};

// As centre_tile_along (splotch/stages/tile_order.h): off-image centres count for the nearest tile.
__device__ inline int centre_tile(float v, int resolution, int tile, int tiles) {
  const int pixel = min(max(int(fminf(fmaxf(v, 0.0f), coordinate_limit)), 0), resolution - 1);
  return min(pixel / tile, tiles - 1);
}

// A splat set up for drawing: centre, footprint radius squared, 1 / sigma^2, footprint.
struct SplatShape {
  float X, Y, R2, inv_sigma2;
  Footprint f;
};

__device__ inline SplatShape shape_of(float X, float Y, float r, const RenderGrid& g) {
  const float R = footprint_radius(r), sigma = h2sigma * r;
  return {X, Y, R * R, 1.0f / (sigma * sigma), footprint(X, Y, r, g.xres, g.yres)};
}

// Whether a splat (of radius r) is drawn on the GPU at all: it has a pixel on the image and is not
// left to the CPU threads (splotch/render/gpu_render.cc picks those with the same beyond_boundary).
__device__ inline bool drawn_on_gpu(const SplatShape& s, float r, const RenderGrid& g) {
  return !s.f.empty() && !(g.big_on_host && beyond_boundary(r, g.boundary));
}

// The splat's weight at pixel (px, py) of its footprint: exp(-d^2 / sigma^2) inside the disc (for
// the pixel's column, the rows within sqrt(R^2 - dx^2) of Y, as the host computes them), 0 outside.
// One fast exponential (relative error near 1e-6 here) for the host's product of two.
__device__ inline float weight_at(const SplatShape& s, int px, int py) {
  const float dx = float(px) - s.X, dx2 = dx * dx;
  const float half = sqrtf(fmaxf(s.R2 - dx2, 0.0f));
  const int row_lo = max(s.f.y_lo, truncate_to_int(s.Y - half + 1.0f));
  const int row_hi = min(s.f.y_hi, truncate_to_int(s.Y + half + 1.0f));
  if (py < row_lo || py >= row_hi) return 0.0f;
  const float dy = float(py) - s.Y;
  return __expf(-(dx2 + dy * dy) * s.inv_sigma2);
}

}  // namespace splotch::cuda_detail
