// Every CUDA runtime call goes through CUDA_CHECK: a failure becomes an exception naming the call,
// the file and line, and the runtime's message. Nothing is ignored.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace splotch::cuda_detail {

[[noreturn]] inline void cuda_failed(cudaError_t error, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error in ") + call + " (" + file + ":" + std::to_string(line) +
                           "): " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
}

}  // namespace splotch::cuda_detail

#define CUDA_CHECK(call)                                                                 \
  do {                                                                                   \
    const cudaError_t cuda_check_error_ = (call);                                        \
    if (cuda_check_error_ != cudaSuccess)                                                \
      ::splotch::cuda_detail::cuda_failed(cuda_check_error_, #call, __FILE__, __LINE__); \
  } while (0)
