#include "splotch/render/gpu_copies.h"

#include <stdexcept>
#include <utility>

namespace splotch {

void GpuCopies::keep_snapshot(const std::string& snapshot) {
  if (snapshot == snapshot_) return;
  clear();  // another snapshot's copies: their memory back before the new one is copied
  snapshot_ = snapshot;
}

std::unique_ptr<DeviceParticles> GpuCopies::upload(const ParticleSet& particles, CudaSession& session,
                                                   std::size_t window, std::string& why) {
  try {
    return DeviceParticles::upload(particles, session, &why, window);
  } catch (const std::runtime_error& e) {  // a CUDA error while copying: as if refused
    why = e.what();
    return nullptr;
  }
}

GpuCopyAnswer GpuCopies::get(const GpuCopyKey& key, const ParticleSet& particles, CudaSession& session,
                             std::size_t window) {
  keep_snapshot(key.snapshot);
  if (refused_.count(key.part)) return {};
  if (const auto kept = copies_.find(key.part); kept != copies_.end()) return {kept->second.get(), ""};
  std::string why;
  std::unique_ptr<DeviceParticles> copy = upload(particles, session, window, why);
  // The snapshot's other parts (the server's share) took the room all its particles need: they
  // go (and may be copied again beside these, in windows, or be refused then). Not the other way:
  // a browser's reduced and full pictures would copy each up in turn.
  if (!copy && key.part == "all" && !copies_.empty()) {
    copies_.clear();
    why.clear();
    copy = upload(particles, session, window, why);
  }
  if (copy) return {(copies_[key.part] = std::move(copy)).get(), ""};
  refused_[key.part] = why;
  GpuCopyAnswer answer{nullptr, why.empty() ? "the copy failed" : why, !refused_before_};
  refused_before_ = true;
  return answer;
}

void GpuCopies::give_up(const GpuCopyKey& key) {
  if (key.snapshot != snapshot_) return;
  copies_.erase(key.part);
  refused_[key.part] = "given up";
}

void GpuCopies::drop(const GpuCopyKey& key) {
  if (key.snapshot == snapshot_) copies_.erase(key.part);
}

void GpuCopies::refresh_values(const GpuCopyKey& key, const ParticleSet& particles) {
  if (key.snapshot != snapshot_) return;
  const auto it = copies_.find(key.part);
  if (it == copies_.end() || !it->second) return;
  std::unique_ptr<DeviceParticles> copy = std::move(it->second);  // a refresh that fails leaves none
  copies_.erase(it);
  copy->refresh_values(particles);
  copies_[key.part] = std::move(copy);
}

void GpuCopies::clear() {
  copies_.clear();
  refused_.clear();
  snapshot_.clear();
}

bool GpuCopies::holds(const GpuCopyKey& key) const {
  if (key.snapshot != snapshot_) return false;
  const auto it = copies_.find(key.part);
  return it != copies_.end() && it->second;
}

std::size_t GpuCopies::copies() const {
  std::size_t n = 0;
  for (const auto& [part, copy] : copies_) n += copy != nullptr;
  return n;
}

}  // namespace splotch
