// seed 004 Algorithm A: every pixel of every splat's footprint makes a fragment (pixel index,
// contribution), written by one thread per fragment; the fragments are sorted by pixel with
// thrust::stable_sort_by_key and combined per pixel with thrust::reduce_by_key, and each pixel's
// result is applied to the image (one thread per pixel, so without atomics).
//
//   a_eq_e:  the contribution is w e per channel, combined by addition, added to the image.
//   else:    the contribution is the map P -> a P + b with a = exp(-w e), b = q (1 - a); maps are
//            combined by composition in draw order ((a1, b1) then (a2, b2) is (a1 a2, a2 b1 + b2),
//            associative though not commutative), which the stable sort keeps, and the composite
//            map is applied to the pixel.
//
// The fragments of a chunk are made in windows that fit the fragment buffer (passes); windows
// follow the draw order, so passes keep every pixel's order. A footprint's fragments cover its
// bounding box; those outside the disc get the pixel key "none", sort last and are dropped.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <map>
#include <new>

#include "cuda/chunk_renderer.h"
#include "cuda/device_layout.h"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"

namespace splotch::cuda_detail {
namespace {

struct Sum {
  float c[3];
};
struct AddSums {
  __host__ __device__ Sum operator()(const Sum& u, const Sum& v) const {
    return {{u.c[0] + v.c[0], u.c[1] + v.c[1], u.c[2] + v.c[2]}};
  }
};

struct Map {
  float a[3], b[3];  // P -> a P + b
};
struct ThenMap {  // u first, then v
  __host__ __device__ Map operator()(const Map& u, const Map& v) const {
    Map m;
    for (int ch = 0; ch < 3; ++ch) {
      m.a[ch] = u.a[ch] * v.a[ch];
      m.b[ch] = v.a[ch] * u.b[ch] + v.b[ch];
    }
    return m;
  }
};

template <bool additive>
using Contribution = std::conditional_t<additive, Sum, Map>;

// Fragments per splat (its footprint's bounding box), in draw order.
__global__ void fragment_count_kernel(Chunk c, const std::uint32_t* __restrict__ order, RenderGrid g,
                                      std::uint64_t* __restrict__ count) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= c.count) return;
  SplatShape s;
  count[j] = drawn_splat(c, order, j, g, s) ? std::uint64_t(s.f.width()) * std::uint64_t(s.f.height()) : 0;
}

// Fragments [first, first + n): pixel (or g.pixels() for none) and contribution, and their
// positions 0 .. n - 1 for the sort.
template <bool additive>
__global__ void fragment_kernel(Chunk c, const std::uint32_t* __restrict__ order, const std::uint64_t* __restrict__ end,
                                std::uint64_t first, std::uint32_t n, RenderGrid g, std::uint32_t* __restrict__ pixel,
                                std::uint32_t* __restrict__ index, Contribution<additive>* __restrict__ value) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const std::uint64_t item = first + t;
  const std::uint32_t j = owner_of(end, c.count, item);
  const std::uint64_t k = item - (j > 0 ? end[j - 1] : 0);
  const std::uint32_t p = order[j];
  const SplatShape s = shape_of(c.x[p], c.y[p], c.radius[p], g);
  const int width = s.f.width();
  const int px = s.f.x_lo + int(k % std::uint64_t(width)), py = s.f.y_lo + int(k / std::uint64_t(width));
  const float w = weight_at(s, px, py);
  index[t] = t;
  pixel[t] = w != 0.0f ? std::uint32_t(py) * std::uint32_t(g.xres) + std::uint32_t(px) : g.pixels();
  Contribution<additive> v;
  for (int ch = 0; ch < 3; ++ch) {
    const float e = c.e[ch][p];
    if constexpr (additive) {
      v.c[ch] = w * e;
    } else {
      const float a = __expf(-w * e);
      v.a[ch] = a;
      v.b[ch] = absorption_colour(e, g.gray) * (1.0f - a);
    }
  }
  value[t] = v;
}

template <bool additive>
__global__ void apply_kernel(const std::uint32_t* __restrict__ pixel, const Contribution<additive>* __restrict__ value,
                             std::uint32_t n, std::uint32_t pixels, float* __restrict__ image) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n || pixel[t] >= pixels) return;
  float* P = image + std::size_t(pixel[t]) * 3;
  const Contribution<additive> v = value[t];
  for (int ch = 0; ch < 3; ++ch) {
    if constexpr (additive)
      P[ch] += v.c[ch];
    else
      P[ch] = v.a[ch] * P[ch] + v.b[ch];
  }
}

// Device memory for Thrust's temporary storage, kept from pass to pass (Thrust would otherwise
// allocate and free it at every call). Blocks are reused when free and large enough.
class CachingAllocator {
 public:
  using value_type = char;
  CachingAllocator() = default;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;
  ~CachingAllocator() {
    for (auto& [p, block] : blocks_) cudaFree(p);
  }
  char* allocate(std::ptrdiff_t bytes) {
    for (auto& [p, block] : blocks_)
      if (!block.in_use && block.bytes >= std::size_t(bytes)) {
        block.in_use = true;
        return p;
      }
    char* p = nullptr;
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&p), std::size_t(bytes));
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw std::bad_alloc();  // Thrust reports it as its own bad_alloc
    }
    CUDA_CHECK(e);
    blocks_[p] = {std::size_t(bytes), true};
    return p;
  }
  void deallocate(char* p, std::size_t) { blocks_.at(p).in_use = false; }

 private:
  struct Block {
    std::size_t bytes;
    bool in_use;
  };
  std::map<char*, Block> blocks_;
};

