#include "splotch/render/gpu_startup.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace splotch {

bool gpu_driver_loaded() {
  std::error_code error;
  for (const char* path : {"/proc/driver/nvidia/gpus", "/dev/nvidia0", "/dev/nvidiactl", "/dev/dxg"})
    if (std::filesystem::exists(path, error)) return true;
  return false;
}

GpuStartup::GpuStartup(int device, bool held) : held_(held) {
  threads_ = omp_get_max_threads();
  if (threads_ > 1) omp_set_num_threads(threads_ - 1);
  worker_ = std::thread([this, device] {
    {  // a held start touches no GPU before it is released: other processes' starts would slow
      std::unique_lock<std::mutex> lock(hold_);
      released_.wait(lock, [this] { return !held_; });
      if (!start_) {
        over_ = true;
        probe_.set_value("the GPU was not started (this process does not draw)");
        session_.set_value(nullptr);
        return;
      }
    }
    std::string why;
    const bool present = cuda_device_present(&why, device, &memory_);
    if (!present) {
      if (why.empty()) why = "no usable GPU";
      over_ = true;
      session_.set_exception(std::make_exception_ptr(std::runtime_error(why)));
      probe_.set_value(why);
      return;
    }
    probe_.set_value(std::string());
    try {
      auto session = std::make_shared<CudaSession>(0, device);
      over_ = true;
      session_.set_value(std::move(session));
    } catch (...) {
      over_ = true;
      session_.set_exception(std::current_exception());
    }
  });
}

GpuStartup::~GpuStartup() {
  release(false);
  worker_.join();
  restore_threads();
}

void GpuStartup::restore_threads() {
  if (threads_ > 1) omp_set_num_threads(threads_);
  threads_ = 0;
}

void GpuStartup::set_caller_threads(int threads) {
  if (threads_ > 1) {  // still borrowing one
    threads_ = threads;
    omp_set_num_threads(std::max(1, threads - 1));
  } else {
    omp_set_num_threads(threads);
  }
}

void GpuStartup::pace_threads() {
  if (threads_ && over_) restore_threads();
}

bool GpuStartup::held() {
  std::lock_guard<std::mutex> lock(hold_);
  return held_;
}

bool GpuStartup::device_present(std::string* why) {
  if (held()) throw std::logic_error("a held GPU start is asked for its device before its release");
  const std::string& no_device = probe_result_.get();
  if (!no_device.empty()) restore_threads();
  if (why) *why = no_device;
  return no_device.empty();
}

std::size_t GpuStartup::device_memory() { return device_present() ? memory_ : 0; }

bool GpuStartup::teardown_may_be_left() {
  if (!over_ || session_result_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
  try {
    const CudaSession* s = session_result_.get().get();
    return s && s->device_shared();
  } catch (...) {
    return false;  // its start failed: nothing to leave
  }
}

void GpuStartup::release(bool start) {
  {
    std::lock_guard<std::mutex> lock(hold_);
    if (!held_) return;
    held_ = false;
    start_ = start;
  }
  released_.notify_one();
}

CudaSession* GpuStartup::session() {
  release();
  try {
    CudaSession* session = session_result_.get().get();
    if (!session)
      throw std::logic_error("the GPU's start was given up (release(false)) before its session was asked for");
    restore_threads();
    return session;
  } catch (...) {
    restore_threads();
    throw;
  }
}

}  // namespace splotch
