// What every GPU renderer computes about a splat, with the host renderer's float operations, so
// that the GPU covers the same pixels (splotch/stages/geometry.h footprint(), the column-wise disc of
// splotch/render/host_renderer.cc) and the same weights.
#pragma once

#include <cstdint>

namespace splotch::cuda_detail {

// The image, its tiles and the rules of a render.
struct RenderGrid {
  int xres, yres;          // image, pixels
  int tile_x, tile_y;      // tile sides, pixels
  int boundary;            // Btile boundary, pixels
  int nx, ny;              // tiles
  std::uint32_t tiles;     // nx * ny; also the key of splats not drawn by a tile
  float h2sigma;           // sigma = h2sigma r
  float gray;              // gray_absorption (a_eq_e = FALSE)
  bool big_on_host;        // splats with a footprint radius beyond `boundary` are the host's
  __host__ __device__ std::uint32_t pixels() const { return std::uint32_t(xres) * std::uint32_t(yres); }
};

// As truncate_to_int (splotch/stages/geometry.h): clamped first, so that huge splats cannot overflow.
__device__ inline int truncate_clamped(float v) { return int(fminf(fmaxf(v, -1.0e9f), 1.0e9f)); }

// As centre_tile_along (splotch/stages/tile_order.h): off-image centres count for the nearest tile.
__device__ inline int centre_tile(float v, int resolution, int tile, int tiles) {
  const int pixel = min(max(int(fminf(fmaxf(v, 0.0f), 1.0e9f)), 0), resolution - 1);
  return min(pixel / tile, tiles - 1);
}

struct Footprint {
  int x_lo, x_hi, y_lo, y_hi;  // pixels [lo, hi), clipped to the image
  __device__ bool empty() const { return x_lo >= x_hi || y_lo >= y_hi; }
  __device__ int width() const { return x_hi - x_lo; }
  __device__ int height() const { return y_hi - y_lo; }
};

// A splat set up for drawing: centre, footprint radius squared, 1 / sigma^2, footprint.
struct SplatShape {
  float X, Y, R2, inv_sigma2;
  Footprint f;
};

__device__ inline SplatShape shape_of(float X, float Y, float r, const RenderGrid& g) {
  const float R = 0.75f * r, sigma = g.h2sigma * r;
  return {X, Y, R * R, 1.0f / (sigma * sigma),
          {max(truncate_clamped(X - R + 1.0f), 0), min(truncate_clamped(X + R + 1.0f), g.xres),
           max(truncate_clamped(Y - R + 1.0f), 0), min(truncate_clamped(Y + R + 1.0f), g.yres)}};
}

// Whether a splat (of radius r) is drawn on the GPU at all: it has a pixel on the image and is not
// the host's (the host's test in cuda_renderer.cu is the same float comparison).
__device__ inline bool drawn_on_gpu(const SplatShape& s, float r, const RenderGrid& g) {
  return !s.f.empty() && !(g.big_on_host && 0.75f * r > float(g.boundary));
}

// The splat's weight at pixel (px, py) of its footprint: exp(-d^2 / sigma^2) inside the disc (for
// the pixel's column, the rows within sqrt(R^2 - dx^2) of Y, as the host computes them), 0 outside.
// One fast exponential (relative error near 1e-6 here) for the host's product of two.
__device__ inline float weight_at(const SplatShape& s, int px, int py) {
  const float dx = float(px) - s.X, dx2 = dx * dx;
  const float half = sqrtf(fmaxf(s.R2 - dx2, 0.0f));
  const int row_lo = max(s.f.y_lo, truncate_clamped(s.Y - half + 1.0f));
  const int row_hi = min(s.f.y_hi, truncate_clamped(s.Y + half + 1.0f));
  if (py < row_lo || py >= row_hi) return 0.0f;
  const float dy = float(py) - s.Y;
  return __expf(-(dx2 + dy * dy) * s.inv_sigma2);
}

// a_eq_e = FALSE: the colour a splat's absorption pulls towards, q = e / (e + gray).
__device__ inline float absorption_colour(float e, float gray) {
  const float d = e + gray;
  return d != 0.0f ? e / d : 0.0f;
}

}  // namespace splotch::cuda_detail
