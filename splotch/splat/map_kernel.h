// The SPH kernels of quantitative maps (map = column | average | slice: docs/maps.md) and the
// tables through which the host and the GPU integrate them over pixels alike.
//
// Every kernel is written over its support: q = r / H with H the support radius (Gadget's HSML),
// W(q) = 0 for q >= 1, normalised so that the integral of W over the unit ball is 1 (a particle
// of support H spreads its amount as W(r / H) / H^3).
//
// A column map needs, per pixel, the integral over the pixel's square of the projected kernel
// F(R) = integral of W(sqrt(R^2 + z^2)) dz (R in units of H; F integrates to 1 over the unit disc).
// Two ways, exact to the bounds below:
//   - the corner table: Q(a, b) = integral of F over [0, a] x [0, b] (odd in each argument,
//     constant beyond 1). The integral over [x0, x1] x [y0, y1] is
//     Q(x1, y1) - Q(x0, y1) - Q(x1, y0) + Q(x0, y0), so the pixels of one particle telescope: over
//     any block of pixels that covers its support they sum to 4 Q(1, 1), which the table holds as
//     exactly 1/4 (a float's rounding aside). Used where a pixel is wider than 1/8 of H.
//   - the midpoint rule with its first correction, (F + p^2 lap(F) / 24) p^2 at the pixel's centre
//     (p the pixel's side in units of H, lap the Laplacian), where a pixel is at most 1/8 of H (the
//     corners' differences would cancel to a few digits there): its error in a pixel falls as p^4,
//     and its sum over a particle's pixels misses 1 by less than 1e-5 (tests/unit/
//     test_map_kernel.cc).
// Both read their tables with linear interpolation: the corner table's grid step is 1/512, the
// profile's 1/4096 in q^2; tests/unit/test_map_kernel.cc measures what that leaves.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "splotch/splat/splat_maths.h"

