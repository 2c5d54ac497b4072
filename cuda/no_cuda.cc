// Built instead of the .cu files when the Makefile has no CUDA (CUDA=0 or no nvcc).
#include <memory>
#include <stdexcept>
#include <utility>

#include "cuda/cuda_renderer.h"
#include "cuda/device_particles.h"
#include "cuda/map_renderer.h"

namespace splotch {

bool cuda_device_present(std::string* why, int, std::size_t*) {
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

struct DeviceParticles::Memory {};
DeviceParticles::DeviceParticles(std::unique_ptr<Memory> memory) : memory_(std::move(memory)) {}
DeviceParticles::~DeviceParticles() = default;
std::unique_ptr<DeviceParticles> DeviceParticles::upload(const ParticleSet&, CudaSession&, std::string* why,
                                                         std::size_t) {
  if (why) *why = "this build of splotch has no GPU renderer";
  return nullptr;
}
void DeviceParticles::refresh_values(const ParticleSet&) {}
std::size_t DeviceParticles::size() const { return 0; }
DeviceParticles::Fields DeviceParticles::fields() const {
  throw std::logic_error("DeviceParticles::fields in a build without CUDA");
}
std::size_t DeviceParticles::window() const { return 0; }
double DeviceParticles::device_mib() const { return 0; }
CudaReport render_particles_cuda(DeviceParticles&, const DeviceView&, const CudaOptions&, Image&, CudaSession&,
                                 const DrawBeyond&) {
  throw std::logic_error("render_particles_cuda called in a build without CUDA");
}

CudaSession& DeviceParticles::session() { throw std::logic_error("DeviceParticles::session in a build without CUDA"); }
std::vector<std::uint64_t> count_draw_keys(DeviceParticles&, const DeviceView&, std::uint32_t, int, std::uint32_t) {
  throw std::logic_error("count_draw_keys called in a build without CUDA");
}
std::uint64_t split_process_id() { return 0; }
SplitShare write_split(DeviceParticles&, const DeviceView&, int, int, const std::vector<std::uint32_t>&) {
  throw std::logic_error("write_split called in a build without CUDA");
}
void copy_split_ranges(DeviceParticles&, SplitShare&, std::size_t, std::size_t) {
  throw std::logic_error("copy_split_ranges called in a build without CUDA");
}
std::size_t split_gather_bytes(std::size_t, int, int) { return 0; }
void end_split(DeviceParticles&) { throw std::logic_error("end_split called in a build without CUDA"); }
CudaReport draw_split(DeviceParticles&, const DeviceView&, const CudaOptions&, const std::vector<SplitShare>&,
                      std::size_t, int, int, float*, SplitDrawTimes*) {
  throw std::logic_error("draw_split called in a build without CUDA");
}

void draw_map_cuda(const MapSplats&, MapMode, const MapKernelTables&, MapSums&, int) {
  throw std::runtime_error("this build of splotch has no GPU renderer (built without CUDA)");
}
void draw_map_cuda_kept(const DeviceParticles::Fields&, const MapProjection&, double, const MapKernelTables&,
                        MapSums&) {
  throw std::runtime_error("this build of splotch has no GPU renderer");
}

}  // namespace splotch
