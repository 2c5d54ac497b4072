#include "splotch/render/host_renderer.h"

#include <omp.h>
#include <xmmintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <numeric>
#include <vector>

#include "splotch/render/host_render_config.h"
#include "splotch/splat/splat_maths.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/tile_order.h"
#include "splotch/util/bucket_sort.h"
#include "splotch/util/fast_exp.h"
#include "splotch/util/simd.h"

namespace splotch {
namespace {

struct TileGrid {
  int xres, yres, tile, nx, ny;
  TileGrid(int w, int h, int t) : xres(w), yres(h), tile(t), nx((w + t - 1) / t), ny((h + t - 1) / t) {}
  int count() const { return nx * ny; }
};

// For each tile, the indices of the splats touching it, in splat order.
struct TileLists {
  std::vector<std::size_t> start;  // [tile] .. [tile + 1] in items
  std::vector<std::uint32_t> items;
};

// Calls visit(tile) for every tile of splat i; returns false for a splat off the image.
template <class Visit>
inline void for_each_tile(const SplatView& s, std::size_t i, const TileGrid& g, Visit visit) {
  const Footprint f = footprint(s.x[i], s.y[i], s.radius[i], g.xres, g.yres);
  if (f.empty()) return;
  const TileSpan t = tile_span(f, g.tile, g.tile);
  for (int ty = t.ty0; ty <= t.ty1; ++ty)
    for (int tx = t.tx0; tx <= t.tx1; ++tx) visit(ty * g.nx + tx);
}

TileLists bin_splats(const SplatView& s, const TileGrid& g) {
  TileLists lists;
  lists.start = bucket_sort(
      s.n, g.count(), [&](std::size_t i, auto visit) { for_each_tile(s, i, g, visit); },
      [&](std::size_t total) { lists.items.resize(total); },
      [&](std::size_t i, std::size_t position) { lists.items[position] = std::uint32_t(i); });
  return lists;
}

// Whether the footprint of the splats at `at` (one float or a vector of lanes) reaches beyond the
// tile holding their centre. Branch-free, for a vector loop and its tail.
template <class F>
auto spills_at(const SplatView& s, std::size_t at, const TileGrid& g, float inverse_tile) {
  using namespace simd;
  const F X = load(s.x + at, F{}), Y = load(s.y + at, F{}), R = footprint_factor * load(s.radius + at, F{});
  auto edge = [](F v) { return truncate(min(max(v, F{} - coordinate_limit), F{} + coordinate_limit)); };
  const auto x_lo = clamp(edge(X - R + 1.0f), 0, g.xres), x_hi = clamp(edge(X + R + 1.0f), 0, g.xres);
  const auto y_lo = clamp(edge(Y - R + 1.0f), 0, g.yres), y_hi = clamp(edge(Y + R + 1.0f), 0, g.yres);
  // The centre tile, as pixel bounds.
  const int T = g.tile;
  const auto tx = centre_tile_along(X, g.xres, T, inverse_tile, g.nx) * T;
  const auto ty = centre_tile_along(Y, g.yres, T, inverse_tile, g.ny) * T;
  const auto visible = (x_lo < x_hi) & (y_lo < y_hi);
  return visible & ((x_lo < tx) | (x_hi > tx + T) | (y_lo < ty) | (y_hi > ty + T));
}

// With the splats ordered by tile, a tile's own splats are a range of the arrays; only the splats
// reaching into other tiles need listing there. Most splats are smaller than a tile: a vector
// pass finds the few that spill, and only those are binned.
TileLists bin_spills(const SplatView& s, const TileGrid& g) {
  using namespace simd;
  const float inverse_tile = 1.0f / float(g.tile);
  const int nthreads = omp_get_max_threads();
  std::vector<std::vector<std::uint32_t>> found(std::size_t(nthreads), std::vector<std::uint32_t>{});
  const std::size_t groups = s.n / lanes;
#pragma omp parallel num_threads(nthreads)
  {
    // Contiguous shares, so that the lists joined in thread order are in index order.
    const int t = omp_get_thread_num();
    std::vector<std::uint32_t>& mine = found[std::size_t(t)];
    const std::size_t lo = groups * std::size_t(t) / std::size_t(nthreads);
    const std::size_t hi = groups * std::size_t(t + 1) / std::size_t(nthreads);
    for (std::size_t k = lo; k < hi; ++k) {
      const vint mask = spills_at<vfloat>(s, k * lanes, g, inverse_tile);
      for (int l = 0; l < lanes; ++l)
        if (mask[l]) mine.push_back(std::uint32_t(k * lanes + std::size_t(l)));
    }
    if (t == nthreads - 1)
      for (std::size_t i = groups * lanes; i < s.n; ++i)
        if (spills_at<float>(s, i, g, inverse_tile)) mine.push_back(std::uint32_t(i));
  }
  std::vector<std::uint32_t> spilling;
  for (auto& part : found) spilling.insert(spilling.end(), part.begin(), part.end());
  TileLists lists;
  lists.start = bucket_sort(
      spilling.size(), g.count(),
      [&](std::size_t j, auto visit) {
        const std::uint32_t i = spilling[j];
        const int own = centre_tile(s.x[i], s.y[i], g.tile, g.nx, g.ny);
        for_each_tile(s, i, g, [&](int tile) {
          if (tile != own) visit(tile);
        });
      },
      [&](std::size_t total) { lists.items.resize(total); },
      [&](std::size_t j, std::size_t position) { lists.items[position] = spilling[j]; });
  return lists;
}

// The splats of one tile: its own range of the arrays (when they are ordered by tile) and its list.
struct TileSplats {
  std::size_t own_begin = 0, own_end = 0;
  const std::uint32_t* listed = nullptr;
  std::size_t listed_count = 0;
  std::size_t count() const { return own_end - own_begin + listed_count; }
};

TileSplats splats_of(const SplatView& s, const TileLists& lists, int tile) {
  TileSplats t;
  if (s.tile_start) {
    t.own_begin = s.tile_start[tile];
    t.own_end = s.tile_start[tile + 1];
  }
  t.listed = lists.items.data() + lists.start[std::size_t(tile)];
  t.listed_count = lists.start[std::size_t(tile) + 1] - lists.start[std::size_t(tile)];
  return t;
}

// Zeroed floats starting on a cache line. A group of eight floats at an aligned row then never
// straddles two lines; with malloc's 16-byte alignment half of them did, on the thread whose
// buffer it gave such an address.
class CacheAlignedFloats {
 public:
  explicit CacheAlignedFloats(std::size_t n) : data_(new (std::align_val_t(64)) float[n]()) {}
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  float& operator[](std::size_t i) { return data_[i]; }
  const float& operator[](std::size_t i) const { return data_[i]; }

