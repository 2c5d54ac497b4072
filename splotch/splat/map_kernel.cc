#include "splotch/splat/map_kernel.h"

#include <algorithm>
#include <cmath>

#include "splotch/splat/symmetric_modes.h"

namespace splotch {
namespace {

constexpr double pi = 3.14159265358979323846;

// The 8-point Gauss-Legendre rule on [-1, 1]: exact for polynomials of degree 15, so a few cells
// of it integrate the kernels' pieces to rounding.
constexpr double gauss_x[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                               0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
constexpr double gauss_w[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                               0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

// The integral of f over [lo, hi] in `cells` equal cells.
template <class F>
double integral(F&& f, double lo, double hi, int cells) {
  const double step = (hi - lo) / cells;
  double sum = 0;
  for (int c = 0; c < cells; ++c) {
    const double mid = lo + (c + 0.5) * step;
    for (int g = 0; g < 8; ++g) sum += gauss_w[g] * f(mid + 0.5 * step * gauss_x[g]);
  }
  return 0.5 * step * sum;
}

double cube(double v) { return v * v * v; }
double fifth(double v) { return v > 0 ? v * v * v * v * v : 0.0; }

// F(R): the kernel through the unit ball along a line at distance R from its centre.
double projected(MapKernel k, double R) {
  if (R >= 1) return 0;
  const double half = std::sqrt(1 - R * R);
  return 2 * integral([&](double z) { return kernel_value(k, std::sqrt(R * R + z * z)); }, 0, half, 16);
}

// The projected kernel, fine in R^2, for the corner table's cells.
struct FineProfile {
  int steps = 1 << 16;
  std::vector<double> values;
  explicit FineProfile(MapKernel k) : values(std::size_t(steps) + 1) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i <= steps; ++i) values[std::size_t(i)] = projected(k, std::sqrt(double(i) / steps));
  }
  double at(double R2) const {
    if (R2 >= 1) return 0;
    const double u = R2 * steps;
    const int i = std::min(int(u), steps - 1);
    return values[std::size_t(i)] + (u - i) * (values[std::size_t(i) + 1] - values[std::size_t(i)]);
  }
};

// Q(a, b) on the grid a = i / m, b = j / m (row j after row j - 1), in double.
std::vector<double> corner_table(const FineProfile& F, int m) {
  // Each cell's integral (4 x 4 Gauss points of the 8-point rule's half: the cell is small),
  // then sums along rows and columns.
  std::vector<double> q(std::size_t(m + 1) * std::size_t(m + 1), 0.0);
  const double step = 1.0 / m;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int gy = 0; gy < 8; ++gy) {
        const double y = (j + 0.5 + 0.5 * gauss_x[gy]) * step;
        for (int gx = 0; gx < 8; ++gx) {
          const double x = (i + 0.5 + 0.5 * gauss_x[gx]) * step;
          sum += gauss_w[gx] * gauss_w[gy] * F.at(x * x + y * y);
        }
      }
      q[std::size_t(j + 1) * std::size_t(m + 1) + std::size_t(i + 1)] = 0.25 * step * step * sum;
    }
  }
  for (int j = 1; j <= m; ++j)
    for (int i = 1; i <= m; ++i) {
      const std::size_t at = std::size_t(j) * std::size_t(m + 1) + std::size_t(i);
      q[at] += q[at - 1] + q[at - std::size_t(m + 1)] - q[at - std::size_t(m + 1) - 1];
    }
  // A quarter of the kernel in the quadrant, so that a particle's pixels sum to one.
  const double scale = 0.25 / q.back();
  for (double& v : q) v *= scale;
  return q;
}

