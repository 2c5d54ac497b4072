#include "splotch/serve/held_snapshot.h"

#include <utility>

#include "splotch/load/particle_count.h"
#include "splotch/load/preview_subset.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/serve/work_budget.h"
#include "splotch/stages/geometry.h"

namespace splotch {

class HeldSource : public ParticleSource {
 public:
  HeldSource(HeldSnapshot& held, const FramePlan& plan, Console& console, double thin, DrawChecks checks)
      : held_(held),
        plan_(plan),
        console_(console),
        thin_(plan.settings.input.keep_fraction < 1 ? 1 : thin),
        checks_(std::move(checks)) {}

  void load(StageClock& clock, RunReport& report) override {
    still_wanted();
    const std::string normalization = snapshot_signature("", plan_.normalization);
    if (!held_.loaded_ || held_.input_keys_ != plan_.input_keys) {
      held_.on_gpu_.reset();
      held_.gpu_refused_.clear();
      held_.gpu_share_refused_.clear();
      held_.loaded_.reset();  // its memory back first
      held_.drop_share();
      // Kept besides: the intensities and colours as read (2 floats, 4 with vector colours), and
      // the reduced pictures' share (a quarter of the 6 or 8 fields, about).
      bool vector = false;
      for (const TypeSettings& t : plan_.settings.types) vector |= t.vector_colour;
      const int raw = vector ? 4 : 2, share = 2;
      check_memory_before_read(plan_, *this, true, nullptr, console_, raw + share);
      const double before = clock.load_starts();
      held_.loaded_ = load_snapshot(plan_.settings.input, plan_.normalization, console_, true);
      clock.loaded(*held_.loaded_, before);
      held_.input_keys_ = plan_.input_keys;
      held_.normalization_ = normalization;
      ++held_.reads_;
    } else {
      report.reused = true;
      clock.done("read");
      if (held_.normalization_ != normalization) {
        renormalize(*held_.loaded_, plan_.normalization);
        held_.normalization_ = normalization;
        held_.drop_share();   // of the values normalised before
        if (held_.on_gpu_) {  // (held elsewhere meanwhile: a refresh that fails leaves no stale copy)
          std::unique_ptr<DeviceParticles> copy = std::move(held_.on_gpu_);
          copy->refresh_values(held_.loaded_->particles);
          held_.on_gpu_ = std::move(copy);
        }
        ++held_.normalisations_;
        clock.done("normalize");
      }
    }
    report.particles_read = held_.loaded_->read;
    report.particles_dropped = held_.loaded_->dropped;
  }
  BoundingBox box() const override { return bounding_box(held_.loaded_->particles); }
  Framing framing() const override { return framing_of(*held_.loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return held_.loaded_->ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    still_wanted();
    const bool periodic = plan_.settings.input.periodic;
    GeometryOptions g = geometry;
    if (thin_ < 1) g.preview_fraction = thin_;
    ProjectedSplats out{splotch::project(thin_ >= 1 ? held_.loaded_->particles : share(), g, periodic)};
    if (checks_.work) checks_.work(splat_pixels(out.splats, g.camera.xres, g.camera.yres));
    still_wanted();
    return out;
  }
  DeviceParticles* on_gpu(const std::function<CudaSession*()>& gpu, GeometryOptions& geometry,
                          Console& console) override {
    const bool whole = thin_ >= 1;
    if (!(whole ? held_.gpu_refused_ : held_.gpu_share_refused_).empty()) return nullptr;
    still_wanted();
    if (checks_.work)
      checks_.work(
          estimated_splat_pixels(whole ? held_.loaded_->particles : share(), geometry, plan_.settings.input.periodic));
    CudaSession* session = gpu();  // the picture's renderer chosen, and its session made ready to draw
    if (!session) return nullptr;
    const ParticleSet& particles = whole ? held_.loaded_->particles : share();  // (the share made first)
    std::unique_ptr<DeviceParticles>& kept = whole ? held_.on_gpu_ : held_.on_gpu_share_;
    if (!kept) {
      std::string why;
      kept = DeviceParticles::upload(particles, *session, &why);
      if (!kept && whole && held_.on_gpu_share_) {
        held_.on_gpu_share_.reset();  // the share took the room the whole snapshot needs: it goes first
        kept = DeviceParticles::upload(particles, *session, &why);
      }
      if (!kept) {
        gpu_failed(why, console);
        return nullptr;
      }
    }
    if (!whole) geometry.preview_fraction = thin_;
    return kept.get();
  }
  void gpu_failed(const std::string& why, Console& console) override {
    const bool whole = thin_ >= 1;
    (whole ? held_.on_gpu_ : held_.on_gpu_share_).reset();
    (whole ? held_.gpu_refused_ : held_.gpu_share_refused_) = why;
    console.warning(std::string(whole ? "the snapshot" : "the reduced pictures' share of the snapshot") +
                    " is not kept on the GPU (" + why + "): " + (whole ? "full" : "reduced") +
                    " pictures project it on the CPU, which is slower (the GPU still draws); a GPU with more free "
                    "memory, or a smaller snapshot, keeps it");
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  // The share of the particles for reduced frames, made once per normalisation.
  const ParticleSet& share() {
    if (held_.thinned_fraction_ != thin_) {
      held_.on_gpu_share_.reset();
      held_.thinned_ = preview_subset(held_.loaded_->particles, thin_);
      held_.thinned_fraction_ = thin_;
    }
    return held_.thinned_;
  }

  void still_wanted() const {
    if (checks_.still_wanted) checks_.still_wanted();
  }

  HeldSnapshot& held_;
  const FramePlan& plan_;
  Console& console_;
  double thin_;
  DrawChecks checks_;
};

std::unique_ptr<ParticleSource> HeldSnapshot::source(const FramePlan& plan, Console& console, double thin,
                                                     DrawChecks checks) {
  return std::make_unique<HeldSource>(*this, plan, console, thin, std::move(checks));
}

}  // namespace splotch
