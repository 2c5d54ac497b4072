// The GPU renderer's driver (cuda_renderer.h): the chunks to the device, the algorithm drawing
// each chunk (chunk_renderer.h), the caller's work alongside, and the image back.
//
// Chunks go through two slots (pinned staging buffer, device buffers): while the kernels of one
// slot's chunk run on the compute stream, the next chunk is copied into the other slot on the
// copy stream. The image comes back through the same staging buffers. The streams and the
// staging buffers are the session's; every copy and memset goes on the stream whose work uses it.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/chunk_renderer.h"
#include "cuda/cub_calls.cuh"
#include "cuda/cuda_check.h"
#include "cuda/cuda_renderer.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/device_render.cuh"
#include "cuda/kernel_config.h"
#include "cuda/splat_items.cuh"
#include "splotch/splat/draw_order_chunks.h"
#include "splotch/splat/splat_view.h"

namespace splotch {
namespace {
using cuda_detail::ChunkRenderer;
using cuda_detail::DeviceArena;
using cuda_detail::DeviceBuffer;
using cuda_detail::DeviceLayout;
using cuda_detail::Event;
using cuda_detail::fields;
using cuda_detail::float_fields;
using cuda_detail::PinnedBuffer;
using cuda_detail::RenderGrid;
using cuda_detail::Stream;

// The device buffers of one chunk in flight (fields x chunk), and when it was uploaded and drawn.
struct Slot {
  float* field = nullptr;
  Event uploaded, rendered;
  cuda_detail::Chunk chunk(std::size_t capacity, std::size_t count, bool keyed) const {
    const float* f = field;
    return {f,
            f + capacity,
            f + 2 * capacity,
            {f + 3 * capacity, f + 4 * capacity, f + 5 * capacity},
            keyed ? reinterpret_cast<const std::uint32_t*>(f + 6 * capacity) : nullptr,
            std::uint32_t(count),
            nullptr};
  }
};

// The two slots' device buffers for chunks of `chunk` splats.
struct SlotFields {
  float* field[2];
};
SlotFields lay_out_slots(DeviceLayout& l, std::size_t chunk) {
  return {{l.take<float>(fields * chunk), l.take<float>(fields * chunk)}};
}
// Device bytes of the slots and the algorithm's scratch for chunks of `chunk` splats.
std::size_t streaming_bytes(const ChunkRenderer& renderer, std::size_t chunk) {
  return cuda_detail::bytes_of([&](DeviceLayout& l) { return lay_out_slots(l, chunk); }) + renderer.bytes_for(chunk);
}

// The default chunk (kernel_config.h): default_chunk_particles, halved until the slots and the
// algorithm's scratch fit in a share of the free device memory. What the scratch takes whatever the
// chunk (the Btile's sums of the image) is not counted: a smaller chunk would not shrink it.
std::size_t default_chunk(std::size_t n, const ChunkRenderer& renderer) {
  const std::size_t budget = cuda_detail::device_memory().free / cuda_detail::chunk_memory_share;
  const std::size_t fixed = renderer.bytes_for(0);
  std::size_t chunk = std::min(n, cuda_detail::default_chunk_particles);
  while (chunk > cuda_detail::smallest_chunk && streaming_bytes(renderer, chunk) - fixed > budget) chunk /= 2;
  return std::max<std::size_t>(chunk, 1);
}

// The view's arrays in the order of a chunk's fields.
std::array<const float*, float_fields> fields_of(const SplatView& s) {
  return {s.x, s.y, s.radius, s.e[0], s.e[1], s.e[2]};
}

// Copies chunk c of the plan into a staging buffer laid out as a slot (fields x capacity).
void stage(const SplatView& s, const DrawOrderChunks& plan, std::size_t c, std::size_t capacity, float* staging) {
  const auto in = fields_of(s);
  const std::size_t begin = plan.start[c], count = plan.start[c + 1] - begin;
  std::uint32_t* key = reinterpret_cast<std::uint32_t*>(staging + float_fields * capacity);
  // A few threads: one alone copies at a fraction of the memory bandwidth.
  constexpr int threads = cuda_detail::staging_threads;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int part = 0; part < threads; ++part) {
    const std::size_t lo = count * std::size_t(part) / threads, hi = count * std::size_t(part + 1) / threads;
    if (plan.order.empty()) {
      for (int f = 0; f < float_fields; ++f)
        std::memcpy(staging + f * capacity + lo, in[std::size_t(f)] + begin + lo, (hi - lo) * sizeof(float));
      if (s.key) std::memcpy(key + lo, s.key + begin + lo, (hi - lo) * sizeof(std::uint32_t));
    } else {
      const std::uint32_t* which = plan.order.data() + begin;
      for (int f = 0; f < float_fields; ++f) {
        float* out = staging + f * capacity;
        const float* from = in[std::size_t(f)];
        for (std::size_t k = lo; k < hi; ++k) out[k] = from[which[k]];
      }
      for (std::size_t k = lo; k < hi; ++k) key[k] = s.key[which[k]];
    }
  }
}

// When a chunk's upload and kernels started and ended.
struct ChunkTiming {
  Event upload_start{true}, upload_end{true}, draw_start{true}, draw_end{true};
};

// Draws the GPU's splats into the device image chunk by chunk; fills the report's chunks and
// GPU times.
void render_on_device(const SplatView& s, const CudaOptions& o, ChunkRenderer& renderer, CudaSession::Resources& host,
                      float* image, CudaReport& report) {
  const bool keyed = !o.host.a_eq_e && s.key;
  // (CUB sorts take int counts.)
  std::size_t chunk = std::min(o.chunk_particles > 0 ? std::min(o.chunk_particles, s.n) : default_chunk(s.n, renderer),
                               std::size_t(1) << 30);
  DeviceArena<SlotFields> slot_memory;
  // Out of memory: free the slots, halve the chunk and try again (down to a size not worth
  // streaming).
  for (;;) {
    if (slot_memory.allocate([&](DeviceLayout& l) { return lay_out_slots(l, chunk); }) && renderer.allocate(chunk))
      break;
    if (chunk <= cuda_detail::smallest_chunk)
      throw std::runtime_error("the GPU has too little free memory even for chunks of " + std::to_string(chunk) +
                               " particles");
    chunk /= 2;
  }
  host.reserve_staging(chunk);
  const DrawOrderChunks plan = chunks_in_draw_order(keyed ? s.key : nullptr, s.n, chunk);

  Stream &compute = host.compute, &copy = host.copy;
  Slot slots[2];
  for (int k = 0; k < 2; ++k) slots[k].field = slot_memory->field[k];
  std::vector<ChunkTiming> timing(plan.chunks());
  for (std::size_t k = 0; k < plan.chunks(); ++k) {
    Slot& slot = slots[k % 2];
    float* staging = host.staging[k % 2].get();
    const std::size_t count = plan.start[k + 1] - plan.start[k];
    // The staging buffer is free once the upload of the chunk before last has finished.
    CUDA_CHECK(cudaEventSynchronize(slot.uploaded));
    stage(s, plan, k, chunk, staging);
    // The device buffers are free once that chunk's kernels have finished.
    CUDA_CHECK(cudaStreamWaitEvent(copy, slot.rendered, 0));
    CUDA_CHECK(cudaEventRecord(timing[k].upload_start, copy));
    for (int f = 0; f < (keyed ? fields : float_fields); ++f)
      CUDA_CHECK(cudaMemcpyAsync(slot.field + f * chunk, staging + f * chunk, count * sizeof(float),
                                 cudaMemcpyHostToDevice, copy));
    CUDA_CHECK(cudaEventRecord(slot.uploaded, copy));
    CUDA_CHECK(cudaEventRecord(timing[k].upload_end, copy));
    CUDA_CHECK(cudaStreamWaitEvent(compute, slot.uploaded, 0));
    CUDA_CHECK(cudaEventRecord(timing[k].draw_start, compute));
    renderer.draw(slot.chunk(chunk, count, keyed), image, compute);
    if (k + 1 == plan.chunks()) renderer.finish(image, compute);
    CUDA_CHECK(cudaEventRecord(timing[k].draw_end, compute));
    CUDA_CHECK(cudaEventRecord(slot.rendered, compute));
  }
  CUDA_CHECK(cudaStreamSynchronize(compute));
  // The uploads' end events are on the copy stream, which the compute stream waited on only up to
  // each chunk's `uploaded`: the last may still be pending.
  CUDA_CHECK(cudaStreamSynchronize(copy));
  report.chunks = plan.chunks();
  for (const ChunkTiming& t : timing) {
    report.upload_seconds += t.upload_end.seconds_since(t.upload_start);
    report.kernel_seconds += t.draw_end.seconds_since(t.draw_start);
  }
  report.device_mib = cuda_detail::device_memory().used_mib();  // everything still allocated: the most in use
}

// a_eq_e = FALSE with every splat on the device at once, when they fit in half the free memory
// (and no chunk size is given): the splats stream up in file order, as fast as the bus allows,
// a radix sort on the device puts them in draw order, and the algorithm draws windows of that
// order. Chunks in draw order would need the host to gather every field of every splat at
// random (seconds for 1e8 splats), this needs a sort of a tenth of a second. Returns false,
// having done nothing, when the splats do not fit.
// Every splat on the device (fields x n) and the scratch of their ordering.
struct ResidentSplats {
  float* field;
  cuda_detail::OrderScratch order;
};
ResidentSplats lay_out_resident(DeviceLayout& l, std::size_t n) {
  ResidentSplats r{};
  r.field = l.take<float>(fields * n);
  r.order = cuda_detail::lay_out_order(l, n);
  return r;
}

bool render_resident(const SplatView& s, const CudaOptions& o, ChunkRenderer& renderer, CudaSession::Resources& host,
                     float* image, CudaReport& report) {
  if (o.host.a_eq_e || !s.key || o.chunk_particles > 0 || s.n > (std::size_t(1) << 30)) return false;
  const std::size_t window = cuda_detail::device_window(s.n);
  const auto lay_out = [&](DeviceLayout& l) { return lay_out_resident(l, s.n); };
  if (cuda_detail::bytes_of(lay_out) + renderer.bytes_for(window) >
      cuda_detail::device_memory().free / cuda_detail::resident_memory_share)
    return false;
  DeviceArena<ResidentSplats> resident;
  if (!resident.allocate(lay_out) || !renderer.allocate(window)) return false;
  const ResidentSplats& r = *resident;

  host.reserve_staging(std::min(s.n, cuda_detail::default_chunk_particles));
  Stream &compute = host.compute, &copy = host.copy;
  Event timing[4] = {Event(true), Event(true), Event(true), Event(true)};
  Event uploaded[2];
  const std::size_t piece = host.staging_chunk;
  const DrawOrderChunks pieces = chunks_in_draw_order(nullptr, s.n, piece);  // file order
  CUDA_CHECK(cudaEventRecord(timing[0], copy));
  for (std::size_t k = 0; k < pieces.chunks(); ++k) {
    float* staging = host.staging[k % 2].get();
    const std::size_t begin = pieces.start[k], count = pieces.start[k + 1] - begin;
    CUDA_CHECK(cudaEventSynchronize(uploaded[k % 2]));  // the buffer's previous piece is on the device
    stage(s, pieces, k, piece, staging);
    for (int f = 0; f < fields; ++f)
      CUDA_CHECK(cudaMemcpyAsync(r.field + f * s.n + begin, staging + f * piece, count * sizeof(float),
                                 cudaMemcpyHostToDevice, copy));
    CUDA_CHECK(cudaEventRecord(uploaded[k % 2], copy));
  }
  CUDA_CHECK(cudaEventRecord(timing[1], copy));
  CUDA_CHECK(cudaStreamWaitEvent(compute, timing[1], 0));
  CUDA_CHECK(cudaEventRecord(timing[2], compute));
  cuda_detail::draw_device_splats({r.field, s.n}, s.n, true, r.order, renderer, image, compute);
  CUDA_CHECK(cudaEventRecord(timing[3], compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));
  report.chunks = pieces.chunks();
  report.upload_seconds = timing[1].seconds_since(timing[0]);
  report.kernel_seconds = timing[3].seconds_since(timing[2]);
  report.device_mib = cuda_detail::device_memory().used_mib();
  return true;
}

}  // namespace

