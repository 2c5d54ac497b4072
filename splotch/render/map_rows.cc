#include "splotch/render/map_rows.h"

#include <algorithm>
#include <cmath>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
// GCC 12 takes the intrinsics' own undefined source vectors for uninitialised variables (a false
// warning of theirs, GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace splotch {

RowPolynomial row_polynomial(const KernelTableView& k, float c) {
  RowPolynomial p;
  for (int d = 0; d <= map_poly_degree; ++d)
    for (int s = 0; s < map_poly_segments; ++s) {
      const int at = d * map_poly_segments + s;
      p.c[d][s] = k.column_poly[at] + c * k.laplacian_poly[at];
    }
  return p;
}

void add_centre_row_portable(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes,
                             double* const* row) {
  for (int i = r.from; i < r.to; ++i) {
    const float dx = float(i) + 0.5f - r.x;
    const float q2 = dx * dx * r.inverse2 + r.row2;
    if (!(q2 < 1.0f)) continue;
    const float scaled = std::sqrt(q2) * float(map_poly_segments);
    const int s = int(scaled) < map_poly_segments ? int(scaled) : map_poly_segments - 1;
    const float t = scaled - float(s);
    float v = p.c[map_poly_degree][s];
    for (int d = map_poly_degree - 1; d >= 0; --d) v = v * t + p.c[d][s];
    v = std::max(v, 0.0f);  // (a kernel's share is never below 0; its polynomial's rounding may be)
    for (int k = 0; k < planes; ++k) row[k][i] += double(v) * weight[k];
  }
}

#if defined(__AVX512F__)
namespace {

// 8 doubles of row[at ..] += 8 values * weight, the lanes of `mask` only.
inline void add_eight(double* row, __mmask8 mask, __m256 values, double weight) {
  const __m512d sum =
      _mm512_fmadd_pd(_mm512_cvtps_pd(values), _mm512_set1_pd(weight), _mm512_maskz_loadu_pd(mask, row));
  _mm512_mask_storeu_pd(row, mask, sum);
}

}  // namespace

void add_centre_row(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes, double* const* row) {
  static_assert(map_poly_segments == 16, "a register's 16 lanes hold a coefficient of every segment");
  __m512 c[map_poly_degree + 1];
  for (int d = 0; d <= map_poly_degree; ++d) c[d] = _mm512_load_ps(p.c[d]);
  const __m512 lane = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512 one = _mm512_set1_ps(1.0f), segments = _mm512_set1_ps(float(map_poly_segments));
  const __m512i last = _mm512_set1_epi32(map_poly_segments - 1);
  for (int i = r.from; i < r.to; i += 16) {
    const int n = r.to - i < 16 ? r.to - i : 16;
    const __mmask16 valid = __mmask16((1u << n) - 1u);
    // (float(i + l) + 0.5f) - x, as the portable loop has it (integers are exact in a float)
    const __m512 dx = _mm512_sub_ps(_mm512_add_ps(_mm512_add_ps(_mm512_set1_ps(float(i)), lane), _mm512_set1_ps(0.5f)),
                                    _mm512_set1_ps(r.x));
    const __m512 q2 = _mm512_fmadd_ps(_mm512_mul_ps(dx, dx), _mm512_set1_ps(r.inverse2), _mm512_set1_ps(r.row2));
    const __mmask16 inside = _mm512_mask_cmp_ps_mask(valid, q2, one, _CMP_LT_OQ);
    if (!inside) continue;
    const __m512 scaled = _mm512_mul_ps(_mm512_sqrt_ps(_mm512_min_ps(q2, one)), segments);
    const __m512i s = _mm512_min_epi32(_mm512_cvttps_epi32(scaled), last);
    const __m512 t = _mm512_sub_ps(scaled, _mm512_cvtepi32_ps(s));
    __m512 v = _mm512_permutexvar_ps(s, c[map_poly_degree]);
    for (int d = map_poly_degree - 1; d >= 0; --d) v = _mm512_fmadd_ps(v, t, _mm512_permutexvar_ps(s, c[d]));
    v = _mm512_maskz_mov_ps(inside, _mm512_max_ps(v, _mm512_setzero_ps()));
    const __m256 low = _mm512_castps512_ps256(v);
    const __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    for (int k = 0; k < planes; ++k) {
      add_eight(row[k] + i, __mmask8(inside & 0xff), low, weight[k]);
      if (inside >> 8) add_eight(row[k] + i + 8, __mmask8(inside >> 8), high, weight[k]);
    }
  }
}
#elif defined(__AVX2__) && defined(__FMA__)
namespace {

// Segment s's coefficient (s from 0 to 15) of the 16 in two registers: AVX2 permutes 8 lanes.
inline __m256 coefficient(__m256 low, __m256 high, __m256i s, __m256 in_high) {
  return _mm256_blendv_ps(_mm256_permutevar8x32_ps(low, s), _mm256_permutevar8x32_ps(high, s), in_high);
}

// 4 doubles of row[at ..] += 4 values * weight, the first n (all where n >= 4).
inline void add_four(double* row, __m256d values, double weight, int n) {
  if (n <= 0) return;
  if (n >= 4) {
    _mm256_storeu_pd(row, _mm256_fmadd_pd(values, _mm256_set1_pd(weight), _mm256_loadu_pd(row)));
    return;
  }
  const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
  _mm256_maskstore_pd(row, mask, _mm256_fmadd_pd(values, _mm256_set1_pd(weight), _mm256_maskload_pd(row, mask)));
}

}  // namespace

