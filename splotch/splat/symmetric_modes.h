// The leading eigenpairs of a symmetric matrix, by subspace iteration: what turns the corner table
// Q(a, b) of the map kernels (splotch/splat/map_kernel.h) into a short sum of products
// sum_k lambda_k u_k(a) u_k(b), whose pixel integrals a row of vector arithmetic gives.
#pragma once

#include <vector>

namespace splotch {

struct SymmetricModes {
  int n = 0, count = 0;
  std::vector<double> value;   // lambda_k, largest |lambda| first
  std::vector<double> vector;  // u_k(i) at [k * n + i], each of unit length
};

// The `count` eigenpairs of largest magnitude of the n x n symmetric matrix `a` (row after row).
SymmetricModes symmetric_modes(const std::vector<double>& a, int n, int count);

}  // namespace splotch
