// A process's range of the draw order gathered from the GPUs of the node's processes and drawn as
// a layer (device_particles.h: draw_split()). The other processes' splats are read where they
// lie, through CUDA IPC: a copy from GPU to GPU (over NVLink where the GPUs have it) in place of
// passing them through host memory and MPI, which took 0.65-0.78 s for 10^8 splats on 2 GPUs.
#include <cuda_runtime.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/chunk_renderer.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/device_particles.h"
#include "cuda/device_render.cuh"
#include "cuda/kernel_config.h"
#include "cuda/split_gather.cuh"

namespace splotch {

using cuda_detail::DeviceBuffer;
using cuda_detail::DeviceLayout;
using cuda_detail::Event;
using cuda_detail::Gathered;
using cuda_detail::lay_out_gathered;

namespace {

// One range of a share as this process reaches it: its own memory directly, another process's
// opened through CUDA IPC for as long as this lives.
class SharedMemory {
 public:
  SharedMemory(std::uint64_t process, const SplitMemory& s) {
    if (process == split_process_id()) {
      p_ = reinterpret_cast<const unsigned char*>(std::uintptr_t(s.base));
      return;
    }
    cudaIpcMemHandle_t handle;
    std::memcpy(&handle, s.handle, sizeof handle);
    void* p = nullptr;
    const cudaError_t e = cudaIpcOpenMemHandle(&p, handle, cudaIpcMemLazyEnablePeerAccess);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw std::runtime_error(std::string("another process's GPU memory could not be reached (CUDA IPC: ") +
                               cudaGetErrorString(e) +
                               "; the processes of a node must run in one container, or share its IPC namespace, "
                               "for their GPUs to pass splats)");
    }
    p_ = static_cast<const unsigned char*>(p);
    opened_ = true;
  }
  ~SharedMemory() {
    if (opened_) (void)cudaIpcCloseMemHandle(const_cast<unsigned char*>(p_));
  }
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;
  const unsigned char* get() const { return p_; }

 private:
  const unsigned char* p_ = nullptr;
  bool opened_ = false;
};

}  // namespace

namespace {
// An empty layer: nothing over black (C = 0), everything through (T = 1).
__global__ void clear_layer_kernel(std::size_t pixels, float* __restrict__ layer) {
  const std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  for (int c = 0; c < 3; ++c) {
    layer[6 * p + c] = 0.0f;
    layer[6 * p + 3 + c] = 1.0f;
  }
}
}  // namespace

namespace {

// The splats of process `me`'s range of the draw order in all the shares (their shapes checked).
std::size_t splats_in_range(const std::vector<SplitShare>& shares, std::size_t me) {
  const std::size_t processes = shares.size(), types = shares[0].count.size() / processes;
  std::size_t n = 0;
  for (const SplitShare& s : shares) {
    if (s.count.size() != processes * types || s.start.size() != processes * types || s.memory.size() != processes)
      throw std::invalid_argument("draw_split: shares of different shapes");
    for (std::size_t t = 0; t < types; ++t) n += s.count[me * types + t];
  }
  if (n > std::size_t(INT_MAX))  // (CUB's counts are ints)
    throw std::runtime_error(std::to_string(n) +
                             " splats in one process's range of the draw order, more than 2^31 - 1");
  return n;
}

// Process `me`'s range of the draw order copied from every process's share (its memory for `me`
// opened, then `opened` is told) into `g`, type after type, process after process: the single
// process's order for equal keys. The copy's seconds.
template <class Opened>
double gather_range(const std::vector<SplitShare>& shares, std::size_t me, const Gathered& g, std::size_t n,
                    cudaStream_t compute, Opened&& opened) {
  const std::size_t processes = shares.size(), types = shares[0].count.size() / processes;
  Event copy_start(true), copy_end(true);
  std::vector<std::unique_ptr<SharedMemory>> memory;
  for (const SplitShare& s : shares) {  // (a share with nothing for `me` is not opened)
    std::uint64_t count = 0;
    for (std::size_t t = 0; t < types; ++t) count += s.count[me * types + t];
    memory.push_back(count > 0 ? std::make_unique<SharedMemory>(s.process, s.memory[me]) : nullptr);
  }
  opened();
  CUDA_CHECK(cudaEventRecord(copy_start, compute));
  // A failed copy leaves the others queued: done before the shares' memory is closed.
  struct WaitForCopies {
    cudaStream_t stream;
    ~WaitForCopies() { (void)cudaStreamSynchronize(stream); }
  } wait{compute};
  std::size_t at = 0;
  for (std::size_t t = 0; t < types; ++t)
    for (std::size_t p = 0; p < processes; ++p) {
      const SplitShare& s = shares[p];
      const SplitMemory& where = s.memory[me];
      const std::size_t block = me * types + t, count = s.count[block];
      if (count == 0) continue;
      const unsigned char* fields = memory[p]->get() + where.field_offset;
      for (int f = 0; f < cuda_detail::fields; ++f)
        CUDA_CHECK(cudaMemcpyAsync(g.splats.field + f * n + at, fields + (f * where.stride + s.start[block]) * 4,
                                   count * 4, cudaMemcpyDefault, compute));
      CUDA_CHECK(cudaMemcpyAsync(g.tie + at, memory[p]->get() + where.tie_offset + s.start[block] * 4, count * 4,
                                 cudaMemcpyDefault, compute));
      at += count;
    }
  CUDA_CHECK(cudaEventRecord(copy_end, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));  // before the other processes' memory is closed
  return copy_end.seconds_since(copy_start);
}

}  // namespace