 private:
  struct Free {
    void operator()(float* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<float[], Free> data_;
};

// A tile's accumulation buffer, column-major: for each column the red rows, then the green rows,
// then the blue rows (channel c of pixel (lx, ly) at lx * 3 * stride + c * stride + ly), so that
// the rows of one column of a footprint are contiguous and its three channels lie close together.
// (Three separate planes put the channels of a pixel a multiple of 4 KiB apart, and a load then
// waits for the store to the other channel to retire.) A column's rows are taken in groups of
// eight from its first row; the last group may reach up to seven rows past the column's end, into
// padding of its own (lanes masked off, values written back unchanged). Without the padding it
// would overlap the next channel, whose load would wait for that store too.
struct TileBuffer {
  const int T, stride, column_stride;  // tile side; floats from one channel's rows to the next; one column's
  int x0 = 0, y0 = 0, w = 0, h = 0;
  CacheAlignedFloats pixels;
  // exp(-(y - Y)^2 / sigma^2) for the local rows of the current splat, and the rows a last group
  // may read beyond them.
  CacheAlignedFloats row_weight;
  // Per column of the current splat: its rows [lo, hi) (local) and exp(-(x - X)^2 / sigma^2).
  std::vector<std::int32_t> column_lo, column_hi;
  std::vector<float> column_weight;

  explicit TileBuffer(int tile)
      : T(tile),
        stride(tile + simd::lanes),
        column_stride(3 * stride),
        pixels(std::size_t(tile) * std::size_t(column_stride)),
        row_weight(std::size_t(tile + 2 * simd::lanes)),
        column_lo(std::size_t(tile + simd::lanes)),
        column_hi(std::size_t(tile + simd::lanes)),
        column_weight(std::size_t(tile + simd::lanes)) {}
  float* channel(int c) { return pixels.data() + c * stride; }

