// The particles kept on the device and a view drawn from them (device_particles.h).
//
// A view takes two passes over the particles, both projecting (which costs less than the memory
// a stored projection would take and its traffic): the first marks each particle in view for the
// GPU, or for the host when its footprint is beyond the Btile boundary; exclusive sums of the
// marks give each its place; the second writes the splats in view, coloured and keyed, the GPU's
// first and the host's after them, in the particles' order. The splats then lie on the device as
// draw_device_splats() (device_render.cuh) takes them.
//
// Where the view's working memory for all the particles does not fit beside them (10^9 particles
// on an 80 GB GPU: 24 GB of fields, 52 bytes a particle of working memory), it holds a window of
// them, and the passes go over the particles a window at a time. With a_eq_e, whose sums do not
// depend on the order, and with sort_type 0 (file order), each window's splats are drawn before
// the next window's are written. Otherwise the draw order runs over all the particles: a
// histogram of the draw keys cuts the key range into slabs of at most a window's splats, and each
// slab, gathered from every window and sorted, is drawn in turn; equal keys fall in one slab, so
// the order within a slab is the order over all.
#include <cuda_runtime.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cub_calls.cuh"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/device_particles.h"
#include "cuda/device_render.cuh"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"
#include "cuda/split_gather.cuh"

namespace splotch {

using cuda_detail::DeviceBuffer;
using cuda_detail::DeviceLayout;
using cuda_detail::Event;

// The particles' fields and a view's working memory: two allocations (the arena, and the splats
// in view with their tiles, which other processes may reach).
struct DeviceParticles::Memory {
  explicit Memory(CudaSession& s) : session(s) {}
  CudaSession& session;
  std::size_t n = 0;
  std::size_t window = 0;  // the particles the working memory holds: n, or fewer (a view in windows)
  bool typed = false, vector_colour = false;
  double box_size = 0;
  DeviceBuffer<unsigned char> arena;
  // The splats in view and their tiles, in an allocation of their own: the one the node's other
  // processes reach for a_eq_e = FALSE's split (write_split). Reaching another process's memory
  // (cudaIpcOpenMemHandle) costs with the size of the allocation opened, about 6-7 ms a GB on the
  // 2 x H200 node (16 GB: 0.10-0.12 s, 42 GB: 0.26-0.32 s): with the whole arena of 5 x 10^8
  // particles (58 GB) that was 0.42 s of a frame.
  DeviceBuffer<unsigned char> shared;
  // The ranges of the last split copied each into an allocation of its own (write_split).
  std::vector<DeviceBuffer<unsigned char>> range_copies;
  std::size_t bytes = 0;
  // The particles.
  float *x = nullptr, *y = nullptr, *z = nullptr, *hsml = nullptr, *intensity = nullptr;
  float* colour[3] = {nullptr, nullptr, nullptr};
  std::uint8_t* type = nullptr;
  // A view's: the splats in view (fields x n), the marks turned places (n + 1 each: the last is the
  // count), and the scratch of the sums and of the draw order.
  cuda_detail::DeviceSplats splats;
  std::uint32_t *gpu_place = nullptr, *host_place = nullptr;
  std::uint32_t* tie = nullptr;  // a_eq_e = FALSE: the tile of each splat's centre, for equal keys
  cuda_detail::CubScratch scan;
  cuda_detail::OrderScratch order;
  // Each type's run of particles (first, count), by type: found on the first split (write_split)
  // for `runs_types` types, empty when the particles are not in type order.
  bool runs_found = false;
  std::size_t runs_types = 0;
  std::vector<std::pair<std::size_t, std::size_t>> type_runs;

  // The particles and the scratch into `l`, the splats in view and their tiles into `out`.
  template <class Layout>
  void lay_out(Layout& l, Layout& out) {
    x = l.template take<float>(n);
    y = l.template take<float>(n);
    z = l.template take<float>(n);
    hsml = l.template take<float>(n);
    intensity = l.template take<float>(n);
    colour[0] = l.template take<float>(n);
    if (vector_colour) {
      colour[1] = l.template take<float>(n);
      colour[2] = l.template take<float>(n);
    }
    if (typed) type = l.template take<std::uint8_t>(n);
    const std::size_t w = window;
    splats = {out.template take<float>(cuda_detail::fields * w), w};
    gpu_place = l.template take<std::uint32_t>(w + 1);
    host_place = l.template take<std::uint32_t>(w + 1);
    tie = out.template take<std::uint32_t>(w);
    scan = cuda_detail::take_cub_scratch(l, cuda_detail::exclusive_sum_bytes<std::uint32_t>(w + 1));
    order = cuda_detail::lay_out_order(l, w);
  }
};

namespace {

// Every field a view reads holds one value per particle (colours 1 and 2 and types may be absent).
void check_fields(const ParticleSet& p) {
  const std::size_t n = p.size();
  auto whole = [n](std::size_t size, bool optional) { return size == n || (optional && size == 0); };
  if (!whole(p.y.size(), false) || !whole(p.z.size(), false) || !whole(p.hsml.size(), false) ||
      !whole(p.intensity.size(), false) || !whole(p.colour[0].size(), false) || !whole(p.colour[1].size(), true) ||
      p.colour[2].size() != p.colour[1].size() || !whole(p.type.size(), true))
    throw std::logic_error("DeviceParticles: a field with other than one value per particle");
}

// Copies from pageable host memory to the device through the session's page-locked staging
// buffers, in pieces: CPU threads fill one piece while the copy engine moves the ones before. A
// plain cudaMemcpy from pageable memory ran at 7 GB/s on the H100 node (0.33 s for 10^8
// particles' six fields); this runs near the bus's own rate (about 40 GB/s there).
class StagedCopy {
 public:
  explicit StagedCopy(CudaSession::Resources& r) : stream_(r.copy) {
    r.reserve_staging(0);  // (as the session made them)
    const std::size_t half = cuda_detail::fields * r.staging_chunk * sizeof(float) / 2;
    for (int b = 0; b < 2; ++b)
      for (int h = 0; h < 2; ++h) piece_[2 * b + h] = reinterpret_cast<unsigned char*>(r.staging[b].get()) + h * half;
    piece_bytes_ = half;
    threads_ = std::max(1, std::min(omp_get_max_threads(), cuda_detail::upload_threads));
  }
  StagedCopy(const StagedCopy&) = delete;
  StagedCopy& operator=(const StagedCopy&) = delete;
  // Waits for the last piece: the staging buffers are free for others again.
  ~StagedCopy() { cudaStreamSynchronize(stream_); }

