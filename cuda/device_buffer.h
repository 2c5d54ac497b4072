// Device and pinned host memory that free themselves. Allocation failures other than running out
// of memory throw through CUDA_CHECK; running out is reported to the caller (try_allocate), which
// can shrink its chunk and try again (docs/design.md section 5: out-of-memory means smaller chunks).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda/cuda_check.h"

namespace splotch::cuda_detail {

// The device's free and total memory now.
struct DeviceMemory {
  std::size_t free = 0, total = 0;
  double used_mib() const { return double(total - free) / (1024.0 * 1024.0); }
};
inline DeviceMemory device_memory() {
  DeviceMemory m;
  CUDA_CHECK(cudaMemGetInfo(&m.free, &m.total));
  return m;
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}

  // False when the device has too little free memory; any other failure throws.
  bool try_allocate(std::size_t n) {
    release();
    if (n == 0) return true;
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T));
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clear it, so that the next call does not see it
      p_ = nullptr;
      return false;
    }
    CUDA_CHECK(e);
    n_ = n;
    return true;
  }
  void release() {
    if (p_) cudaFree(p_);  // no throw from a destructor; a failure would have shown earlier
    p_ = nullptr;
    n_ = 0;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Page-locked host memory: copies from it run asynchronously and at full bus speed.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void allocate(std::size_t n) {
    if (p_) cudaFreeHost(p_);
    p_ = nullptr;
    if (n > 0) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(T)));
  }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_{};
};

class Event {
 public:
  // Timing events cost a little more to record; only those that are read for timing have it.
  explicit Event(bool timing = false) {
    CUDA_CHECK(cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return e_; }
  // Seconds from `start` to this event, both recorded. It waits for them: an event recorded on a
  // stream that nobody synchronised (an upload's end, whose successor work waited on another
  // event) may not be complete yet, and cudaEventElapsedTime then fails with cudaErrorNotReady.
  // A time is a report, never a reason to fail a render: 0 where it cannot be had.
  double seconds_since(const Event& start) const {
    float ms = 0;
    if (cudaEventSynchronize(start.e_) != cudaSuccess || cudaEventSynchronize(e_) != cudaSuccess ||
        cudaEventElapsedTime(&ms, start.e_, e_) != cudaSuccess) {
      (void)cudaGetLastError();  // not sticky: the next real call says what went wrong, if anything
      return 0;
    }
    return double(ms) / 1000.0;
  }

 private:
  cudaEvent_t e_{};
};

}  // namespace splotch::cuda_detail