  void load(const Image& image, int tx, int ty) {
    x0 = tx * T;
    y0 = ty * T;
    w = std::min(T, image.width - x0);
    h = std::min(T, image.height - y0);
    for (int ly = 0; ly < h; ++ly)
      for (int lx = 0; lx < w; ++lx) {
        const float* px = image.pixel(x0 + lx, y0 + ly);
        for (int c = 0; c < 3; ++c) pixels[std::size_t(lx * column_stride + c * stride + ly)] = px[c];
      }
  }
  void store(Image& image) const {
    for (int ly = 0; ly < h; ++ly)
      for (int lx = 0; lx < w; ++lx) {
        float* px = image.pixel(x0 + lx, y0 + ly);
        for (int c = 0; c < 3; ++c) px[c] = pixels[std::size_t(lx * column_stride + c * stride + ly)];
      }
  }
};

// The part of a splat's footprint inside the tile, in local pixel coordinates.
struct ClippedSplat {
  float X, Y, R2, inv_sigma2;  // centre relative to the tile origin
  int x_lo, x_hi, y_lo, y_hi;
};

inline bool clip(const SplatView& s, std::size_t i, const TileBuffer& b, ClippedSplat& c) {
  const float X = s.x[i], Y = s.y[i], r = s.radius[i];
  const Footprint f = footprint(X, Y, r, b.x0 + b.w, b.y0 + b.h);
  c.x_lo = std::max(f.x_lo, b.x0) - b.x0;
  c.x_hi = f.x_hi - b.x0;
  c.y_lo = std::max(f.y_lo, b.y0) - b.y0;
  c.y_hi = f.y_hi - b.y0;
  if (c.x_lo >= c.x_hi || c.y_lo >= c.y_hi) return false;
  const float R = footprint_radius(r), sigma = h2sigma * r;
  c.X = X;
  c.Y = Y;
  c.R2 = R * R;
  c.inv_sigma2 = 1.0f / (sigma * sigma);
  return true;
}

// Row weights for the splat's rows, eight at a time from its first row. A group read from an
// aligned row, or a column's last group, may see up to seven entries before or after them: those
// hold finite values (of earlier splats, or zeros) and are masked off.
inline void fill_row_weights(const ClippedSplat& c, const TileBuffer& b, float* weight) {
  using namespace simd;
  const vfloat first = to_float(lane_index() + (b.y0 + c.y_lo)) - c.Y;
  for (int g = c.y_lo; g < c.y_hi; g += lanes) {
    const vfloat dy = first + float(g - c.y_lo);
    store(weight + g, fast_exp(-dy * dy * c.inv_sigma2));
  }
}

// For each column of the splat: the rows inside its disc (docs/design.md section 4: those within
// sqrt(R^2 - (x - X)^2) of Y, computed in image coordinates exactly as the original does) and the
// column's weight. Eight columns at a time, with no scalar remainder: the arrays have room for a
// last partial group, whose extra entries nobody reads.
inline void fill_columns(const ClippedSplat& c, TileBuffer& b) {
  using namespace simd;
  const int n = c.x_hi - c.x_lo;
  const vint y_lo = splat(b.y0 + c.y_lo), y_hi = splat(b.y0 + c.y_hi), origin = splat(b.y0);
  const vfloat first = to_float(lane_index() + (b.x0 + c.x_lo)) - c.X;
  std::int32_t *lo = b.column_lo.data(), *hi = b.column_hi.data();  // locals: see for_each_group
  float* weight = b.column_weight.data();
  for (int k = 0; k < n; k += lanes) {
    const vfloat dx = first + float(k), dx2 = dx * dx;
    const vfloat dy = sqrt(max(c.R2 - dx2, vfloat{}));
    // As truncate_to_int: clamp to +-1e9 first, so that huge splats cannot overflow.
    const vfloat top = min(max(c.Y - dy + 1.0f, splat(-coordinate_limit)), splat(coordinate_limit));
    const vfloat bottom = min(max(c.Y + dy + 1.0f, splat(-coordinate_limit)), splat(coordinate_limit));
    store_int(lo + k, max(y_lo, truncate(top)) - origin);
    store_int(hi + k, min(y_hi, truncate(bottom)) - origin);
    store(weight + k, fast_exp(-dx2 * c.inv_sigma2));
  }
}

// Calls blend(pixel offset, inside mask, weight) for groups of eight rows covering every column
// of the splat, with the lanes outside the column's rows masked off. Two arrangements:
//   Aligned: every column takes the same aligned groups, those covering the splat's rows. The
//     trip count is the same for every column (no mispredicted loop exits), and a load matches an
//     earlier splat's store exactly (the store is forwarded, not waited for). Best when a masked
//     lane costs little (a_eq_e).
//   FromFirstRow: each column's groups start at its first row, so fewer lanes are masked. Best
//     when every lane costs an exp (a_eq_e = FALSE).
enum class Groups { aligned, from_first_row };

template <Groups arrangement, class Blend>
inline void for_each_group(const ClippedSplat& c, TileBuffer& b, Blend blend) {
  using namespace simd;
  fill_row_weights(c, b, b.row_weight.data());
  fill_columns(c, b);
  // Locals, not members: stores through the pixel pointers could alias b's fields as far as the
  // compiler knows, and it would reload them at every group.
  const float* row_weight = b.row_weight.data();
  const std::int32_t *column_lo = b.column_lo.data(), *column_hi = b.column_hi.data();
  const float* column_weight = b.column_weight.data();
  const int stride = b.column_stride, n = c.x_hi - c.x_lo;
  const vint lane = lane_index();
  if constexpr (arrangement == Groups::aligned) {
    // Row groups outside, columns inside (two at a time): a group's row weights and row numbers
    // are loaded once.
    const int g_lo = c.y_lo & ~(lanes - 1), groups = (c.y_hi - g_lo + lanes - 1) / lanes;
    vint row = lane + g_lo;
    for (int j = 0, g = g_lo; j < groups; ++j, g += lanes, row += lanes) {
      const vfloat wy = load(row_weight + g);
      int at = c.x_lo * stride + g, k = 0;
      for (; k + 1 < n; k += 2, at += 2 * stride) {
        blend(at, (row >= column_lo[k]) & (row < column_hi[k]), wy * column_weight[k]);
        blend(at + stride, (row >= column_lo[k + 1]) & (row < column_hi[k + 1]), wy * column_weight[k + 1]);
      }
      if (k < n) blend(at, (row >= column_lo[k]) & (row < column_hi[k]), wy * column_weight[k]);
    }
  } else {
    for (int k = 0; k < n; ++k) {
      const int column = (c.x_lo + k) * stride;
      const vfloat wx = splat(column_weight[k]);
      const int lo = column_lo[k], hi = column_hi[k];
      int g = lo;
      // Whole groups need no mask (the constant folds away); the last one, if partial, does.
      for (; g + lanes <= hi; g += lanes) blend(column + g, splat(-1), load(row_weight + g) * wx);
      if (g < hi) blend(column + g, (lane + g) < hi, load(row_weight + g) * wx);
    }
  }
}

void add_splat(const SplatView& s, std::size_t i, TileBuffer& b) {
  using namespace simd;
  ClippedSplat c;
  if (!clip(s, i, b, c)) return;
  const float e0 = s.e[0][i], e1 = s.e[1][i], e2 = s.e[2][i];
  float *p0 = b.channel(0), *p1 = b.channel(1), *p2 = b.channel(2);
  for_each_group<Groups::aligned>(c, b, [&](int at, vint inside, vfloat w) {
    w = select(inside, w, vfloat{});
    store(p0 + at, load(p0 + at) + w * e0);
    store(p1 + at, load(p1 + at) + w * e1);
    store(p2 + at, load(p2 + at) + w * e2);
  });
}

// Compositing one splat: P <- P exp(-w e) + q (1 - exp(-w e)) per channel, written as
// P + (P - q) (exp(-w e) - 1). The weight w is at most 1, so w e stays below the splat's largest e,
// and weak absorption (the common case) needs only a short Taylor polynomial in w, whose
// coefficients (-e)^k / k! are worked out once per splat: degree d is accurate to
// e^(d+1)/(d+1)! (below 1.3e-7 with the limits below) and costs d operations per channel, against
// about 18 for fast_exp.
constexpr float taylor3_limit = 0.02f, taylor4_limit = 0.1f, taylor6_limit = 0.35f;

template <int degree>
void composite_weak(const ClippedSplat& c, TileBuffer& b, const float* e, const float* q_in) {
  using namespace simd;
  const vfloat q[3] = {splat(q_in[0]), splat(q_in[1]), splat(q_in[2])};  // locals: kept in registers
  float a[3][degree + 1];
  for (int ch = 0; ch < 3; ++ch) {
    float term = 1.0f;
    for (int k = 1; k <= degree; ++k) a[ch][k] = term *= -e[ch] / float(k);
  }
  float* const channel[3] = {b.channel(0), b.channel(1), b.channel(2)};
  for_each_group<Groups::from_first_row>(c, b, [&](int at, vint inside, vfloat w) {
    for (int ch = 0; ch < 3; ++ch) {
      vfloat t = splat(a[ch][degree]);
      for (int k = degree - 1; k >= 1; --k) t = t * w + a[ch][k];
      t *= w;  // exp(-w e) - 1
      float* p = channel[ch] + at;
      const vfloat old = load(p);
      store(p, select(inside, old + (old - q[ch]) * t, old));
    }
  });
}

void composite_strong(const ClippedSplat& c, TileBuffer& b, const float* e_in, const float* q_in) {
  using namespace simd;
  const vfloat q[3] = {splat(q_in[0]), splat(q_in[1]), splat(q_in[2])};  // locals: kept in registers
  const vfloat e[3] = {splat(e_in[0]), splat(e_in[1]), splat(e_in[2])};
  float* const channel[3] = {b.channel(0), b.channel(1), b.channel(2)};
  for_each_group<Groups::from_first_row>(c, b, [&](int at, vint inside, vfloat w) {
    for (int ch = 0; ch < 3; ++ch) {
      float* p = channel[ch] + at;
      const vfloat old = load(p);
      store(p, select(inside, q[ch] + (old - q[ch]) * fast_exp(-w * e[ch]), old));
    }
  });
}

void composite_splat(const SplatView& s, std::size_t i, TileBuffer& b, float gray) {
  ClippedSplat c;
  if (!clip(s, i, b, c)) return;
  const float e[3] = {s.e[0][i], s.e[1][i], s.e[2][i]};
  const float q[3] = {absorption_colour(e[0], gray), absorption_colour(e[1], gray), absorption_colour(e[2], gray)};
  const float strongest = std::max({e[0], e[1], e[2]});
  if (strongest < taylor3_limit)
    composite_weak<3>(c, b, e, q);
  else if (strongest < taylor4_limit)
    composite_weak<4>(c, b, e, q);
  else if (strongest < taylor6_limit)
    composite_weak<6>(c, b, e, q);
  else
    composite_strong(c, b, e, q);
}

inline void prefetch_splat(const SplatView& s, std::uint32_t i) {
  __builtin_prefetch(s.x + i);
  __builtin_prefetch(s.y + i);
  __builtin_prefetch(s.radius + i);
  __builtin_prefetch(s.e[0] + i);
  __builtin_prefetch(s.e[1] + i);
  __builtin_prefetch(s.e[2] + i);
}

// The splats of a tile in drawing order. With keys: all of them sorted by key, equal keys in array
// order (the own range and the list are merged by index first, so that two splats with equal keys
// are drawn in the same order in every tile they share) -- a radix sort on (key, index) pairs,
// skipping the bytes in which all keys agree. Without: the own range, then the list. Scratch space
// per thread.
class TileDrawOrder {
 public:
  template <class Draw>
  void for_each(const SplatView& s, const TileSplats& t, bool by_key, Draw draw) {
    if (by_key && s.key) {
      sort_by_key(t, s.key);
      const std::size_t n = a_.size();
      for (std::size_t k = 0; k < n; ++k) {
        if (k + host_prefetch_distance < n) prefetch_splat(s, std::uint32_t(a_[k + host_prefetch_distance]));
        draw(std::uint32_t(a_[k]));
      }
      return;
    }
    for (std::size_t i = t.own_begin; i < t.own_end; ++i) draw(i);  // sequential: no prefetch needed
    for (std::size_t k = 0; k < t.listed_count; ++k) {
      if (k + host_prefetch_distance < t.listed_count) prefetch_splat(s, t.listed[k + host_prefetch_distance]);
      draw(t.listed[k]);
    }
  }