namespace cuda_detail {

// Moves `floats` floats between the device image and `out` through the two staging buffers in
// turn, each piece handled while the next one is copied: added to `out` (add = true) or copied.
void fetch_device_image(const float* device, std::size_t floats, CudaSession::Resources& b, float* out, bool add) {
  const std::size_t piece = fields * b.staging_chunk;
  cudaStream_t stream = b.copy;
  Event copied[2];
  auto fetch = [&](std::size_t k) {
    const std::size_t at = k * piece, n = std::min(piece, floats - at);
    CUDA_CHECK(cudaMemcpyAsync(b.staging[k % 2].get(), device + at, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaEventRecord(copied[k % 2], stream));
  };
  fetch(0);
  for (std::size_t k = 0; k * piece < floats; ++k) {
    if ((k + 1) * piece < floats) fetch(k + 1);  // into the buffer whose piece was handled last time
    CUDA_CHECK(cudaEventSynchronize(copied[k % 2]));
    const std::size_t at = k * piece, n = std::min(piece, floats - at);
    const float* from = b.staging[k % 2].get();
    float* to = out + at;
    if (add) {
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < n; ++i) to[i] += from[i];
    } else {  // on all threads: `out` may be untouched memory, each page's first touch a fault
      const int threads = n < (std::size_t(1) << 20) ? 1 : omp_get_max_threads();
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int t = 0; t < threads; ++t) {
        const std::size_t lo = n * std::size_t(t) / std::size_t(threads),
                          hi = n * std::size_t(t + 1) / std::size_t(threads);
        std::memcpy(to + lo, from + lo, (hi - lo) * sizeof(float));
      }
    }
  }
}

