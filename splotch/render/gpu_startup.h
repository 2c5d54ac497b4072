// The GPU's start-up, run in the background from the start of a run so that the CPU stages hide
// it. Looking for a device starts the CUDA driver (on the 2 x H200 node 0.33-0.47 s with both GPUs
// visible, 0.13 s with one, 0.03 s while another process holds the driver open, as mpirun does when
// hwloc's OpenCL plugin looked at the GPUs), then the runtime starts on the device (0.1 s alone,
// 0.2-0.3 s each for two processes at once) and the staging buffers are pinned (0.02 s): done one
// after the other before the render, these were most of a GPU run's time for 10^7 particles.
//
// The start-up keeps a core busy. OpenMP regions on every core then wait, at each barrier, for the
// thread that shares that core with it: regions ran 8 times slower on the H200 node (16 cores)
// while the driver started. So while it runs, the caller's OpenMP regions use one thread fewer;
// pace_threads(), called between stages, gives the thread back once the start-up is over.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "cuda/cuda_renderer.h"

namespace splotch {

// Whether an NVIDIA driver is loaded on this machine (its /proc and /dev entries, or WSL's /dev/dxg):
// a file-system look, no CUDA call. Without one, renderer = auto renders on the host without
// starting the search for a device.
bool gpu_driver_loaded();

// How many GPUs a process sees, without a CUDA call: of `driver_gpus` (the driver's, -1 where not
// known), those CUDA_VISIBLE_DEVICES names (nullptr: not set) up to the first it cannot be (an
// index beyond them, or not an index, a GPU- or MIG- UUID); -1 where it cannot be told.
int visible_gpus(int driver_gpus, const char* cuda_visible_devices);
// The same for this process: the driver's GPUs as /proc/driver/nvidia/gpus lists them (-1 where
// it does not, or where the GPUs are split into MIG instances) and its CUDA_VISIBLE_DEVICES.
int visible_gpu_count();
// Why this process has no GPU `device` (its rank among its node's processes) by the driver and
// its list of GPUs, without a CUDA call: no driver loaded, or fewer GPUs visible. "" where it has
// one, or where the list cannot tell (`known` says which).
std::string gpu_missing_by_list(int device, bool* known = nullptr);
// The same, asking CUDA (on the caller's thread: 0.03-0.4 s) where the list cannot tell.
std::string gpu_missing(int device);

// The CUDA_VISIBLE_DEVICES that shows a process GPU `device` (its index among the `visible` GPUs
// it sees, `list` being its CUDA_VISIBLE_DEVICES, nullptr where not set) and no other: that entry
// of the list (an index or a UUID), or the index where there is no list. "" where it sees one GPU
// or none already, where `visible` is not known (-1: MIG instances), or where it has no GPU
// `device`.
std::string own_gpu_entry(int device, int visible, const char* list);
// For a process that draws on GPU `device` and reaches no other GPU (one process on the node,
// frames dealt out, a frame with a_eq_e = TRUE): shows it that GPU alone, by setting
// CUDA_VISIBLE_DEVICES (own_gpu_entry) where the CUDA driver is not loaded into the process yet.
// The driver then starts one GPU instead of all: on the 2 x H200 node the search for the device
// took 0.13-0.14 s instead of 0.33-0.47 s wherever no other process held the driver open. Returns
// the GPU's index among those the process sees afterwards: 0, or `device` where nothing changed.
int see_own_gpu_only(int device);

class GpuStartup {
 public:
  // Starts the work on a thread of its own, for GPU `device` (its index among the GPUs the process
  // sees: an MPI process's rank on its node, one GPU per process, none for those beyond the node's
  // GPUs; 0 where it sees its own alone, see_own_gpu_only); the caller's OpenMP threads drop
  // by one meanwhile. `held`: no CUDA call (not even the search for the device) before
  // release(), for a process that may not draw at all (an MPI process whose rank 0 may draw the
  // frame alone: two processes looking for their GPUs at once took 0.06-0.08 s each on the
  // 2 x H200 node, one alone 0.03 s, and rank 0 waits for its own before reading). A start given
  // up (release(false)) stays so.
  explicit GpuStartup(int device = 0, bool held = false);
  ~GpuStartup();  // waits for it (the CUDA calls cannot be abandoned)
  GpuStartup(const GpuStartup&) = delete;
  GpuStartup& operator=(const GpuStartup&) = delete;

  // Whether the start is held (not yet released).
  bool held();
  // Waits until the device is found or not; when not, `why` (when given) says why. Not while
  // held (std::logic_error); after release(false): false.
  bool device_present(std::string* why = nullptr);
  // The device's memory, bytes (0: none found, or not known). Waits as device_present().
  std::size_t device_memory();
  // A held start's session starts now (`start`), or never: the process has no use for it (and
  // session() is then an error). Later calls, and calls for a start not held, do nothing.
  void release(bool start = true);
  // Waits for the session (releasing a held start), which stays for later calls (the frames of a
  // scene); errors of its start, a missing device's included (std::runtime_error, saying why),
  // are thrown here, at every call.
  CudaSession* session();
  // True the first time only: a start that failed is said once in a scene, not once per frame.
  bool first_failure() { return !failure_said_ && (failure_said_ = true); }
  // The caller's OpenMP thread count back to what it was, if the start-up is over.
  void pace_threads();
  // Whether the start is over (a session, or none), and how long ago it began: what is left of it
  // weighs in renderer = auto's choice at the render stage.
  bool over() const { return over_; }
  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  }
  // Whether the process may end without waiting for the GPU's teardown (splotch/app/process_end.h):
  // the start is over (no thread of it inside the driver), it made a session, and the device is
  // shared (in an exclusive compute mode the next run's context could not start meanwhile).
  bool teardown_may_be_left();
  // The threads the start-up holds back from the caller now (0 or 1).
  int threads_borrowed() const { return threads_ > 1 ? 1 : 0; }
  // The caller's OpenMP threads become `threads` (one fewer while the start-up runs).
  void set_caller_threads(int threads);

 private:
  void restore_threads();

  std::promise<std::string> probe_;  // empty: a device is present; else why none is
  std::promise<std::shared_ptr<CudaSession>> session_;
  std::shared_future<std::string> probe_result_ = probe_.get_future();
  std::shared_future<std::shared_ptr<CudaSession>> session_result_ = session_.get_future();
  std::size_t memory_ = 0;  // (written before probe_ is set)
  bool failure_said_ = false;
  std::mutex hold_;
  std::condition_variable released_;
  bool held_ = false, start_ = true;  // under hold_
  int threads_ = 0;                   // the caller's OpenMP threads before; 0 once given back
  std::atomic<bool> over_{false};
  std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
  std::thread worker_;
};

}  // namespace splotch