 private:
  void sort_by_key(const TileSplats& t, const std::uint32_t* key) {
    a_.resize(t.count());
    b_.resize(t.count());
    auto pair = [&](std::uint32_t i) { return (std::uint64_t(key[i]) << 32) | i; };
    std::size_t own = t.own_begin, listed = 0, k = 0;
    while (own < t.own_end && listed < t.listed_count)
      a_[k++] = own < t.listed[listed] ? pair(std::uint32_t(own++)) : pair(t.listed[listed++]);
    while (own < t.own_end) a_[k++] = pair(std::uint32_t(own++));
    while (listed < t.listed_count) a_[k++] = pair(t.listed[listed++]);
    for (int shift = 32; shift < 64; shift += 8) pass(shift);
  }
  void pass(int shift) {
    if (a_.empty()) return;
    std::size_t count[256] = {0};
    for (std::uint64_t v : a_) ++count[(v >> shift) & 0xffu];
    if (count[(a_[0] >> shift) & 0xffu] == a_.size()) return;  // every key has this byte
    std::size_t sum = 0;
    for (std::size_t& c : count) {
      const std::size_t here = c;
      c = sum;
      sum += here;
    }
    for (std::uint64_t v : a_) b_[count[(v >> shift) & 0xffu]++] = v;
    a_.swap(b_);
  }
  std::vector<std::uint64_t> a_, b_;
};

void render_tile(const SplatView& s, const RenderOptions& o, const TileSplats& t, TileBuffer& b, TileDrawOrder& order) {
  if (o.a_eq_e)
    order.for_each(s, t, false, [&](std::size_t i) { add_splat(s, i, b); });
  else
    order.for_each(s, t, true, [&](std::size_t i) { composite_splat(s, i, b, o.gray_absorption); });
}

// Weights far out in a splat's wings multiply to values below 1e-38, and arithmetic on such
// denormal numbers takes a slow microcode path (a hundred cycles an operation). They are far below
// anything visible: the render threads treat them as zero while they run.
class DenormalsAsZero {
 public:
  DenormalsAsZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8040u); }  // FTZ and DAZ bits
  ~DenormalsAsZero() { _mm_setcsr(saved_); }
  DenormalsAsZero(const DenormalsAsZero&) = delete;
  DenormalsAsZero& operator=(const DenormalsAsZero&) = delete;