RenderGrid grid_for(const CudaOptions& o, int width, int height) {
  RenderGrid g;
  g.xres = width;
  g.yres = height;
  g.tile_x = o.tile_x;
  g.tile_y = o.tile_y;
  g.boundary = o.boundary;
  g.nx = (width + o.tile_x - 1) / o.tile_x;
  g.ny = (height + o.tile_y - 1) / o.tile_y;
  g.tiles = std::uint32_t(g.nx) * std::uint32_t(g.ny);
  g.gray = o.host.gray_absorption;
  g.big_on_host = o.host.a_eq_e;
  return g;
}

}  // namespace cuda_detail

namespace {

// The options, with the Btile boundary narrowed until the Btile fits this GPU's shared memory
// when they allow it (and the report saying so).
CudaOptions fitted_to_device(const CudaOptions& requested, CudaReport& report) {
  CudaOptions o = requested;
  if (o.algorithm != CudaAlgorithm::btile || !o.host.a_eq_e || !o.narrow_to_fit) return o;  // no Btile
  const int b = widest_boundary_fitting(o.tile_x, o.tile_y, o.boundary, cuda_detail::btile_bytes_available());
  if (b >= 0 && b < o.boundary) report.boundary = o.boundary = b;
  return o;  // b < 0: even no boundary is too much; the renderer's check says so
}

std::unique_ptr<ChunkRenderer> make_renderer(const CudaOptions& o, const RenderGrid& g) {
  if (o.algorithm == CudaAlgorithm::fragment)
    return cuda_detail::make_fragment_renderer(g, o.host.a_eq_e, o.pass_items);
  if (o.host.a_eq_e) return cuda_detail::make_btile_renderer(g);
  return cuda_detail::make_tile_composite_renderer(g, o.pass_items);
}

}  // namespace

