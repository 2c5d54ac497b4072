// Built instead of the .cu files when the Makefile has no CUDA (CUDA=0 or no nvcc).
#include <stdexcept>

#include "cuda/cuda_renderer.h"

namespace splotch {

bool cuda_device_present(std::string* why, int) {
  if (why) *why = "this build of splotch has no GPU renderer (built without CUDA)";
  return false;
}

struct CudaSession::Resources {};
CudaSession::CudaSession(std::size_t, int) { throw std::logic_error("CudaSession made in a build without CUDA"); }
CudaSession::CudaSession() : CudaSession(0) {}
CudaSession::~CudaSession() = default;

CudaReport render_cuda(const SplatView&, const CudaOptions&, Image&, CudaSession*, const AlongsideGpu&) {
  throw std::logic_error("render_cuda called in a build without CUDA");
}

}  // namespace splotch