  void up(void* to, const void* from, std::size_t bytes) {
    for (std::size_t done = 0; done < bytes; done += piece_bytes_, next_ = (next_ + 1) % pieces) {
      const std::size_t len = std::min(piece_bytes_, bytes - done);
      unsigned char* piece = piece_[next_];
      CUDA_CHECK(cudaEventSynchronize(moved_[next_]));  // its last copy is done
      const unsigned char* src = static_cast<const unsigned char*>(from) + done;
      const int threads = len < (std::size_t(1) << 20) ? 1 : threads_;
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int t = 0; t < threads; ++t) {
        const std::size_t lo = len * std::size_t(t) / std::size_t(threads),
                          hi = len * std::size_t(t + 1) / std::size_t(threads);
        std::memcpy(piece + lo, src + lo, hi - lo);
      }
      CUDA_CHECK(cudaMemcpyAsync(static_cast<unsigned char*>(to) + done, piece, len, cudaMemcpyHostToDevice, stream_));
      CUDA_CHECK(cudaEventRecord(moved_[next_], stream_));
    }
  }
  template <class T>
  void up(T* to, const ParticleArray<T>& from) {
    if (!from.empty()) up(static_cast<void*>(to), static_cast<const void*>(from.data()), from.size() * sizeof(T));
  }
  void finish() { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  static constexpr int pieces = 4;
  cudaStream_t stream_;
  unsigned char* piece_[pieces] = {};
  Event moved_[pieces];
  std::size_t piece_bytes_ = 0;
  int threads_ = 1, next_ = 0;
};

// What the kernels read of the particles.
struct ParticleFields {
  const float *x, *y, *z, *hsml, *intensity, *colour[3];
  const std::uint8_t* type;
};

// A type's look on the device: its palette's entries start at palette[first] (the last one
// repeated, as Palette keeps them), scale = entries - 1.
struct TypeLook {
  int vector_colour;
  int first;
  float scale, brightness, smooth;
};

struct Wrap {
  bool on;
  double centre[3], box;
};

// The host's tiles (splotch/stages/tile_order.h: centre_tile) by which splats of equal keys go.
struct TieTiles {
  int size, nx, ny, xres, yres;  // size 0: none
};

__device__ std::uint32_t centre_tile(float x, float y, const TieTiles& t) {
  const int px = min(max(int(fminf(fmaxf(x, 0.0f), coordinate_limit)), 0), t.xres - 1);
  const int py = min(max(int(fminf(fmaxf(y, 0.0f), coordinate_limit)), 0), t.yres - 1);
  return std::uint32_t(min(py / t.size, t.ny - 1) * t.nx + min(px / t.size, t.nx - 1));
}

__device__ ProjectedParticle project_one(std::uint32_t i, const ParticleFields& p, const ProjectionConstants& k,
                                         const TypeLook* looks, const Wrap& wrap) {
  float px = p.x[i], py = p.y[i], pz = p.z[i];
  if (wrap.on) {
    px = wrapped(px, wrap.centre[0], wrap.box);
    py = wrapped(py, wrap.centre[1], wrap.box);
    pz = wrapped(pz, wrap.centre[2], wrap.box);
  }
  const TypeLook& look = looks[p.type ? p.type[i] : 0];
  return project_particle(px, py, pz, p.hsml[i], p.intensity[i], look.smooth, k);
}

// Palette::at() on the device, its interpolation fused or not as the host's build has it
// (DeviceView::fused_palette; this file is built with -fmad=false, so the plain form stays a
// multiply and an add): the emissions, and the pictures, are the host's bits.
__device__ float palette_lerp(float lo, float hi, float frac, bool fused) {
  return fused ? __fmaf_rn(frac, hi - lo, lo) : lo + frac * (hi - lo);
}
__device__ float3 palette_at(const float3* entries, const TypeLook& look, float v, bool fused) {
  const float clamped = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  const float position = clamped * look.scale;
  const int lower = int(position);
  const float frac = position - float(lower);
  const float3 lo = entries[look.first + lower], hi = entries[look.first + lower + 1];
  return make_float3(palette_lerp(lo.x, hi.x, frac, fused), palette_lerp(lo.y, hi.y, frac, fused),
                     palette_lerp(lo.z, hi.z, frac, fused));
}

// What every pass of a view reads: the particles (of one window: its first particle is index 0
// here), the camera, the looks.
struct ViewPass {
  ParticleFields p;
  ProjectionConstants k;
  const TypeLook* looks;
  const float3* palettes;
  Wrap wrap;
  SortOrder sort;
  bool fused;
};

// A particle's splat: projected, and its emission (the colour stage's e = colour * I * brightness).
struct SplatValues {
  ProjectedParticle s;
  float e[3];
};
__device__ SplatValues splat_values(std::uint32_t i, const ViewPass& v) {
  SplatValues out;
  out.s = project_one(i, v.p, v.k, v.looks, v.wrap);
  const TypeLook& look = v.looks[v.p.type ? v.p.type[i] : 0];
  const float scale = out.s.intensity * look.brightness;
  if (look.vector_colour) {
    for (int c = 0; c < 3; ++c) out.e[c] = v.p.colour[c][i] * scale;
  } else {
    const float3 rgb = palette_at(v.palettes, look, v.p.colour[0][i], v.fused);
    out.e[0] = rgb.x * scale;
    out.e[1] = rgb.y * scale;
    out.e[2] = rgb.z * scale;
  }
  return out;
}

// The draw key of a particle in view (sort not SortOrder::none); the emission only where it
// orders.
__device__ std::uint32_t key_of(std::uint32_t i, const ViewPass& v, bool* in_view) {
  if (v.sort == SortOrder::red_descending || v.sort == SortOrder::red_ascending) {
    const SplatValues sv = splat_values(i, v);
    *in_view = sv.s.keep;
    return draw_key(v.sort, sv.s.zp, sv.e[0], sv.s.r);
  }
  const ProjectedParticle s = project_one(i, v.p, v.k, v.looks, v.wrap);
  *in_view = s.keep;
  return draw_key(v.sort, s.zp, 0.0f, s.r);
}

// The draw keys of a slab, lo to hi (both in); `on` false: every key.
struct KeySlab {
  bool on;
  std::uint32_t lo, hi;
};

// Marks: 1 in the GPU's place array for a splat in view it draws (of the slab), 1 in the host's
// for one beyond the boundary (a_eq_e); place[n] = 0, so that the sums end with the counts.
__global__ void mark_kernel(std::uint32_t n, ViewPass v, int beyond, KeySlab slab,
                            std::uint32_t* __restrict__ gpu_place, std::uint32_t* __restrict__ host_place) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (i == n) {
    gpu_place[n] = host_place[n] = 0;
    return;
  }
  bool keep;
  float r = 0;
  if (slab.on) {
    const std::uint32_t key = key_of(i, v, &keep);
    keep = keep && key >= slab.lo && key <= slab.hi;
  } else {
    const ProjectedParticle s = project_one(i, v.p, v.k, v.looks, v.wrap);
    keep = s.keep;
    r = s.r;
  }
  const bool host = keep && beyond >= 0 && beyond_boundary(r, beyond);
  gpu_place[i] = keep && !host ? 1u : 0u;
  host_place[i] = host ? 1u : 0u;
}

// Writes each splat marked at its place after `base`: x, y, radius, the emission and with `keyed`
// the draw key.
__global__ void write_kernel(std::uint32_t n, ViewPass v, const std::uint32_t* __restrict__ gpu_place,
                             const std::uint32_t* __restrict__ host_place, std::size_t base, float* __restrict__ out,
                             std::size_t stride, bool keyed, TieTiles tiles, std::uint32_t* __restrict__ tie) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool gpu = gpu_place[i + 1] != gpu_place[i], host = host_place[i + 1] != host_place[i];
  if (!gpu && !host) return;
  const SplatValues sv = splat_values(i, v);
  const ProjectedParticle& s = sv.s;
  const std::size_t at = base + (gpu ? gpu_place[i] : gpu_place[n] + host_place[i]);
  out[at] = s.X;
  out[stride + at] = s.Y;
  out[2 * stride + at] = s.r;
  for (int c = 0; c < 3; ++c) out[(3 + c) * stride + at] = sv.e[c];
  if (keyed) {
    reinterpret_cast<std::uint32_t*>(out + cuda_detail::float_fields * stride)[at] =
        v.sort == SortOrder::none ? gpu_place[i] : draw_key(v.sort, s.zp, sv.e[0], s.r);
    if (tiles.size > 0) tie[at] = centre_tile(s.X, s.Y, tiles);
  }
}