namespace cuda_detail {

namespace {
// The session's device made the thread's current (fitting asks the current device) first.
CudaOptions fitted_to_session(const CudaOptions& requested, const Image& image, CudaSession& session,
                              CudaReport& report) {
  if (requested.tile_x < 1 || requested.tile_y < 1 || requested.boundary < 0)
    throw std::invalid_argument("a GPU render: tile sides must be positive and the boundary not negative");
  if (std::size_t(image.width) * std::size_t(image.height) >= std::size_t(UINT32_MAX))
    throw std::invalid_argument("a GPU render: an image of 2^32 pixels or more");
  CUDA_CHECK(cudaSetDevice(session.device()));
  return fitted_to_device(requested, report);
}
}  // namespace

RenderTarget::RenderTarget(const CudaOptions& requested, const Image& image, CudaSession& session, CudaReport& report)
    : options_(fitted_to_session(requested, image, session, report)), resources_(session.resources()) {
  grid_ = grid_for(options_, image.width, image.height);
  renderer_ = make_renderer(options_, grid_);  // checks what it can first
  floats_ = std::size_t(image.width) * std::size_t(image.height) * 3;
  if (!image_.try_allocate(floats_))
    throw std::runtime_error("the GPU has too little free memory for a " + std::to_string(image.width) + " x " +
                             std::to_string(image.height) + " image");
  // Added to the image at the end (a_eq_e), or composited over it. On the compute stream, ahead
  // of the kernels drawing into it (the streams are non-blocking: work on the legacy default
  // stream, where plain cudaMemset and cudaMemcpy go, would not be ordered with them). A copy
  // from pageable memory returns once the image has been read.
  if (options_.host.a_eq_e)
    CUDA_CHECK(cudaMemsetAsync(image_.get(), 0, floats_ * sizeof(float), resources_.compute));
  else
    CUDA_CHECK(cudaMemcpyAsync(image_.get(), image.rgb.data(), floats_ * sizeof(float), cudaMemcpyHostToDevice,
                               resources_.compute));
}

ChunkRenderer& RenderTarget::large_renderer() {
  if (!large_renderer_) large_renderer_ = make_tile_sum_renderer(grid_, options_.pass_items);
  return *large_renderer_;
}

void RenderTarget::fetch(Image& image) {
  resources_.reserve_staging(0);  // the image comes back through them (none yet: a render that uploaded nothing)
  fetch_device_image(image_.get(), floats_, resources_, image.rgb.data(), options_.host.a_eq_e);
}

OrderScratch lay_out_order(DeviceLayout& l, std::size_t n) {
  OrderScratch o;
  o.key_out = l.take<std::uint32_t>(n);
  o.order[0] = l.take<std::uint32_t>(n);
  o.order[1] = l.take<std::uint32_t>(n);
  o.sort = take_cub_scratch(l, sort_pairs_bytes(n));
  return o;
}

namespace {
// out[j] = key[order[j]]: the keys in the order of the tie sort, for the key sort after it.
__global__ void gather_keys_kernel(std::uint32_t n, const std::uint32_t* __restrict__ key,
                                   const std::uint32_t* __restrict__ order, std::uint32_t* __restrict__ out) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) out[j] = key[order[j]];
}
}  // namespace

