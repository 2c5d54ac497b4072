// Every CUDA runtime call goes through CUDA_CHECK: a failure becomes an exception naming the call,
// the file and line, and the runtime's message. Nothing is ignored.
//
// Kernel launches are followed by CUDA_CHECK_LAUNCH(), which catches a launch that could not
// start. A kernel that fails while running (an illegal address, say) shows only at a later
// synchronising call, far from its launch; built with `make CUDA_SYNC=1`
// (-DSPLOTCH_SYNC_AFTER_LAUNCH=1) every launch, CUB's included, also waits for the device and
// names the launch that failed. That build is for finding such a fault: it serialises the copies
// with the kernels and so is slower.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#ifndef SPLOTCH_SYNC_AFTER_LAUNCH
#define SPLOTCH_SYNC_AFTER_LAUNCH 0
#endif

namespace splotch::cuda_detail {

constexpr bool sync_after_launch = SPLOTCH_SYNC_AFTER_LAUNCH != 0;

[[noreturn]] inline void cuda_failed(cudaError_t error, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error in ") + call + " (" + file + ":" + std::to_string(line) +
                           "): " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
}

inline void check_launch(const char* file, int line) {
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) cuda_failed(e, "a kernel launch", file, line);
  if constexpr (sync_after_launch)
    if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
      cuda_failed(e, "the kernel launched here (found by CUDA_SYNC=1)", file, line);
}

}  // namespace splotch::cuda_detail

#define CUDA_CHECK(call)                                                                 \
  do {                                                                                   \
    const cudaError_t cuda_check_error_ = (call);                                        \
    if (cuda_check_error_ != cudaSuccess)                                                \
      ::splotch::cuda_detail::cuda_failed(cuda_check_error_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUDA_CHECK_LAUNCH() ::splotch::cuda_detail::check_launch(__FILE__, __LINE__)