template <bool additive>
class FragmentRenderer : public ChunkRenderer {
  using Value = Contribution<additive>;
  // Device bytes per fragment in a pass: pixel, index and value, their reduced copies, and the
  // sort's second buffers for pixel and index.
  static constexpr std::size_t bytes_per_fragment =
      4 * sizeof(std::uint32_t) + 2 * sizeof(Value) + 2 * sizeof(std::uint32_t);

 public:
  FragmentRenderer(const RenderGrid& g, std::size_t pass_items) : g_(g), pass_items_(pass_items) {}

  // The chunk's arrays only: the fragment buffer is sized afterwards from what is left.
  std::size_t bytes_for(std::size_t chunk) const override {
    return bytes_of([&](DeviceLayout& l) { return lay_out_chunk(l, chunk); });
  }
  bool allocate(std::size_t chunk) override {
    if (!chunk_scratch_.allocate([&](DeviceLayout& l) { return lay_out_chunk(l, chunk); })) return false;
    // The fragment buffer: a share of what is free now, within sensible bounds (kernel_config.h).
    capacity_ = pass_items_ > 0 ? pass_items_
                                : std::clamp(device_memory().free / fragment_memory_share / bytes_per_fragment,
                                             fewest_pass_items, most_fragments);
    return pass_scratch_.allocate([&](DeviceLayout& l) { return lay_out_pass(l, capacity_); });
  }

  void draw(const Chunk& c, float* image, cudaStream_t stream) override {
    const ChunkScratch& per_chunk = *chunk_scratch_;
    const PassScratch& a = *pass_scratch_;
    const std::uint32_t* order = per_chunk.order.sort(c, stream);  // chunk order with a_eq_e (no keys)
    fragment_count_kernel<<<blocks_for(c.count), small_block, 0, stream>>>(c, order, g_, per_chunk.items.counts());
    CUDA_CHECK_LAUNCH();
    const std::uint64_t total = per_chunk.items.scan(c.count, stream);
    const auto policy = thrust::cuda::par(allocator_).on(stream);
    for (std::uint64_t first = 0; first < total; first += capacity_) {
      const std::uint32_t n = std::uint32_t(std::min<std::uint64_t>(capacity_, total - first));
      fragment_kernel<additive><<<blocks_for(n), small_block, 0, stream>>>(c, order, per_chunk.items.ends(), first, n,
                                                                           g_, a.pixel, a.index, a.value);
      CUDA_CHECK_LAUNCH();
      thrust::stable_sort_by_key(policy, a.pixel, a.pixel + n, a.index);
      using Combine = std::conditional_t<additive, AddSums, ThenMap>;
      const auto ends =
          thrust::reduce_by_key(policy, a.pixel, a.pixel + n, thrust::make_permutation_iterator(a.value, a.index),
                                a.out_pixel, a.out_value, thrust::equal_to<std::uint32_t>(), Combine());
      CUDA_CHECK_LAUNCH();  // (Thrust's kernels)
      const std::uint32_t pixels = std::uint32_t(ends.first - a.out_pixel);
      apply_kernel<additive>
          <<<blocks_for(pixels), small_block, 0, stream>>>(a.out_pixel, a.out_value, pixels, g_.pixels(), image);
      CUDA_CHECK_LAUNCH();
    }
  }

 private:
  struct ChunkScratch {
    DrawOrder order;
    ItemScan items;
  };
  static ChunkScratch lay_out_chunk(DeviceLayout& l, std::size_t chunk) {
    return {DrawOrder::lay_out(l, chunk), ItemScan::lay_out(l, chunk)};
  }
  struct PassScratch {
    std::uint32_t *pixel, *index, *out_pixel;
    Value *value, *out_value;
  };
  static PassScratch lay_out_pass(DeviceLayout& l, std::size_t capacity) {
    PassScratch a{};
    a.pixel = l.take<std::uint32_t>(capacity);
    a.index = l.take<std::uint32_t>(capacity);
    a.value = l.take<Value>(capacity);
    a.out_pixel = l.take<std::uint32_t>(capacity);
    a.out_value = l.take<Value>(capacity);
    return a;
  }

  RenderGrid g_;
  std::size_t pass_items_;
  std::size_t capacity_ = 0;  // fragments per pass
  DeviceArena<ChunkScratch> chunk_scratch_;
  DeviceArena<PassScratch> pass_scratch_;
  CachingAllocator allocator_;
};

}  // namespace

std::unique_ptr<ChunkRenderer> make_fragment_renderer(const RenderGrid& grid, bool a_eq_e, std::size_t pass_items) {
  if (a_eq_e) return std::make_unique<FragmentRenderer<true>>(grid, pass_items);
  return std::make_unique<FragmentRenderer<false>>(grid, pass_items);
}

}  // namespace splotch::cuda_detail
