#include "splotch/splat/symmetric_modes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace splotch {
namespace {

// Columns of v (n x p, column c at [c * n]) made orthonormal, twice over for the rounding.
void orthonormalise(std::vector<double>& v, int n, int p) {
  for (int pass = 0; pass < 2; ++pass)
    for (int c = 0; c < p; ++c) {
      double* col = v.data() + std::size_t(c) * std::size_t(n);
      for (int d = 0; d < c; ++d) {
        const double* other = v.data() + std::size_t(d) * std::size_t(n);
        const double dot = std::inner_product(col, col + n, other, 0.0);
        for (int i = 0; i < n; ++i) col[i] -= dot * other[i];
      }
      const double norm = std::sqrt(std::inner_product(col, col + n, col, 0.0));
      for (int i = 0; i < n; ++i) col[i] = norm > 0 ? col[i] / norm : 0.0;
    }
}

// z = a v for the p columns of v (column c at [c * n]): through a copy of v row after row, so
// that the innermost loop runs over the p columns (which vectorises; a dot product would not).
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& v, int n, int p) {
  std::vector<double> rows(v.size()), z(v.size());
  for (int c = 0; c < p; ++c)
    for (int i = 0; i < n; ++i)
      rows[std::size_t(i) * std::size_t(p) + std::size_t(c)] = v[std::size_t(c) * std::size_t(n) + std::size_t(i)];
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    std::vector<double> sum(std::size_t(p), 0.0);
    const double* row = a.data() + std::size_t(i) * std::size_t(n);
    for (int j = 0; j < n; ++j) {
      const double* vj = rows.data() + std::size_t(j) * std::size_t(p);
      for (int c = 0; c < p; ++c) sum[std::size_t(c)] += row[j] * vj[c];
    }
    for (int c = 0; c < p; ++c) z[std::size_t(c) * std::size_t(n) + std::size_t(i)] = sum[std::size_t(c)];
  }
  return z;
}

// The eigenvalues (the diagonal of t, on return) and eigenvectors (columns of y) of the small
// symmetric p x p matrix t, by cyclic Jacobi rotations.
void jacobi(std::vector<double>& t, std::vector<double>& y, int p) {
  y.assign(std::size_t(p) * std::size_t(p), 0.0);
  for (int i = 0; i < p; ++i) y[std::size_t(i) * std::size_t(p) + std::size_t(i)] = 1.0;
  auto at = [&](std::vector<double>& m, int r, int c) -> double& {
    return m[std::size_t(r) * std::size_t(p) + std::size_t(c)];
  };
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0;
    for (int r = 0; r < p; ++r)
      for (int c = r + 1; c < p; ++c) off += at(t, r, c) * at(t, r, c);
    if (off < 1e-300) break;
    for (int r = 0; r < p; ++r)
      for (int c = r + 1; c < p; ++c) {
        if (at(t, r, c) == 0.0) continue;
        const double theta = 0.5 * std::atan2(2 * at(t, r, c), at(t, c, c) - at(t, r, r));
        const double cs = std::cos(theta), sn = std::sin(theta);
        for (int k = 0; k < p; ++k) {  // t = J^T t J, columns then rows
          const double tr = at(t, k, r), tc = at(t, k, c);
          at(t, k, r) = cs * tr - sn * tc;
          at(t, k, c) = sn * tr + cs * tc;
        }
        for (int k = 0; k < p; ++k) {
          const double tr = at(t, r, k), tc = at(t, c, k);
          at(t, r, k) = cs * tr - sn * tc;
          at(t, c, k) = sn * tr + cs * tc;
        }
        for (int k = 0; k < p; ++k) {
          const double yr = at(y, k, r), yc = at(y, k, c);
          at(y, k, r) = cs * yr - sn * yc;
          at(y, k, c) = sn * yr + cs * yc;
        }
      }
  }
}

}  // namespace

SymmetricModes symmetric_modes(const std::vector<double>& a, int n, int count) {
  // A few more vectors than asked for, so that the last asked for converges as fast as the first
  // (the rate is |lambda_p / lambda_count| per step: about 0.03 for the kernels' corner tables,
  // whose eigenvalues fall by orders of magnitude; 12 steps leave nothing to see).
  const int p = std::min(n, count + 6);
  std::vector<double> v(std::size_t(n) * std::size_t(p));
  for (int c = 0; c < p; ++c)
    for (int i = 0; i < n; ++i)
      v[std::size_t(c) * std::size_t(n) + std::size_t(i)] =
          std::cos(3.14159265358979 * c * (i + 0.5) / n) + 1e-3 * ((i * 7 + c * 13) % 11);
  orthonormalise(v, n, p);
  for (int step = 0; step < 12; ++step) {
    v = product(a, v, n, p);
    orthonormalise(v, n, p);
  }
  // Rayleigh-Ritz: the best combinations of the subspace's vectors.
  const std::vector<double> av = product(a, v, n, p);
  std::vector<double> t(std::size_t(p) * std::size_t(p)), y;
  for (int r = 0; r < p; ++r)
    for (int c = 0; c < p; ++c)
      t[std::size_t(r) * std::size_t(p) + std::size_t(c)] =
          std::inner_product(v.begin() + std::ptrdiff_t(r) * n, v.begin() + std::ptrdiff_t(r + 1) * n,
                             av.begin() + std::ptrdiff_t(c) * n, 0.0);
  jacobi(t, y, p);
  std::vector<int> order(static_cast<std::size_t>(p));
  std::iota(order.begin(), order.end(), 0);
  auto eigen = [&](int i) { return t[std::size_t(i) * std::size_t(p) + std::size_t(i)]; };
  std::sort(order.begin(), order.end(), [&](int l, int r) { return std::fabs(eigen(l)) > std::fabs(eigen(r)); });
  SymmetricModes m;
  m.n = n;
  m.count = std::min(count, p);
  m.value.resize(std::size_t(m.count));
  m.vector.assign(std::size_t(m.count) * std::size_t(n), 0.0);
  for (int k = 0; k < m.count; ++k) {
    const int e = order[std::size_t(k)];
    m.value[std::size_t(k)] = eigen(e);
    for (int c = 0; c < p; ++c) {
      const double coefficient = y[std::size_t(c) * std::size_t(p) + std::size_t(e)];
      for (int i = 0; i < n; ++i)
        m.vector[std::size_t(k) * std::size_t(n) + std::size_t(i)] +=
            coefficient * v[std::size_t(c) * std::size_t(n) + std::size_t(i)];
    }
  }
  return m;
}

}  // namespace splotch