// Q(a, b) as sum_k lambda_k u_k(a) u_k(b) (the modes of the symmetric matrix Q on the grid), the
// weights scaled so that the sum is exactly 1/4 at (1, 1): a particle's pixels telescope to one
// with these as with the table.
void corner_modes(const std::vector<double>& q, int m, MapKernelTables& t) {
  const int n = m + 1;
  std::vector<double> a(q.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[std::size_t(j) * std::size_t(n) + std::size_t(i)] = 0.5 * (q[std::size_t(j) * std::size_t(n) + std::size_t(i)] +
                                                                   q[std::size_t(i) * std::size_t(n) + std::size_t(j)]);
  const SymmetricModes modes = symmetric_modes(a, n, map_corner_modes);
  const int K = map_corner_modes;
  t.corner_modes.assign(std::size_t(n + 1) * K, 0.0f);
  t.corner_weights.assign(K, 0.0f);
  double at_one = 0;
  for (int k = 0; k < modes.count; ++k) {
    const double* u = modes.vector.data() + std::size_t(k) * std::size_t(n);
    at_one += modes.value[std::size_t(k)] * u[n - 1] * u[n - 1];
  }
  for (int k = 0; k < modes.count; ++k) {
    const double* u = modes.vector.data() + std::size_t(k) * std::size_t(n);
    t.corner_weights[std::size_t(k)] = float(modes.value[std::size_t(k)] * 0.25 / at_one);
    for (int i = 0; i <= n; ++i)  // a spare entry at a = 1 + 1/m, equal to u_k(1)
      t.corner_modes[std::size_t(i) * K + std::size_t(k)] = float(u[std::min(i, n - 1)]);
  }
}

// C(t) on [-1, 1]: the share of the kernel below the plane z = t, from the plane's integral of W,
// S(z) = 2 pi times the integral of W(q) q dq from |z| to 1.
std::vector<float> marginal_table(MapKernel k, int steps) {
  auto plane = [&](double z) {
    return 2 * pi * integral([&](double q) { return kernel_value(k, q) * q; }, std::fabs(z), 1.0, 4);
  };
  std::vector<double> c(std::size_t(steps) + 1, 0.0);
  const double step = 2.0 / steps;
  for (int i = 0; i < steps; ++i)
    c[std::size_t(i) + 1] = c[std::size_t(i)] + integral(plane, -1 + i * step, -1 + (i + 1) * step, 1);
  std::vector<float> out(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) out[i] = float(c[i] / c.back());
  out.back() = 1.0f;
  return out;
}

}  // namespace

double column_laplacian(MapKernel k, double q) {
  // lap F = F'' + F' / q, by central differences in q of step h: F is even in q, so the stencil
  // reaches below 0 through F(-q) = F(q) and stays centred.
  const double h = 1e-3, lo = std::fabs(q - h);
  const double f_lo = projected(k, lo), f_mid = projected(k, q), f_hi = projected(k, q + h);
  const double second = (f_hi - 2 * f_mid + f_lo) / (h * h), first = (f_hi - f_lo) / (2 * h);
  return second + (q > 0 ? first / q : second);
}

double column_profile(MapKernel k, double q) { return projected(k, q); }

namespace {

// f(q) on each of the segments of [0, 1] in q as a polynomial in t = segments q - segment, t in
// [0, 1): interpolation at the Chebyshev points of degree map_poly_degree, solved in double.
template <class F>
std::vector<float> piecewise_polynomial(F&& f) {
  constexpr int n = map_poly_degree + 1, segments = map_poly_segments;
  std::vector<float> c(std::size_t(n) * segments);
  for (int s = 0; s < segments; ++s) {
    double a[n][n + 1];
    for (int j = 0; j < n; ++j) {
      const double t = 0.5 - 0.5 * std::cos(pi * (j + 0.5) / n);
      double power = 1;
      for (int p = 0; p < n; ++p, power *= t) a[j][p] = power;
      a[j][n] = f((s + t) / segments);
    }
    for (int col = 0; col < n; ++col) {  // Gaussian elimination with partial pivoting
      int best = col;
      for (int r = col + 1; r < n; ++r)
        if (std::fabs(a[r][col]) > std::fabs(a[best][col])) best = r;
      for (int p = 0; p <= n; ++p) std::swap(a[col][p], a[best][p]);
      for (int r = 0; r < n; ++r) {
        if (r == col) continue;
        const double m = a[r][col] / a[col][col];
        for (int p = col; p <= n; ++p) a[r][p] -= m * a[col][p];
      }
    }
    for (int p = 0; p < n; ++p) c[std::size_t(p) * segments + std::size_t(s)] = float(a[p][n] / a[p][p]);
  }
  return c;
}

}  // namespace