// The AVX-512 row's arithmetic, 8 pixels at a time (the lanes outside the support add 0).
void add_centre_row(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes, double* const* row) {
  static_assert(map_poly_segments == 16, "two registers' 8 lanes hold a coefficient of every segment");
  __m256 low[map_poly_degree + 1], high[map_poly_degree + 1];
  for (int d = 0; d <= map_poly_degree; ++d) {
    low[d] = _mm256_load_ps(p.c[d]);
    high[d] = _mm256_load_ps(p.c[d] + 8);
  }
  const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256 one = _mm256_set1_ps(1.0f), segments = _mm256_set1_ps(float(map_poly_segments));
  const __m256i last = _mm256_set1_epi32(map_poly_segments - 1), seven = _mm256_set1_epi32(7);
  for (int i = r.from; i < r.to; i += 8) {
    const int n = r.to - i < 8 ? r.to - i : 8;
    const __m256 dx = _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(float(i)), lane), _mm256_set1_ps(0.5f)),
                                    _mm256_set1_ps(r.x));
    const __m256 q2 = _mm256_fmadd_ps(_mm256_mul_ps(dx, dx), _mm256_set1_ps(r.inverse2), _mm256_set1_ps(r.row2));
    const __m256 inside =
        _mm256_and_ps(_mm256_cmp_ps(q2, one, _CMP_LT_OQ), _mm256_cmp_ps(lane, _mm256_set1_ps(float(n)), _CMP_LT_OQ));
    if (!_mm256_movemask_ps(inside)) continue;
    const __m256 scaled = _mm256_mul_ps(_mm256_sqrt_ps(_mm256_min_ps(q2, one)), segments);
    const __m256i s = _mm256_min_epi32(_mm256_cvttps_epi32(scaled), last);
    const __m256 t = _mm256_sub_ps(scaled, _mm256_cvtepi32_ps(s));
    const __m256 in_high = _mm256_castsi256_ps(_mm256_cmpgt_epi32(s, seven));
    __m256 v = coefficient(low[map_poly_degree], high[map_poly_degree], s, in_high);
    for (int d = map_poly_degree - 1; d >= 0; --d) v = _mm256_fmadd_ps(v, t, coefficient(low[d], high[d], s, in_high));
    v = _mm256_and_ps(_mm256_max_ps(v, _mm256_setzero_ps()), inside);
    const __m256d first = _mm256_cvtps_pd(_mm256_castps256_ps128(v)),
                  second = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
    for (int k = 0; k < planes; ++k) {
      add_four(row[k] + i, first, weight[k], n);
      add_four(row[k] + i + 4, second, weight[k], n - 4);
    }
  }
}
#else
void add_centre_row(const RowPolynomial& p, const CentreRow& r, const double* weight, int planes, double* const* row) {
  add_centre_row_portable(p, r, weight, planes, row);
}
#endif

}  // namespace splotch