CudaReport draw_split(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                      const std::vector<SplitShare>& shares, std::size_t me, int width, int height, float* layer,
                      SplitDrawTimes* times) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point last = Clock::now();
  auto since = [&last] {
    const Clock::time_point now = Clock::now();
    return std::chrono::duration<double>(now - std::exchange(last, now)).count();
  };
  SplitDrawTimes spent;
  CudaReport report;
  report.geometry_on_gpu = true;
  if (options.host.a_eq_e) throw std::invalid_argument("draw_split: a_eq_e = FALSE's options wanted");
  if (me >= shares.size() || width <= 0 || height <= 0)
    throw std::invalid_argument("draw_split: no such process or image");
  CudaSession& session = particles.session();
  CUDA_CHECK(cudaSetDevice(session.device()));
  const std::size_t n = splats_in_range(shares, me);
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  if (n == 0) {
    for (std::size_t p = 0; p < pixels; ++p)
      for (int c = 0; c < 3; ++c) {
        layer[6 * p + c] = 0.0f;
        layer[6 * p + 3 + c] = 1.0f;
      }
    return report;
  }

  const auto lay_out = [n](DeviceLayout& l) { return lay_out_gathered(l, n); };
  DeviceBuffer<unsigned char> arena;
  if (!arena.try_allocate(cuda_detail::bytes_of(lay_out)))
    throw std::runtime_error("the GPU has too little free memory to gather " + std::to_string(n) +
                             " splats of its range of the draw order");
  DeviceLayout carve(arena.get());
  const Gathered g = lay_out_gathered(carve, n);
  CudaSession::Resources& resources = session.resources();
  cudaStream_t compute = resources.compute;

  spent.passing = gather_range(shares, me, g, n, compute, [&] { spent.opening = since(); });
  since();
  report.on_gpu = n;

  const cuda_detail::TieOrder ties =
      cuda_detail::tie_order(g.tie, width, height, view.sort != SortOrder::none ? view.tie_tile_size : 0);
  // The layer, C and T in one pass over the splats in draw order.
  DeviceBuffer<float> image;
  if (!image.try_allocate(6 * pixels))
    throw std::runtime_error("the GPU has too little free memory for a layer of " + std::to_string(width) + " x " +
                             std::to_string(height) + " pixels");
  const std::unique_ptr<cuda_detail::ChunkRenderer> renderer =
      cuda_detail::make_tile_layer_renderer(cuda_detail::grid_for(options, width, height), options.pass_items);
  const std::size_t window = cuda_detail::device_window(n);
  if (!renderer->allocate(window))
    throw std::runtime_error("the GPU has too little free memory left to draw " + std::to_string(n) + " splats");
  Event draw_start(true), drawn(true);
  CUDA_CHECK(cudaEventRecord(draw_start, compute));
  clear_layer_kernel<<<unsigned((pixels + cuda_detail::small_block - 1) / cuda_detail::small_block),
                       cuda_detail::small_block, 0, compute>>>(pixels, image.get());
  CUDA_CHECK_LAUNCH();
  cuda_detail::draw_device_splats(g.splats, n, true, g.order, *renderer, image.get(), compute, ties);
  CUDA_CHECK(cudaEventRecord(drawn, compute));
  CUDA_CHECK(cudaStreamSynchronize(compute));  // (the layer comes back on the copy stream)
  spent.drawing = since();
  resources.reserve_staging(0);
  cuda_detail::fetch_device_image(image.get(), 6 * pixels, resources, layer, false);
  spent.fetching = since();
  report.kernel_seconds = drawn.seconds_since(draw_start);
  report.gpu_seconds = report.kernel_seconds;
  report.device_mib = cuda_detail::device_memory().used_mib();
  if (times) *times = spent;
  return report;
}

}  // namespace splotch
