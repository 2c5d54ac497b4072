// The arithmetic of a splat (docs/design.md section 4, "Render") that the host renderer and the GPU
// renderers must do alike, to the bit: the same pixels covered, the same sigma, the same colour
// pulled towards. Compiled by g++ and by nvcc (for host and device), so each rule is written once.
// What is deliberately not here: the weight's exponential (the host's fast_exp of two factors, the
// GPU's __expf of one; they differ by about 1e-6 and tests allow that) and the SIMD forms of these
// rules in the host's inner loops, which take their constants from here.
#pragma once

#include <algorithm>

#ifdef __CUDACC__
#define SPLOTCH_HOST_DEVICE __host__ __device__
#else
#define SPLOTCH_HOST_DEVICE
#endif

namespace splotch {

// The footprint reaches R = 0.75 r from the centre: the original's cut of the Gaussian, beyond
// which its weight is below exp(-(0.75 / 0.413)^2), about 4 %.
constexpr float footprint_factor = 0.75f;
// sigma = h2sigma r with h2sigma = 0.5 pi^(-1/6) (the original's, from its kernel normalisation):
// float(0.5 * std::pow(pi, -1.0 / 6.0)), written as its exact float so that host and device
// cannot round it differently (a test checks the two agree).
constexpr float h2sigma = 0x1.a711c6p-2f;
// Pixel coordinates are clamped to +-1e9 before int(): anything beyond is off the image, and
// int() of a larger float would overflow.
constexpr float coordinate_limit = 1.0e9f;

SPLOTCH_HOST_DEVICE inline float footprint_radius(float r) { return footprint_factor * r; }

// int(v) with v clamped to +-coordinate_limit (min/max rather than comparisons: on the host they
// compile to single instructions; on the device fminf/fmaxf).
SPLOTCH_HOST_DEVICE inline int truncate_to_int(float v) {
#ifdef __CUDA_ARCH__
  return int(fminf(fmaxf(v, -coordinate_limit), coordinate_limit));
#else
  return int(std::min(std::max(v, -coordinate_limit), coordinate_limit));
#endif
}

// The footprint of a splat of pixel radius r centred at (X, Y): columns [x_lo, x_hi) and rows
// [y_lo, y_hi) of the image, from R = 0.75 r as the original computes them (int() truncates).
struct Footprint {
  int x_lo, x_hi, y_lo, y_hi;
  SPLOTCH_HOST_DEVICE bool empty() const { return x_lo >= x_hi || y_lo >= y_hi; }
  SPLOTCH_HOST_DEVICE int width() const { return x_hi - x_lo; }
  SPLOTCH_HOST_DEVICE int height() const { return y_hi - y_lo; }
};
SPLOTCH_HOST_DEVICE inline Footprint footprint(float X, float Y, float r, int xres, int yres) {
  const float R = footprint_radius(r);
  Footprint f;
  f.x_lo = truncate_to_int(X - R + 1.0f);
  f.x_hi = truncate_to_int(X + R + 1.0f);
  f.y_lo = truncate_to_int(Y - R + 1.0f);
  f.y_hi = truncate_to_int(Y + R + 1.0f);
  f.x_lo = f.x_lo < 0 ? 0 : f.x_lo;
  f.y_lo = f.y_lo < 0 ? 0 : f.y_lo;
  f.x_hi = f.x_hi > xres ? xres : f.x_hi;
  f.y_hi = f.y_hi > yres ? yres : f.y_hi;
  return f;
}

// The tiles (tile_x x tile_y pixels) a non-empty footprint touches, inclusive.
struct TileSpan {
  int tx0, tx1, ty0, ty1;
  SPLOTCH_HOST_DEVICE int width() const { return tx1 - tx0 + 1; }
  SPLOTCH_HOST_DEVICE int height() const { return ty1 - ty0 + 1; }
};
SPLOTCH_HOST_DEVICE inline TileSpan tile_span(const Footprint& f, int tile_x, int tile_y) {
  return {f.x_lo / tile_x, (f.x_hi - 1) / tile_x, f.y_lo / tile_y, (f.y_hi - 1) / tile_y};
}

// With a_eq_e a splat whose footprint radius is beyond the Btile boundary is drawn on CPU threads
// while the GPU draws the rest (splotch/render/gpu_render.h): its footprint would not fit a Btile.
SPLOTCH_HOST_DEVICE inline bool beyond_boundary(float r, int boundary) { return footprint_radius(r) > float(boundary); }

// a_eq_e = FALSE: the colour a splat's absorption pulls towards, q = e / (e + gray_absorption).
SPLOTCH_HOST_DEVICE inline float absorption_colour(float e, float gray) {
  const float d = e + gray;
  return d != 0.0f ? e / d : 0.0f;
}

}  // namespace splotch