 private:
  unsigned saved_;
};

}  // namespace

SplatView view_of(const Splats& s) {
  SplatView v;
  v.n = s.size();
  v.x = s.x.data();
  v.y = s.y.data();
  v.radius = s.radius.data();
  for (int c = 0; c < 3; ++c) v.e[c] = s.colour[c].data();
  v.key = s.draw_key.empty() ? nullptr : s.draw_key.data();
  return v;
}

void render_host(const SplatView& s, const RenderOptions& o, Image& image, const ProgressCallback& progress) {
  if (s.n == 0 || image.width <= 0 || image.height <= 0) return;
  const int side = o.tile_size > 0 ? o.tile_size : host_tile_size(image.width, image.height, omp_get_max_threads());
  const TileGrid grid(image.width, image.height, side);
  const TileLists lists = s.tile_start ? bin_spills(s, grid) : bin_splats(s, grid);
  // The busiest tiles first, so that no thread is left with a heavy one at the end.
  std::vector<int> order(std::size_t(grid.count()));
  std::iota(order.begin(), order.end(), 0);
  auto work = [&](int tile) { return splats_of(s, lists, tile).count(); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return work(a) > work(b); });
  std::atomic<int> done{0};
  const int ntiles = grid.count();
#pragma omp parallel
  {
    const DenormalsAsZero fast_underflow;
    auto buffer = std::make_unique<TileBuffer>(side);
    TileDrawOrder draw_order;
#pragma omp for schedule(dynamic, 1)
    for (int k = 0; k < ntiles; ++k) {
      if (o.stop && o.stop->load(std::memory_order_relaxed)) continue;  // no longer wanted
      const int tile = order[std::size_t(k)];
      buffer->load(image, tile % grid.nx, tile / grid.nx);
      render_tile(s, o, splats_of(s, lists, tile), *buffer, draw_order);
      buffer->store(image);
      const int now = ++done;
      if (progress && omp_get_thread_num() == 0) progress(double(now) / ntiles);
    }
  }
}

}  // namespace splotch