// Counts the particles in view by draw key: keys lo + b * 2^shift ... lo + (b + 1) * 2^shift - 1
// in bin b (of `bins`, at most histogram_bins), added to `counts`. Each block counts in shared
// memory over a stretch of the particles, then adds its counts.
constexpr int histogram_bins = 4096;
__global__ void key_histogram_kernel(std::uint32_t n, ViewPass v, std::uint32_t lo, int shift, std::uint32_t bins,
                                     unsigned long long* __restrict__ counts) {
  __shared__ std::uint32_t local[histogram_bins];
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    bool in_view;
    const std::uint32_t key = key_of(i, v, &in_view);
    if (!in_view || key < lo) continue;
    const std::uint32_t b = (key - lo) >> shift;
    if (b < bins) atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b]) atomicAdd(&counts[b], (unsigned long long)local[b]);
}

// Where each type's particles start (first[t]; untouched where none), and disorder[0] set where a
// type follows a greater one.
__global__ void type_runs_kernel(std::uint32_t n, const std::uint8_t* __restrict__ type,
                                 std::uint32_t* __restrict__ first, std::uint32_t* __restrict__ disorder) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0) {
    first[type[0]] = 0;
  } else if (type[i] != type[i - 1]) {
    if (type[i] < type[i - 1]) disorder[0] = 1;
    first[type[i]] = i;
  }
}

// The pass over the window of particles from `first` on: their fields from index 0.
ViewPass in_window(const ViewPass& whole, std::size_t first) {
  ViewPass v = whole;
  for (const float** f : {&v.p.x, &v.p.y, &v.p.z, &v.p.hsml, &v.p.intensity}) *f += first;
  for (const float*& c : v.p.colour)
    if (c) c += first;
  if (v.p.type) v.p.type += first;
  return v;
}

