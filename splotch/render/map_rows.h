// One row of a large particle's column map on the host: the midpoint rule's pixel shares
// (F + lap(F) / (24 H^2)) / H^2 (splotch/splat/map_kernel.h) at the row's pixel centres, added
// into the map's planes. The profiles come as the kernel's piecewise polynomials, combined once per
// particle, so that a row is arithmetic on registers: the vector units' gathers from a table cost
// several times more on the CPUs this runs on (docs/performance.md, "Maps").
#pragma once

#include "splotch/splat/map_kernel.h"

namespace splotch {

// The polynomial of F + c lap(F) on each segment: coefficient p of segment s at c[p][s].
struct RowPolynomial {
  alignas(64) float c[map_poly_degree + 1][map_poly_segments];
};
RowPolynomial row_polynomial(const KernelTableView& k, float c);

// Pixels [from, to) of one row: q^2 = ((i + 1/2 - x)^2) inverse2 + row2; row[p][i] += share *
// weight[p] for each of `planes` planes (1 or 2). add_centre_row uses the CPU's vector units where
// the build targets AVX-512 or AVX2 with FMA, add_centre_row_portable is the same arithmetic one
// pixel at a time
// (what other CPUs run; tests/unit/test_map_kernel.cc holds them equal).
struct CentreRow {
  float x, row2, inverse2;
  int from, to;
};
void add_centre_row(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes, double* const* row);
void add_centre_row_portable(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes,
                             double* const* row);

}  // namespace splotch
