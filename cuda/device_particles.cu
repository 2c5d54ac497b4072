// The particles kept on the device and a view drawn from them (device_particles.h).
//
// A view takes two passes over the particles, both projecting (which costs less than the memory
// a stored projection would take and its traffic): the first marks each particle in view for the
// GPU, or for the host when its footprint is beyond the Btile boundary; exclusive sums of the
// marks give each its place; the second writes the splats in view, coloured and keyed, the GPU's
// first and the host's after them, in the particles' order. The splats then lie on the device as
// draw_device_splats() (device_render.cuh) takes them.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cub_calls.cuh"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/device_particles.h"
#include "cuda/device_render.cuh"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"

namespace splotch {

using cuda_detail::DeviceBuffer;
using cuda_detail::DeviceLayout;
using cuda_detail::Event;

// The particles' fields and a view's working memory, one allocation.
struct DeviceParticles::Memory {
  explicit Memory(CudaSession& s) : session(s) {}
  CudaSession& session;
  std::size_t n = 0;
  bool typed = false, vector_colour = false;
  double box_size = 0;
  DeviceBuffer<unsigned char> arena;
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

  template <class Layout>
  void lay_out(Layout& l) {
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
    splats = {l.template take<float>(cuda_detail::fields * n), n};
    gpu_place = l.template take<std::uint32_t>(n + 1);
    host_place = l.template take<std::uint32_t>(n + 1);
    tie = l.template take<std::uint32_t>(n);
    scan = cuda_detail::take_cub_scratch(l, cuda_detail::exclusive_sum_bytes<std::uint32_t>(n + 1));
    order = cuda_detail::lay_out_order(l, n);
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

// Marks: 1 in the GPU's place array for a splat in view it draws, 1 in the host's for one beyond
// the boundary (a_eq_e); place[n] = 0, so that the sums end with the counts.
__global__ void mark_kernel(std::uint32_t n, ParticleFields p, ProjectionConstants k, const TypeLook* looks, Wrap wrap,
                            int beyond, std::uint32_t* __restrict__ gpu_place, std::uint32_t* __restrict__ host_place) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (i == n) {
    gpu_place[n] = host_place[n] = 0;
    return;
  }
  const ProjectedParticle s = project_one(i, p, k, looks, wrap);
  const bool host = s.keep && beyond >= 0 && beyond_boundary(s.r, beyond);
  gpu_place[i] = s.keep && !host ? 1u : 0u;
  host_place[i] = host ? 1u : 0u;
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

// Writes each splat in view at its place: x, y, radius, the emission (the colour stage's
// e = colour * I * brightness) and with `keyed` the draw key.
__global__ void write_kernel(std::uint32_t n, ParticleFields p, ProjectionConstants k, const TypeLook* looks,
                             const float3* palettes, Wrap wrap, const std::uint32_t* __restrict__ gpu_place,
                             const std::uint32_t* __restrict__ host_place, float* __restrict__ out, std::size_t stride,
                             bool keyed, SortOrder sort, TieTiles tiles, std::uint32_t* __restrict__ tie, bool fused) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool gpu = gpu_place[i + 1] != gpu_place[i], host = host_place[i + 1] != host_place[i];
  if (!gpu && !host) return;
  const ProjectedParticle s = project_one(i, p, k, looks, wrap);
  const TypeLook& look = looks[p.type ? p.type[i] : 0];
  const float scale = s.intensity * look.brightness;
  float e[3];
  if (look.vector_colour) {
    for (int c = 0; c < 3; ++c) e[c] = p.colour[c][i] * scale;
  } else {
    const float3 rgb = palette_at(palettes, look, p.colour[0][i], fused);
    e[0] = rgb.x * scale;
    e[1] = rgb.y * scale;
    e[2] = rgb.z * scale;
  }
  const std::size_t at = gpu ? gpu_place[i] : gpu_place[n] + host_place[i];
  out[at] = s.X;
  out[stride + at] = s.Y;
  out[2 * stride + at] = s.r;
  for (int c = 0; c < 3; ++c) out[(3 + c) * stride + at] = e[c];
  if (keyed) {
    reinterpret_cast<std::uint32_t*>(out + cuda_detail::float_fields * stride)[at] =
        sort == SortOrder::none ? gpu_place[i] : draw_key(sort, s.zp, e[0], s.r);
    if (tiles.size > 0) tie[at] = centre_tile(s.X, s.Y, tiles);
  }
}

}  // namespace

DeviceParticles::DeviceParticles(std::unique_ptr<Memory> memory) : memory_(std::move(memory)) {}
DeviceParticles::~DeviceParticles() = default;
std::size_t DeviceParticles::size() const { return memory_->n; }
double DeviceParticles::device_mib() const { return double(memory_->bytes) / (1024.0 * 1024.0); }

std::unique_ptr<DeviceParticles> DeviceParticles::upload(const ParticleSet& p, CudaSession& session, std::string* why) {
  CUDA_CHECK(cudaSetDevice(session.device()));
  check_fields(p);
  if (p.size() > (std::size_t(1) << 30)) {  // (CUB's counts are ints)
    if (why) *why = "more than 2^30 particles";
    return nullptr;
  }
  auto m = std::make_unique<Memory>(session);
  m->n = p.size();
  m->typed = !p.type.empty();
  m->vector_colour = !p.colour[1].empty();
  m->box_size = p.box_size;
  DeviceLayout measure;
  m->lay_out(measure);
  m->bytes = measure.bytes();
  const std::size_t free = cuda_detail::device_memory().free;
  if (m->bytes > free / cuda_detail::resident_memory_share ||
      !m->arena.try_allocate(std::max<std::size_t>(m->bytes, 1))) {
    if (why)
      *why = std::to_string(m->bytes >> 20) + " MiB of GPU memory wanted, more than half the " +
             std::to_string(free >> 20) + " MiB free";
    return nullptr;
  }
  DeviceLayout carve(m->arena.get());
  m->lay_out(carve);
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

CudaReport render_particles_cuda(DeviceParticles& particles, const DeviceView& view, const CudaOptions& requested,
                                 Image& image, CudaSession& session, const DrawBeyond& beyond) {
  CudaReport report;
  report.geometry_on_gpu = true;
  DeviceParticles::Memory& m = particles.memory();
  if (m.n == 0 || image.width <= 0 || image.height <= 0) return report;
  if (view.projection.dome) throw std::invalid_argument("render_particles_cuda: the dome's projection is the host's");
  cuda_detail::RenderTarget target(requested, image, session, report);
  const CudaOptions& o = target.options();
  cudaStream_t compute = target.resources().compute;

  // The looks: every type's palette laid end to end.
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
  DeviceBuffer<TypeLook> device_looks;
  DeviceBuffer<float3> device_entries;
  if (!device_looks.try_allocate(looks.size()) || !device_entries.try_allocate(entries.size()))
    throw std::runtime_error("the GPU has no memory left for the palettes");
  CUDA_CHECK(cudaMemcpyAsync(device_looks.get(), looks.data(), looks.size() * sizeof(TypeLook), cudaMemcpyHostToDevice,
                             compute));
  CUDA_CHECK(cudaMemcpyAsync(device_entries.get(), entries.data(), entries.size() * sizeof(float3),
                             cudaMemcpyHostToDevice, compute));
  // (upload() and refresh_values() return with the particles on the device.)

  const ParticleFields fields{m.x, m.y, m.z, m.hsml, m.intensity, {m.colour[0], m.colour[1], m.colour[2]}, m.type};
  const Wrap wrap{
      view.wrap && m.box_size > 0, {view.wrap_centre[0], view.wrap_centre[1], view.wrap_centre[2]}, m.box_size};
  Event timing[4] = {Event(true), Event(true), Event(true), Event(true)};
  CUDA_CHECK(cudaEventRecord(timing[0], compute));
  const std::uint32_t n = std::uint32_t(m.n);
  const int boundary = o.host.a_eq_e ? o.boundary : -1;  // -1: none go to the host
  mark_kernel<<<cuda_detail::blocks_for(m.n + 1), cuda_detail::small_block, 0, compute>>>(
      n, fields, view.projection, device_looks.get(), wrap, boundary, m.gpu_place, m.host_place);
  CUDA_CHECK_LAUNCH();
  cuda_detail::exclusive_sum(m.scan, m.gpu_place, m.gpu_place, n + 1, compute);  // in place, as CUB allows
  cuda_detail::exclusive_sum(m.scan, m.host_place, m.host_place, n + 1, compute);
  const bool keyed = !o.host.a_eq_e;
  // Equal keys by tile only where there can be equal keys (sort_type 0's are the places).
  TieTiles tiles{keyed && view.sort != SortOrder::none ? std::max(0, view.tie_tile_size) : 0, 1, 1, image.width,
                 image.height};
  if (tiles.size > 0) {
    tiles.nx = (image.width + tiles.size - 1) / tiles.size;
    tiles.ny = (image.height + tiles.size - 1) / tiles.size;
  }
  write_kernel<<<cuda_detail::blocks_for(m.n), cuda_detail::small_block, 0, compute>>>(
      n, fields, view.projection, device_looks.get(), device_entries.get(), wrap, m.gpu_place, m.host_place,
      m.splats.field, m.splats.stride, keyed, view.sort, tiles, m.tie, view.fused_palette);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(timing[1], compute));
  std::uint32_t counts[2];
  CUDA_CHECK(cudaMemcpyAsync(&counts[0], m.gpu_place + n, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaMemcpyAsync(&counts[1], m.host_place + n, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  const std::size_t on_gpu = counts[0], on_host = counts[1];
  report.on_gpu = on_gpu;
  report.on_host = on_host;
  report.geometry_seconds = timing[1].seconds_since(timing[0]);

  // The host's splats come up (a few, as a rule: the widest) and are drawn while the GPU draws.
  std::vector<float> host_fields(cuda_detail::float_fields * on_host);
  for (int f = 0; f < cuda_detail::float_fields && on_host > 0; ++f)
    CUDA_CHECK(cudaMemcpyAsync(host_fields.data() + f * on_host, m.splats.field + f * m.splats.stride + on_gpu,
                               on_host * sizeof(float), cudaMemcpyDeviceToHost, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  std::future<double> host_work;
  if (on_host > 0) {
    if (!beyond)
      throw std::invalid_argument("render_particles_cuda: splats beyond the boundary and no one to draw them");
    host_work = std::async(std::launch::async, [&] {
      SplatView v;
      v.n = on_host;
      const float* f = host_fields.data();
      v.x = f;
      v.y = f + on_host;
      v.radius = f + 2 * on_host;
      for (int c = 0; c < 3; ++c) v.e[c] = f + (3 + c) * on_host;
      beyond(v);
      return seconds_since(start);
    });
  }
  try {
    if (!target.renderer().allocate(cuda_detail::device_window(on_gpu)))
      throw std::runtime_error("the GPU has too little free memory left to draw " + std::to_string(on_gpu) +
                               " splats beside the particles kept on it");
    CUDA_CHECK(cudaEventRecord(timing[2], compute));
    cuda_detail::TieOrder ties;
    if (tiles.size > 0) {
      ties.tie = m.tie;
      while ((std::uint64_t(1) << ties.tie_bits) < std::uint64_t(tiles.nx) * std::uint64_t(tiles.ny)) ++ties.tie_bits;
    }
    cuda_detail::draw_device_splats(m.splats, on_gpu, keyed, m.order, target.renderer(), target.image(), compute, ties);
    CUDA_CHECK(cudaEventRecord(timing[3], compute));
    CUDA_CHECK(cudaStreamSynchronize(compute));
    report.gpu_seconds = seconds_since(start);
  } catch (...) {
    if (host_work.valid()) host_work.wait();  // it writes into `image`: let it finish first
    throw;
  }
  if (host_work.valid()) report.host_seconds = host_work.get();
  report.kernel_seconds = timing[3].seconds_since(timing[2]);
  report.chunks = 0;  // nothing went up
  report.device_mib = cuda_detail::device_memory().used_mib();
  target.fetch(image);
  return report;
}

}  // namespace splotch