namespace splotch {

enum class MapKernel { cubic, quintic, wendland_c2, wendland_c4, gaussian };

// "cubic", ...: the names map_kernel takes; kernel_of_name gives false for an unknown name.
const char* kernel_name(MapKernel k);
bool kernel_of_name(const std::string& name, MapKernel& k);
// What the kernel is, for the report: "cubic spline (M4)", ...
const char* kernel_description(MapKernel k);

// W(q), normalised over the unit ball (double precision, host only).
double kernel_value(MapKernel k, double q);
// F(q), the kernel projected along a line at q from its centre, and its laplacian (2-D, in units
// of H^-2), in double precision (host only).
double column_profile(MapKernel k, double q);
double column_laplacian(MapKernel k, double q);

// Where the midpoint rule takes over from the corner table: a pixel at most this fraction of H.
constexpr float midpoint_pixel_fraction = 0.125f;

// The host's form of the column profiles, F and lap(F): a polynomial in q of this degree on each
// of this many equal segments of [0, 1] (evaluated without table lookups, which the CPU's vector
// units gather slowly; segments in q, not q^2, so that the first is short where F has its
// logarithmic term; tests/unit/test_map_kernel.cc measures its error).
constexpr int map_poly_degree = 5;
constexpr int map_poly_segments = 16;

// The host's form of the corner table: Q(a, b) = sum_k w_k U_k(a) U_k(b) over this many modes
// (odd in each argument), so that a particle's pixel integrals are products of differences along x
// and along y, without 2-D table lookups (tests/unit/test_map_kernel.cc measures its error).
constexpr int map_corner_modes = 8;

// The kernel's tables, made once per map on the host.
struct MapKernelTables {
  MapKernel kernel = MapKernel::cubic;
  int profile_steps = 4096;      // the profiles' entries are at q^2 = i / profile_steps, i = 0 .. steps + 1
                                 // (the last two 0)
  int corner_steps = 512;        // the corner table's at a = i / corner_steps, b = j / corner_steps
  std::vector<float> column;     // F(q)
  std::vector<float> laplacian;  // lap(F)(q), in units of H^-2
  std::vector<float> volume;     // W(q)
  std::vector<float> corner;     // Q(a, b), row j (b) after row j - 1, (corner_steps + 1)^2 values
  std::vector<float> marginal;   // C(t), the share of the kernel below the plane z = t, t = -1 + 2 i / profile_steps
  // F and lap(F) as polynomials in t = segments q - s on segment s: coefficient p of segment s at
  // [p * map_poly_segments + s] (host only).
  std::vector<float> column_poly, laplacian_poly;
  // U_k(a) at a = i / corner_steps, i = 0 .. corner_steps + 1 (the last = U_k(1)), mode k at
  // [i * map_corner_modes + k]; the weights w_k (host only).
  std::vector<float> corner_modes, corner_weights;
};
MapKernelTables make_kernel_tables(MapKernel k);

// The tables as plain pointers, which the GPU's copy of them fills as well.
struct KernelTableView {
  const float* column = nullptr;
  const float* laplacian = nullptr;
  const float* volume = nullptr;
  const float* corner = nullptr;
  const float* marginal = nullptr;
  int profile_steps = 0, corner_steps = 0;
  const float* column_poly = nullptr;  // the host's only (nullptr in the GPU's copy)
  const float* laplacian_poly = nullptr;
  const float* corner_modes = nullptr;
  const float* corner_weights = nullptr;
};
inline KernelTableView table_view(const MapKernelTables& t) {
  return {t.column.data(),         t.laplacian.data(),    t.volume.data(),        t.corner.data(),
          t.marginal.data(),       t.profile_steps,       t.corner_steps,         t.column_poly.data(),
          t.laplacian_poly.data(), t.corner_modes.data(), t.corner_weights.data()};
}

// A profile (column or volume) at q^2, 0 from q^2 = 1 on.
SPLOTCH_HOST_DEVICE inline float profile_at(const float* profile, int steps, float q2) {
  if (!(q2 < 1.0f)) return 0.0f;
  const float u = q2 * float(steps);
  const int i = int(u);
  const float f = u - float(i);
  return profile[i] + f * (profile[i + 1] - profile[i]);
}

// Q(a, b) from the corner table, for any a and b (odd in each, constant beyond +-1).
SPLOTCH_HOST_DEVICE inline float corner_at(const KernelTableView& t, float a, float b) {
  const float sign = (a < 0.0f) != (b < 0.0f) ? -1.0f : 1.0f;
  a = fabsf(a);
  b = fabsf(b);
  const int m = t.corner_steps;
  const float u = (a < 1.0f ? a : 1.0f) * float(m), v = (b < 1.0f ? b : 1.0f) * float(m);
  int i = int(u), j = int(v);
  i = i < m ? i : m - 1;
  j = j < m ? j : m - 1;
  const float fu = u - float(i), fv = v - float(j);
  const float* row = t.corner + j * (m + 1) + i;
  const float lo = row[0] + fu * (row[1] - row[0]);
  const float hi = row[m + 1] + fu * (row[m + 2] - row[m + 1]);
  return sign * (lo + fv * (hi - lo));
}

// The share of a kernel centred at 0 that lies below the plane at t (in units of H): 0 below -1,
// 1 above 1.
SPLOTCH_HOST_DEVICE inline float marginal_at(const KernelTableView& t, float z) {
  if (!(z > -1.0f)) return 0.0f;
  if (!(z < 1.0f)) return 1.0f;
  const float u = (z + 1.0f) * 0.5f * float(t.profile_steps);
  int i = int(u);
  i = i < t.profile_steps ? i : t.profile_steps - 1;
  const float f = u - float(i);
  return t.marginal[i] + f * (t.marginal[i + 1] - t.marginal[i]);
}

// The share of a kernel of support 1 centred at 0 in the square [a0, a1] x [b0, b1] (units of H),
// from the corner table: the host and the GPU difference the corners in this order.
SPLOTCH_HOST_DEVICE inline float corner_share(const KernelTableView& t, float a0, float a1, float b0, float b1) {
  return (corner_at(t, a1, b1) - corner_at(t, a0, b1)) - (corner_at(t, a1, b0) - corner_at(t, a0, b0));
}

// A piecewise polynomial of MapKernelTables (column_poly, laplacian_poly) at q^2 in [0, 1), 0 from 1 on.
inline float poly_at(const float* poly, float q2) {
  if (!(q2 < 1.0f)) return 0.0f;
  const float scaled = std::sqrt(q2) * float(map_poly_segments);
  const int s = int(scaled) < map_poly_segments ? int(scaled) : map_poly_segments - 1;
  const float t = scaled - float(s);
  float v = poly[map_poly_degree * map_poly_segments + s];
  for (int p = map_poly_degree - 1; p >= 0; --p) v = v * t + poly[p * map_poly_segments + s];
  return v;
}

// A pixel's share by the midpoint rule and its correction, at q^2 from the centre, for a support
// of `radius` pixels (the share of the pixel, not yet over its area: times 1 / radius^2).
SPLOTCH_HOST_DEVICE inline float centre_share(const KernelTableView& t, float q2, float inverse2) {
  if (!(q2 < 1.0f)) return 0.0f;
  return profile_at(t.column, t.profile_steps, q2) +
         inverse2 * (1.0f / 24.0f) * profile_at(t.laplacian, t.profile_steps, q2);
}

}  // namespace splotch