void draw_device_splats(const DeviceSplats& d, std::size_t n, bool keyed, const OrderScratch& scratch,
                        ChunkRenderer& renderer, float* image, cudaStream_t compute, const TieOrder& ties,
                        bool finish) {
  if (n == 0) return;
  const std::size_t window = device_window(n);
  const float* f = d.field;
  const std::size_t m = d.stride;
  const std::uint32_t* order = nullptr;
  if (keyed) {
    const std::uint32_t count = std::uint32_t(n);
    iota_kernel<<<blocks_for(n), small_block, 0, compute>>>(count, scratch.order[0]);
    CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint32_t> sorted(scratch.order[0], scratch.order[1]);
    std::uint32_t* keys = d.key();
    if (ties.tie) {
      // Two stable passes, the lesser key first: afterwards the order is by key, then tie, then index.
      cub::DoubleBuffer<std::uint32_t> tie_keys(ties.tie, scratch.key_out);
      sort_pairs(scratch.sort, tie_keys, sorted, count, std::max(1, ties.tie_bits), compute);
      std::uint32_t* gathered = tie_keys.Alternate();  // free now
      gather_keys_kernel<<<blocks_for(n), small_block, 0, compute>>>(count, keys, sorted.Current(), gathered);
      CUDA_CHECK_LAUNCH();
      cub::DoubleBuffer<std::uint32_t> sort_keys(gathered, keys);  // the keys as drawn are used up
      sort_pairs(scratch.sort, sort_keys, sorted, count, 32, compute);
    } else {
      cub::DoubleBuffer<std::uint32_t> sort_keys(keys, scratch.key_out);
      sort_pairs(scratch.sort, sort_keys, sorted, count, 32, compute);  // stable: equal keys keep the index order
    }
    order = sorted.Current();
  }
  for (std::size_t at = 0; at < n; at += window) {
    const std::uint32_t count = std::uint32_t(std::min(window, n - at));
    // In draw order the window is a stretch of `order` over all the splats; else of the splats.
    const std::size_t shift = order ? 0 : at;
    const Chunk c{f + shift,
                  f + m + shift,
                  f + 2 * m + shift,
                  {f + 3 * m + shift, f + 4 * m + shift, f + 5 * m + shift},
                  nullptr,
                  count,
                  order ? order + at : nullptr};
    renderer.draw(c, image, compute);
  }
  if (finish) renderer.finish(image, compute);
}

}  // namespace cuda_detail

