#include "splotch/render/gpu_startup.h"

#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace splotch {

bool gpu_driver_loaded() {
  std::error_code error;
  for (const char* path : {"/proc/driver/nvidia/gpus", "/dev/nvidia0", "/dev/nvidiactl", "/dev/dxg"})
    if (std::filesystem::exists(path, error)) return true;
  return false;
}

int visible_gpus(int driver_gpus, const char* cuda_visible_devices) {
  if (!cuda_visible_devices) return driver_gpus;
  const std::string list = cuda_visible_devices;
  int seen = 0;
  for (std::size_t at = 0; at < list.size();) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    const std::string entry = list.substr(at, end - at);
    const bool uuid = entry.rfind("GPU-", 0) == 0 || entry.rfind("MIG-", 0) == 0;
    const bool index = !entry.empty() && entry.find_first_not_of("0123456789") == std::string::npos &&
                       entry.size() < 6 && (driver_gpus < 0 || std::stoi(entry) < driver_gpus);
    if (!uuid && !index) break;  // CUDA stops at the first entry it cannot use
    ++seen;
    at = end + 1;
  }
  return driver_gpus < 0 ? seen : std::min(seen, driver_gpus);
}

int visible_gpu_count() {
  std::error_code error;
  // A GPU split into MIG instances shows as several devices: not told from here.
  // (increment(error): a directory of /proc that changes meanwhile ends the count, no exception)
  for (auto it = std::filesystem::directory_iterator("/proc/driver/nvidia/capabilities", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error))
    if (std::filesystem::exists(it->path() / "mig" / "gi1", error)) return -1;
  int gpus = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error))
    ++gpus;
  return visible_gpus(gpus > 0 ? gpus : -1, std::getenv("CUDA_VISIBLE_DEVICES"));
}

std::string gpu_missing_by_list(int device, bool* known) {
  if (known) *known = true;
  if (!gpu_driver_loaded()) return "no NVIDIA driver is loaded on this machine (no /proc/driver/nvidia, /dev/nvidia*)";
  const int visible = visible_gpu_count();
  if (known) *known = visible >= 0;
  if (visible < 0 || device < visible) return "";
  if (visible == 0) return "no CUDA device (CUDA_VISIBLE_DEVICES names none)";
  return "no GPU of its own (GPU " + std::to_string(device) + " wanted, one per MPI process of a node; " +
         std::to_string(visible) + " visible)";
}

std::string own_gpu_entry(int device, int visible, const char* list) {
  if (visible <= 1 || device < 0 || device >= visible) return "";
  if (!list) return std::to_string(device);
  const std::string text = list;
  std::size_t at = 0;
  for (int k = 0; k < device; ++k) {
    at = text.find(',', at);
    if (at == std::string::npos) return "";  // (a `visible` the list does not hold)
    ++at;
  }
  return text.substr(at, text.find(',', at) - at);
}

int see_own_gpu_only(int device) {
  if (!gpu_driver_loaded()) return device;
  // CUDA reads the variable once, when the driver starts. Something may have started it already
  // (an MPI library with CUDA support, in MPI_Init): then the list must stay as CUDA saw it, or
  // `device` would name another process's GPU. The driver's library loaded says it may have.
  if (void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    ::dlclose(driver);
    return device;
  }
  const std::string entry = own_gpu_entry(device, visible_gpu_count(), std::getenv("CUDA_VISIBLE_DEVICES"));
  if (entry.empty()) return device;
  // (MPI's threads may be running, but read no CUDA_VISIBLE_DEVICES)
  ::setenv("CUDA_VISIBLE_DEVICES", entry.c_str(), 1);
  return 0;
}

std::string gpu_missing(int device) {
  bool known = false;
  std::string why = gpu_missing_by_list(device, &known);
  if (why.empty() && !known) cuda_device_present(&why, device);
  return why;
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