const char* kernel_name(MapKernel k) {
  switch (k) {
    case MapKernel::quintic: return "quintic";
    case MapKernel::wendland_c2: return "wendland_c2";
    case MapKernel::wendland_c4: return "wendland_c4";
    case MapKernel::gaussian: return "gaussian";
    default: return "cubic";
  }
}

bool kernel_of_name(const std::string& name, MapKernel& k) {
  for (MapKernel c :
       {MapKernel::cubic, MapKernel::quintic, MapKernel::wendland_c2, MapKernel::wendland_c4, MapKernel::gaussian})
    if (name == kernel_name(c)) {
      k = c;
      return true;
    }
  return false;
}

const char* kernel_description(MapKernel k) {
  switch (k) {
    case MapKernel::quintic: return "quintic spline (M6)";
    case MapKernel::wendland_c2: return "Wendland C2";
    case MapKernel::wendland_c4: return "Wendland C4";
    case MapKernel::gaussian: return "Gaussian exp(-9 q^2), taken to 0 at the support";
    default: return "cubic spline (M4)";
  }
}

double kernel_value(MapKernel k, double q) {
  if (!(q < 1) || q < 0) return 0;
  switch (k) {
    case MapKernel::quintic: {
      const double s = 3 * q;
      return 9 / (40 * pi) * (fifth(3 - s) - 6 * fifth(2 - s) + 15 * fifth(1 - s));
    }
    case MapKernel::wendland_c2: {
      const double u = 1 - q;
      return 21 / (2 * pi) * u * u * u * u * (1 + 4 * q);
    }
    case MapKernel::wendland_c4: {
      const double u = cube(1 - q);
      return 495 / (32 * pi) * u * u * (1 + 6 * q + 35.0 / 3 * q * q);
    }
    case MapKernel::gaussian: {
      // exp(-9 q^2) less the line that takes its value and slope to 0 at the support (a profile
      // cut there with a step would cost the midpoint rule its accuracy), over its integral over
      // the unit ball in closed form.
      const double a = 9, edge = std::exp(-a);
      const double gauss = std::sqrt(pi) * std::erf(3.0) / (4 * a * std::sqrt(a)) - edge / (2 * a);
      const double inside = 4 * pi * (gauss - edge * 23.0 / 15.0);
      return (std::exp(-a * q * q) - edge * (1 + a * (1 - q * q))) / inside;
    }
    default: return 8 / pi * (q < 0.5 ? 1 - 6 * q * q + 6 * cube(q) : 2 * cube(1 - q));
  }
}

MapKernelTables make_kernel_tables(MapKernel k) {
  MapKernelTables t;
  t.kernel = k;
  const int n = t.profile_steps;
  // One zero beyond the last entry, so that a reader may clamp q^2 to 1 and interpolate without a
  // branch (the host's vectorised rows).
  t.column.assign(std::size_t(n) + 2, 0.0f);
  t.laplacian.assign(std::size_t(n) + 2, 0.0f);
  t.volume.assign(std::size_t(n) + 2, 0.0f);
#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; ++i) {
    const double u = double(i) / n, q = std::sqrt(u);
    t.column[std::size_t(i)] = float(projected(k, q));
    t.laplacian[std::size_t(i)] = float(column_laplacian(k, q));
    t.volume[std::size_t(i)] = float(kernel_value(k, q));
  }
  t.column[std::size_t(n)] = t.laplacian[std::size_t(n)] = t.volume[std::size_t(n)] = 0.0f;
  const std::vector<double> quadrant = corner_table(FineProfile(k), t.corner_steps);
  t.corner.assign(quadrant.begin(), quadrant.end());
  corner_modes(quadrant, t.corner_steps, t);
  t.marginal = marginal_table(k, n);
  t.column_poly = piecewise_polynomial([k](double q) { return q < 1 ? projected(k, q) : 0.0; });
  t.laplacian_poly = piecewise_polynomial([k](double q) { return q < 1 ? column_laplacian(k, q) : 0.0; });
  return t;
}

}  // namespace splotch