CudaSession::CudaSession() {
  CUDA_CHECK(cudaSetDevice(device_));  // the streams belong to the device current when they are made
  CUDA_CHECK(cudaFree(nullptr));
  resources_ = std::make_unique<Resources>();
}

CudaSession::CudaSession(std::size_t chunk_particles, int device) : device_(device) {
  // The current device belongs to the calling thread: set here for the start (the pinned buffers
  // go with it), and again by render_cuda on its own thread.
  CUDA_CHECK(cudaSetDevice(device));
  CUDA_CHECK(cudaFree(nullptr));
  int mode = cudaComputeModeDefault;
  CUDA_CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
  shared_ = mode == cudaComputeModeDefault;
  char bus[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus, int(sizeof bus), device));
  bus_id_ = bus;
  resources_ = std::make_unique<Resources>();
  resources_->reserve_staging(chunk_particles > 0 ? chunk_particles : cuda_detail::default_chunk_particles);
}

CudaSession::~CudaSession() = default;

bool cuda_device_present(std::string* why, int device, std::size_t* memory) {
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    if (why)
      *why = error != cudaSuccess ? std::string("no usable CUDA device (") + cudaGetErrorString(error) + ")"
                                  : std::string("no CUDA device");
    cudaGetLastError();  // clear the error for later calls
    return false;
  }
  if (device >= devices) {
    if (why)
      *why = "no GPU of its own (GPU " + std::to_string(device) + " wanted, one per MPI process of a node; " +
             std::to_string(devices) + " visible)";
    return false;
  }
  if (memory) {
    cudaDeviceProp properties;
    *memory = cudaGetDeviceProperties(&properties, device) == cudaSuccess ? properties.totalGlobalMem : 0;
    cudaGetLastError();
  }
  return true;
}

CudaReport render_cuda(const SplatView& s, const CudaOptions& requested, Image& image, CudaSession* session,
                       const AlongsideGpu& alongside) {
  CudaReport report;
  if (s.n == 0 || image.width <= 0 || image.height <= 0) return report;
  if (s.n > std::size_t(UINT32_MAX)) throw std::invalid_argument("render_cuda: more than 2^32 splats in one call");
  std::unique_ptr<CudaSession> own_session;
  if (!session) session = (own_session = std::make_unique<CudaSession>()).get();
  cuda_detail::RenderTarget target(requested, image, *session, report);
  const CudaOptions& o = target.options();
  ChunkRenderer& renderer = target.renderer();
  CudaSession::Resources& resources = target.resources();

  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  std::future<double> host_work;
  if (alongside)
    host_work = std::async(std::launch::async, [&] {
      alongside(o.boundary);
      return seconds_since(start);
    });

  try {
    if (!render_resident(s, o, renderer, resources, target.image(), report))
      render_on_device(s, o, renderer, resources, target.image(), report);
    report.gpu_seconds = seconds_since(start);
  } catch (...) {
    if (host_work.valid()) host_work.wait();  // it writes into `image`: let it finish first
    throw;
  }
  if (host_work.valid()) report.host_seconds = host_work.get();
  target.fetch(image);
  return report;
}

}  // namespace splotch