// The looks of a view on the device: every type's palette laid end to end.
struct ViewLooks {
  DeviceBuffer<TypeLook> looks;
  DeviceBuffer<float3> entries;
};
ViewLooks upload_looks(const DeviceView& view, cudaStream_t stream) {
  std::vector<TypeLook> looks;
  std::vector<float3> entries;
  for (const DeviceTypeLook& t : view.types) {
    TypeLook look{t.vector_colour ? 1 : 0, int(entries.size()), 0.0f, t.brightness, t.smooth};
    if (!t.vector_colour) {
      if (!t.palette) throw std::invalid_argument("render_particles_cuda: a scalar type without a palette");
      look.scale = float(t.palette->size() - 1);
      for (int e = 0; e <= t.palette->size(); ++e) {  // the last entry repeated (Palette::entry)
        const Rgb c = t.palette->entry(e);
        entries.push_back(make_float3(c.r, c.g, c.b));
      }
    }
    looks.push_back(look);
  }
  if (looks.empty()) throw std::invalid_argument("render_particles_cuda: no type's look");
  entries.push_back(make_float3(0, 0, 0));  // never empty
  ViewLooks out;
  if (!out.looks.try_allocate(looks.size()) || !out.entries.try_allocate(entries.size()))
    throw std::runtime_error("the GPU has no memory left for the palettes");
  CUDA_CHECK(
      cudaMemcpyAsync(out.looks.get(), looks.data(), looks.size() * sizeof(TypeLook), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(out.entries.get(), entries.data(), entries.size() * sizeof(float3), cudaMemcpyHostToDevice,
                             stream));
  // (Pageable sources: the copies have read them when they return.)
  return out;
}

// What every pass of the view over all the particles reads.
ViewPass whole_pass(const DeviceParticles::Memory& m, const DeviceView& view, const ViewLooks& looks) {
  const ParticleFields fields{m.x, m.y, m.z, m.hsml, m.intensity, {m.colour[0], m.colour[1], m.colour[2]}, m.type};
  const Wrap wrap{
      view.wrap && m.box_size > 0, {view.wrap_centre[0], view.wrap_centre[1], view.wrap_centre[2]}, m.box_size};
  return ViewPass{fields, view.projection, looks.looks.get(), looks.entries.get(), wrap, view.sort, view.fused_palette};
}

// The tiles by which keyed splats of equal keys go, for an image of width x height (none where
// there can be no equal keys but the places of sort_type 0).
TieTiles tie_tiles(const DeviceView& view, bool keyed, int width, int height) {
  TieTiles tiles{keyed && view.sort != SortOrder::none ? std::max(0, view.tie_tile_size) : 0, 1, 1, width, height};
  if (tiles.size > 0) {
    tiles.nx = (width + tiles.size - 1) / tiles.size;
    tiles.ny = (height + tiles.size - 1) / tiles.size;
  }
  return tiles;
}

// Marks and writes the splats of particles [first, first + count) (of `slab`) into m.splats after
// `base`: the GPU's count and the host's (beyond the boundary; -1: none are), once written. The
// time between the events goes to `seconds`.
struct Written {
  std::size_t on_gpu = 0, beyond = 0;
};
Written write_window(DeviceParticles::Memory& m, const ViewPass& whole, std::size_t first, std::size_t count,
                     int boundary, const KeySlab& slab, std::size_t base, bool keyed, const TieTiles& tiles,
                     cudaStream_t compute, double& seconds) {
  const ViewPass v = in_window(whole, first);
  const std::uint32_t c = std::uint32_t(count);
  Event marked(true), written(true);
  CUDA_CHECK(cudaEventRecord(marked, compute));
  mark_kernel<<<cuda_detail::blocks_for(count + 1), cuda_detail::small_block, 0, compute>>>(c, v, boundary, slab,
                                                                                            m.gpu_place, m.host_place);
  CUDA_CHECK_LAUNCH();
  cuda_detail::exclusive_sum(m.scan, m.gpu_place, m.gpu_place, c + 1, compute);  // in place, as CUB allows
  cuda_detail::exclusive_sum(m.scan, m.host_place, m.host_place, c + 1, compute);
  std::uint32_t counts[2];
  CUDA_CHECK(cudaMemcpyAsync(&counts[0], m.gpu_place + c, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaMemcpyAsync(&counts[1], m.host_place + c, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  // (A slab holds at most a window's splats, as its keys were counted: the same projection.)
  if (base + counts[0] + counts[1] > m.window)
    throw std::logic_error("render_particles_cuda: a slab of the draw order with more splats than a window");
  write_kernel<<<cuda_detail::blocks_for(count), cuda_detail::small_block, 0, compute>>>(
      c, v, m.gpu_place, m.host_place, base, m.splats.field, m.splats.stride, keyed, tiles, m.tie);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(written, compute));
  CUDA_CHECK(cudaEventSynchronize(written));
  seconds += written.seconds_since(marked);
  return Written{counts[0], counts[1]};
}

}  // namespace

DeviceParticles::DeviceParticles(std::unique_ptr<Memory> memory) : memory_(std::move(memory)) {}
DeviceParticles::~DeviceParticles() = default;
std::size_t DeviceParticles::size() const { return memory_->n; }
DeviceParticles::Fields DeviceParticles::fields() const {
  const Memory& m = *memory_;
  return {m.x, m.y, m.z, m.hsml, m.intensity, m.colour[0], m.typed ? m.type : nullptr, m.n, m.session.device()};
}
CudaSession& DeviceParticles::session() { return memory_->session; }
double DeviceParticles::device_mib() const { return double(memory_->bytes) / (1024.0 * 1024.0); }

namespace {

// Device bytes of the particles' fields and of a view's working memory for a window of them: the
// arena's, then the shared allocation's.
std::pair<std::size_t, std::size_t> allocations_of(DeviceParticles::Memory& m, std::size_t window) {
  m.window = window;
  DeviceLayout arena, shared;
  m.lay_out(arena, shared);
  return {arena.bytes(), shared.bytes()};
}
std::size_t bytes_of(DeviceParticles::Memory& m, std::size_t window) {
  const auto [arena, shared] = allocations_of(m, window);
  return arena + shared;
}

// The widest window, at most `most`, whose memory with the fields' takes at most `budget` bytes;
// 0 when not even the narrowest does (the memory grows with the window).
std::size_t widest_window(DeviceParticles::Memory& m, std::size_t most, std::size_t budget) {
  if (bytes_of(m, most) <= budget) return most;
  std::size_t lo = 0, hi = most;  // lo fits (or is 0), hi does not
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (bytes_of(m, mid) <= budget ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

std::unique_ptr<DeviceParticles> DeviceParticles::upload(const ParticleSet& p, CudaSession& session, std::string* why,
                                                         std::size_t window) {
  CUDA_CHECK(cudaSetDevice(session.device()));
  check_fields(p);
  if (p.size() > std::size_t(UINT32_MAX)) {
    if (why) *why = "more than 2^32 - 1 particles";
    return nullptr;
  }
  auto m = std::make_unique<Memory>(session);
  m->n = p.size();
  m->typed = !p.type.empty();
  m->vector_colour = !p.colour[1].empty();
  m->box_size = p.box_size;
  const std::size_t free = cuda_detail::device_memory().free;
  const std::size_t budget = free / cuda_detail::resident_memory_share;
  // The working memory for all of them where it fits (CUB's counts are ints: 2^30 at most), else
  // the widest window that does, but none narrower than a pass is worth.
  const std::size_t most = std::min({m->n, std::size_t(1) << 30, window > 0 ? window : m->n});
  m->window = widest_window(*m, std::max<std::size_t>(most, 1), budget);
  const std::size_t narrowest = std::min<std::size_t>(std::max<std::size_t>(most, 1), std::size_t(1) << 16);
  if (m->window < narrowest) {
    if (why)
      *why = std::to_string(bytes_of(*m, narrowest) >> 20) + " MiB of GPU memory wanted, more than half the " +
             std::to_string(free >> 20) + " MiB free";
    return nullptr;
  }
  const auto [arena_bytes, shared_bytes] = allocations_of(*m, m->window);
  m->bytes = arena_bytes + shared_bytes;
  if (!m->arena.try_allocate(std::max<std::size_t>(arena_bytes, 1)) ||
      !m->shared.try_allocate(std::max<std::size_t>(shared_bytes, 1))) {
    if (why) *why = "the GPU could not give " + std::to_string(m->bytes >> 20) + " MiB";
    return nullptr;
  }
  DeviceLayout carve(m->arena.get()), carve_shared(m->shared.get());
  m->lay_out(carve, carve_shared);
  {
    StagedCopy copy(session.resources());
    copy.up(m->x, p.x);
    copy.up(m->y, p.y);
    copy.up(m->z, p.z);
    copy.up(m->hsml, p.hsml);
    if (m->typed) copy.up(m->type, p.type);
    copy.finish();
  }
  std::unique_ptr<DeviceParticles> d(new DeviceParticles(std::move(m)));
  d->refresh_values(p);
  return d;
}

std::size_t DeviceParticles::window() const { return memory_->window; }

void DeviceParticles::refresh_values(const ParticleSet& p) {
  Memory& m = *memory_;
  check_fields(p);
  if (p.size() != m.n || p.colour[1].empty() == m.vector_colour || p.type.empty() == m.typed)
    throw std::logic_error("DeviceParticles::refresh_values: not the particles uploaded");
  CUDA_CHECK(cudaSetDevice(m.session.device()));
  StagedCopy copy(m.session.resources());
  copy.up(m.intensity, p.intensity);
  for (int c = 0; c < 3; ++c)
    if (m.colour[c]) copy.up(m.colour[c], p.colour[c]);
  copy.finish();
}

namespace {

// The particles in view by draw key (key_histogram_kernel's bins) over every window, counted in
// `counts` (room for `bins`) and brought back.
std::vector<unsigned long long> count_keys(DeviceParticles::Memory& m, const ViewPass& whole,
                                           unsigned long long* counts, std::uint32_t lo, int shift, std::uint32_t bins,
                                           cudaStream_t compute) {
  int processors = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, m.session.device()));
  const unsigned blocks = unsigned(std::max(1, processors)) * 4;  // each counts a stretch in shared memory
  CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned long long), compute));
  for (std::size_t first = 0; first < m.n; first += m.window) {
    key_histogram_kernel<<<blocks, cuda_detail::small_block, 0, compute>>>(
        std::uint32_t(std::min(m.window, m.n - first)), in_window(whole, first), lo, shift, bins, counts);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<unsigned long long> h(bins);
  CUDA_CHECK(cudaMemcpyAsync(h.data(), counts, bins * sizeof(unsigned long long), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  return h;
}

// The slabs of the draw order of the particles in view: ranges of keys, in draw order, of at most
// a window's splats each. From histograms of the keys: bins of 2^20 keys over all keys, then where
// a bin holds more than a window, bins of 2^8 keys within it, then of single keys.
std::vector<KeySlab> key_slabs(DeviceParticles::Memory& m, const ViewPass& whole, cudaStream_t compute) {
  DeviceBuffer<unsigned long long> counts;
  if (!counts.try_allocate(histogram_bins))
    throw std::runtime_error("the GPU has no memory left for the histogram of the draw keys");
  auto histogram = [&](std::uint32_t lo, int shift, std::uint32_t bins) {
    return count_keys(m, whole, counts.get(), lo, shift, bins, compute);
  };
  std::vector<KeySlab> slabs;
  KeySlab open{false, 0, 0};
  std::size_t held = 0;  // splats in the open slab
  auto close = [&] {
    if (open.on) slabs.push_back(open);
    open.on = false;
    held = 0;
  };
  auto add = [&](std::uint32_t lo, std::uint32_t hi, std::size_t splats) {
    if (splats == 0) return;
    if (open.on && held + splats > m.window) close();
    if (!open.on) open = {true, lo, hi};
    open.hi = hi;
    held += splats;
  };
  std::function<void(std::uint32_t, int, std::uint32_t)> level = [&](std::uint32_t lo, int shift, std::uint32_t bins) {
    const std::vector<unsigned long long> h = histogram(lo, shift, bins);
    for (std::uint32_t b = 0; b < bins; ++b) {
      const std::uint64_t first_key = std::uint64_t(lo) + (std::uint64_t(b) << shift);
      const std::uint64_t last_key = first_key + (std::uint64_t(1) << shift) - 1;
      if (h[b] <= m.window) {
        add(std::uint32_t(first_key), std::uint32_t(last_key), std::size_t(h[b]));
      } else if (shift == 0) {
        throw std::runtime_error(std::to_string(h[b]) + " splats in view have one draw key, more than the " +
                                 std::to_string(m.window) + " that a window of the GPU's memory holds");
      } else {
        const int finer = shift >= 12 ? shift - 12 : 0;
        level(std::uint32_t(first_key), finer, std::uint32_t(1) << (shift - finer));
      }
    }
  };
  level(0, 20, histogram_bins);
  close();
  return slabs;
}

}  // namespace

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// One view of the kept particles drawn: written into splats a window at a time (or a slab of the
// draw order at a time, where the order runs over windows) and drawn, the splats beyond the
// boundary drawn on a CPU thread meanwhile or tile by tile on the GPU.
class KeptDraw {
 public:
  KeptDraw(DeviceParticles::Memory& m, const DeviceView& view, const CudaOptions& requested, Image& image,
           CudaSession& session, const DrawBeyond& beyond, CudaReport& report)
      : m_(m),
        target_(requested, image, session, report),
        o_(target_.options()),
        compute_(target_.resources().compute),
        looks_(upload_looks(view, compute_)),
        whole_(whole_pass(m, view, looks_)),
        boundary_(o_.host.a_eq_e ? o_.boundary : -1),  // -1: none go to the host
        keyed_(!o_.host.a_eq_e),
        tiles_(tie_tiles(view, keyed_, image.width, image.height)),
        ties_(cuda_detail::tie_order(m.tie, image.width, image.height, tiles_.size)),
        windowed_(m.window < m.n),
        slabbed_(windowed_ && keyed_ && view.sort != SortOrder::none),
        beyond_(beyond),
        report_(report) {}

  void run(Image& image) {
    // The slabs of the draw order: one, of every key, unless the order runs over windows.
    std::vector<KeySlab> slabs = {KeySlab{false, 0, 0}};
    if (slabbed_) {
      const Clock::time_point counted = Clock::now();
      slabs = key_slabs(m_, whole_, compute_);
      report_.geometry_seconds += seconds_since(counted);
    }
    try {
      for (const KeySlab& slab : slabs) draw_slab(slab);
      if (scratch_for_ > 0) target_.renderer().finish(target_.image(), compute_);  // (none drawn: nothing owed)
      CUDA_CHECK(cudaStreamSynchronize(compute_));
      report_.gpu_seconds = seconds_since(start_);
    } catch (...) {
      if (host_work_.valid()) host_work_.wait();  // it writes into `image`: let it finish first
      throw;
    }
    if (host_work_.valid()) report_.host_seconds += host_work_.get();
    for (std::size_t e = 0; e + 1 < draw_events_.size(); e += 2)
      report_.kernel_seconds += draw_events_[e + 1].seconds_since(draw_events_[e]);
    // Nothing went up: the chunks are the windows, or the slabs of the draw order, drawn in turn.
    report_.chunks = windowed_ ? (slabbed_ ? slabs.size() : (m_.n + m_.window - 1) / m_.window) : 0;
    report_.window = windowed_ ? m_.window : 0;
    report_.device_mib = cuda_detail::device_memory().used_mib();
    target_.fetch(image);
  }

 private:
  void draw_slab(const KeySlab& slab) {
    std::size_t base = 0;  // the slab's splats so far
    for (std::size_t first = 0; first < m_.n; first += m_.window) {
      const auto [on_gpu, large] =
          write_window(m_, whole_, first, std::min(m_.window, m_.n - first), boundary_, slab, slabbed_ ? base : 0,
                       keyed_, tiles_, compute_, report_.geometry_seconds);
      report_.on_gpu += on_gpu;
      if (slabbed_)  // (keyed: no boundary, so none of a slab's splats are large)
        base += on_gpu;
      else  // each window drawn before the next is written
        draw_window(on_gpu, large);
    }
    if (slabbed_) draw(base);
  }

  // Large splats for the CPU threads go first, drawn while the GPU draws the rest; on the GPU they
  // follow the Btiles, whose scratch is allocated first.
  void draw_window(std::size_t on_gpu, std::size_t large) {
    const bool to_host = large > 0 && !o_.large_on_gpu;
    if (to_host) draw_beyond(on_gpu, large);
    draw(on_gpu);
    const bool on_device = large > 0 && !to_host && draw_large(on_gpu, large);
    if (large > 0 && !to_host && !on_device) draw_beyond(on_gpu, large);  // no GPU memory left for them
    (on_device ? report_.large_on_gpu : report_.on_host) += large;
    if (on_device) report_.on_gpu += large;
  }

  // The renderer's scratch for the most splats drawn at once, grown as needed (after the draws
  // queued with the scratch before are done).
  void draw(std::size_t splats) {
    if (splats == 0) return;
    if (cuda_detail::device_window(splats) > scratch_for_) {
      CUDA_CHECK(cudaStreamSynchronize(compute_));
      scratch_for_ = cuda_detail::device_window(windowed_ ? m_.window : splats);
      if (!target_.renderer().allocate(scratch_for_))
        throw std::runtime_error("the GPU has too little free memory left to draw " + std::to_string(splats) +
                                 " splats beside the particles kept on it");
    }
    CUDA_CHECK(cudaEventRecord(draw_events_.emplace_back(true), compute_));
    cuda_detail::draw_device_splats(m_.splats, splats, keyed_, m_.order, target_.renderer(), target_.image(), compute_,
                                    ties_, false);
    CUDA_CHECK(cudaEventRecord(draw_events_.emplace_back(true), compute_));
  }

  // The splats beyond the boundary come up (a few, as a rule: the widest) and are drawn on a
  // thread of their own while the GPU draws; one window's at a time, as they write into the image.
  void draw_beyond(std::size_t on_gpu, std::size_t on_host) {
    if (host_work_.valid()) report_.host_seconds += host_work_.get();
    if (on_host == 0) return;
    if (!beyond_)
      throw std::invalid_argument("render_particles_cuda: splats beyond the boundary and no one to draw them");
    host_fields_.resize(cuda_detail::float_fields * on_host);
    for (int f = 0; f < cuda_detail::float_fields; ++f)
      CUDA_CHECK(cudaMemcpyAsync(host_fields_.data() + f * on_host, m_.splats.field + f * m_.splats.stride + on_gpu,
                                 on_host * sizeof(float), cudaMemcpyDeviceToHost, compute_));
    CUDA_CHECK(cudaStreamSynchronize(compute_));
    host_work_ = std::async(std::launch::async, [this, on_host] {
      const Clock::time_point begun = Clock::now();
      SplatView v;
      v.n = on_host;
      const float* f = host_fields_.data();
      v.x = f;
      v.y = f + on_host;
      v.radius = f + 2 * on_host;
      for (int c = 0; c < 3; ++c) v.e[c] = f + (3 + c) * on_host;
      beyond_(v);
      return seconds_since(begun);
    });
  }

  // Or they stay on the GPU and are drawn tile by tile (CudaOptions::large_on_gpu), after the
  // window's other splats in the field arrays; false where the GPU has no memory left for that
  // (the host draws them then).
  bool draw_large(std::size_t on_gpu, std::size_t large) {
    if (!o_.large_on_gpu) return false;
    cuda_detail::ChunkRenderer& renderer = target_.large_renderer();
    const std::size_t window = cuda_detail::device_window(large);
    if (window > large_scratch_for_) {
      CUDA_CHECK(cudaStreamSynchronize(compute_));
      large_scratch_for_ = 0;  // (a failed allocation leaves the renderer none)
      if (!renderer.allocate(window)) return false;
      large_scratch_for_ = window;
    }
    const float* f = m_.splats.field + on_gpu;
    const std::size_t s = m_.splats.stride;
    CUDA_CHECK(cudaEventRecord(draw_events_.emplace_back(true), compute_));
    for (std::size_t at = 0; at < large; at += window) {
      const cuda_detail::Chunk c{f + at,         f + s + at,
                                 f + 2 * s + at, {f + 3 * s + at, f + 4 * s + at, f + 5 * s + at},
                                 nullptr,        std::uint32_t(std::min(window, large - at)),
                                 nullptr};
      renderer.draw(c, target_.image(), compute_);
    }
    CUDA_CHECK(cudaEventRecord(draw_events_.emplace_back(true), compute_));
    return true;
  }

  DeviceParticles::Memory& m_;
  cuda_detail::RenderTarget target_;
  const CudaOptions& o_;
  cudaStream_t compute_;
  const ViewLooks looks_;  // (upload() and refresh_values() return with the particles on the device)
  const ViewPass whole_;
  const int boundary_;
  const bool keyed_;
  const TieTiles tiles_;
  const cuda_detail::TieOrder ties_;
  const bool windowed_, slabbed_;
  const DrawBeyond& beyond_;
  CudaReport& report_;
  const Clock::time_point start_ = Clock::now();
  std::size_t scratch_for_ = 0, large_scratch_for_ = 0;
  std::deque<Event> draw_events_;  // started and ended, of every draw
  std::vector<float> host_fields_;
  std::future<double> host_work_;
};

}  // namespace

CudaReport render_particles_cuda(DeviceParticles& particles, const DeviceView& view, const CudaOptions& requested,
                                 Image& image, CudaSession& session, const DrawBeyond& beyond) {
  CudaReport report;
  report.geometry_on_gpu = true;
  DeviceParticles::Memory& m = particles.memory();
  if (m.n == 0 || image.width <= 0 || image.height <= 0) return report;
  if (view.projection.dome) throw std::invalid_argument("render_particles_cuda: the dome's projection is the host's");
  KeptDraw draw(m, view, requested, image, session, beyond, report);
  draw.run(image);
  return report;
}

namespace {

// Each type's run of particles, by type (of `types`), or none where they are not in type order
// (each type in one run, the types ascending, as the loader leaves them).
const std::vector<std::pair<std::size_t, std::size_t>>& type_runs(DeviceParticles::Memory& m, std::size_t types,
                                                                  cudaStream_t compute) {
  if (m.runs_found && m.runs_types == types) return m.type_runs;
  m.runs_found = true;
  m.runs_types = types;
  m.type_runs.assign(types, {0, 0});
  if (!m.type) {
    m.type_runs[0] = {0, m.n};
    return m.type_runs;
  }
  constexpr std::size_t codes = 256;
  DeviceBuffer<std::uint32_t> found;
  if (!found.try_allocate(codes + 1)) throw std::runtime_error("the GPU has no memory left to find the types' runs");
  CUDA_CHECK(cudaMemsetAsync(found.get(), 0xff, codes * sizeof(std::uint32_t), compute));
  CUDA_CHECK(cudaMemsetAsync(found.get() + codes, 0, sizeof(std::uint32_t), compute));
  if (m.n > 0) {
    type_runs_kernel<<<cuda_detail::blocks_for(m.n), cuda_detail::small_block, 0, compute>>>(
        std::uint32_t(m.n), m.type, found.get(), found.get() + codes);
    CUDA_CHECK_LAUNCH();
  }
  std::vector<std::uint32_t> first(codes + 1);
  CUDA_CHECK(cudaMemcpyAsync(first.data(), found.get(), first.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                             compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  if (first[codes] != 0) {
    m.type_runs.clear();
    return m.type_runs;
  }
  for (std::size_t t = 0; t < codes; ++t) {
    if (first[t] == UINT32_MAX) continue;
    if (t >= types) {
      m.type_runs.clear();  // a type without a look: the view would refuse it
      return m.type_runs;
    }
    std::size_t end = m.n;
    for (std::size_t u = t + 1; u < codes; ++u)
      if (first[u] != UINT32_MAX) {
        end = first[u];
        break;
      }
    m.type_runs[t] = {first[t], end - first[t]};
  }
  return m.type_runs;
}

}  // namespace

std::vector<std::uint64_t> count_draw_keys(DeviceParticles& particles, const DeviceView& view, std::uint32_t lo,
                                           int shift, std::uint32_t bins) {
  if (bins == 0 || bins > std::uint32_t(histogram_bins) || shift < 0 || shift > 31)
    throw std::invalid_argument("count_draw_keys: bins from 1 to 4096, a shift from 0 to 31");
  DeviceParticles::Memory& m = particles.memory();
  CUDA_CHECK(cudaSetDevice(m.session.device()));
  cudaStream_t compute = m.session.resources().compute;
  const ViewLooks looks = upload_looks(view, compute);
  const ViewPass whole = whole_pass(m, view, looks);
  DeviceBuffer<unsigned long long> counts;
  if (!counts.try_allocate(bins)) throw std::runtime_error("the GPU has no memory left to count the draw keys");
  const std::vector<unsigned long long> h = count_keys(m, whole, counts.get(), lo, shift, bins, compute);
  return std::vector<std::uint64_t>(h.begin(), h.end());
}

std::uint64_t split_process_id() {
  static const std::uint64_t id = (std::uint64_t(getpid()) << 32) ^ std::random_device{}();
  return id;
}

namespace {

// Where the whole allocation of splats in view lies, for the other processes.
SplitMemory whole_allocation(const DeviceParticles::Memory& m) {
  SplitMemory w;
  cudaIpcMemHandle_t handle;
  const cudaError_t e = cudaIpcGetMemHandle(&handle, m.shared.get());
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::runtime_error(
        std::string("the GPU's memory cannot be shared with the node's other processes (CUDA IPC: ") +
        cudaGetErrorString(e) + ")");
  }
  static_assert(sizeof(handle) <= sizeof(w.handle), "a CUDA IPC handle of more than 64 bytes");
  std::memcpy(w.handle, &handle, sizeof(handle));
  const unsigned char* shared = m.shared.get();
  w.base = std::uint64_t(reinterpret_cast<std::uintptr_t>(shared));
  w.field_offset = std::uint64_t(reinterpret_cast<const unsigned char*>(m.splats.field) - shared);
  w.tie_offset = std::uint64_t(reinterpret_cast<const unsigned char*>(m.tie) - shared);
  w.stride = m.splats.stride;
  return w;
}

// Splats [first, first + count) of the whole allocation copied into `to`: the fields, then the
// tiles; where they lie there (none where `to` cannot be shared).
std::optional<SplitMemory> copy_range(const DeviceParticles::Memory& m, std::size_t first, std::size_t count,
                                      DeviceBuffer<unsigned char>& to, cudaStream_t stream) {
  const std::size_t bytes = count * 4;
  for (int f = 0; f < cuda_detail::fields; ++f)
    CUDA_CHECK(cudaMemcpyAsync(to.get() + f * bytes, m.splats.field + f * m.splats.stride + first, bytes,
                               cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(
      cudaMemcpyAsync(to.get() + cuda_detail::fields * bytes, m.tie + first, bytes, cudaMemcpyDeviceToDevice, stream));
  SplitMemory r;
  cudaIpcMemHandle_t handle;
  if (cudaIpcGetMemHandle(&handle, to.get()) != cudaSuccess) {
    (void)cudaGetLastError();
    return std::nullopt;  // (the whole allocation's handle was given: that range is read there)
  }
  std::memcpy(r.handle, &handle, sizeof(handle));
  r.base = std::uint64_t(reinterpret_cast<std::uintptr_t>(to.get()));
  r.field_offset = 0;
  r.tie_offset = cuda_detail::fields * bytes;
  r.stride = count;
  return r;
}

}  // namespace

SplitShare write_split(DeviceParticles& particles, const DeviceView& view, int width, int height,
                       const std::vector<std::uint32_t>& splitters) {
  DeviceParticles::Memory& m = particles.memory();
  CUDA_CHECK(cudaSetDevice(m.session.device()));
  m.range_copies.clear();
  if (m.window < m.n)
    throw std::runtime_error("the GPU holds a view's working memory for a window of the particles only (" +
                             std::to_string(m.window) + " of " + std::to_string(m.n) + ")");
  if (view.sort == SortOrder::none) throw std::runtime_error("sort_type 0 is split by position, on the host");
  cudaStream_t compute = m.session.resources().compute;
  const std::size_t types = std::max<std::size_t>(1, view.types.size()), destinations = splitters.size() + 1;
  const std::vector<std::pair<std::size_t, std::size_t>>& runs = type_runs(m, types, compute);
  if (runs.empty()) throw std::runtime_error("the particles on the GPU are not in type order");
  const ViewLooks looks = upload_looks(view, compute);
  const ViewPass whole = whole_pass(m, view, looks);
  const TieTiles tiles = tie_tiles(view, true, width, height);
  SplitShare share;
  share.process = split_process_id();
  share.memory.assign(destinations, whole_allocation(m));
  share.start.assign(destinations * types, 0);
  share.count.assign(destinations * types, 0);
  std::size_t base = 0;
  double seconds = 0;
  for (std::size_t d = 0; d < destinations; ++d) {
    // Process d draws the keys from splitter d - 1 up to (not including) splitter d.
    const std::uint32_t lo = d == 0 ? 0 : splitters[d - 1];
    const bool last = d + 1 == destinations;
    const bool empty = !last && splitters[d] <= lo;
    const KeySlab slab{true, lo, last ? UINT32_MAX : (empty ? lo : splitters[d] - 1)};
    for (std::size_t t = 0; t < types; ++t) {
      share.start[d * types + t] = base;
      if (empty || runs[t].second == 0) continue;
      const Written w =
          write_window(m, whole, runs[t].first, runs[t].second, -1, slab, base, true, tiles, compute, seconds);
      share.count[d * types + t] = w.on_gpu;
      base += w.on_gpu;
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(compute));
  return share;
}

std::size_t split_gather_bytes(std::size_t splats, int width, int height) {
  return cuda_detail::gathered_bytes(splats, std::size_t(width) * std::size_t(height));
}

void copy_split_ranges(DeviceParticles& particles, SplitShare& share, std::size_t me, std::size_t keep_free) {
  DeviceParticles::Memory& m = particles.memory();
  CUDA_CHECK(cudaSetDevice(m.session.device()));
  cudaStream_t compute = m.session.resources().compute;
  const std::size_t destinations = share.memory.size(),
                    types = share.count.size() / std::max<std::size_t>(1, destinations);
  for (std::size_t d = 0; d < destinations; ++d) {
    std::size_t count = 0;
    for (std::size_t t = 0; t < types; ++t) count += share.count[d * types + t];
    if (d == me || count == 0) continue;
    const std::size_t first = share.start[d * types], bytes = (cuda_detail::fields + 1) * 4 * count;
    DeviceBuffer<unsigned char> copy;
    if (cuda_detail::device_memory().free < bytes + keep_free || !copy.try_allocate(bytes))
      continue;  // read from the whole allocation
    const std::optional<SplitMemory> where = copy_range(m, first, count, copy, compute);
    if (!where) continue;
    share.memory[d] = *where;
    for (std::size_t t = 0; t < types; ++t) share.start[d * types + t] -= first;
    m.range_copies.push_back(std::move(copy));
  }
  CUDA_CHECK(cudaStreamSynchronize(compute));  // the copies done before another process reads them
}

void end_split(DeviceParticles& particles) {
  DeviceParticles::Memory& m = particles.memory();
  CUDA_CHECK(cudaSetDevice(m.session.device()));
  m.range_copies.clear();
}

}  // namespace splotch
