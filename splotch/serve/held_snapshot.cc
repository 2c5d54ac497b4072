#include "splotch/serve/held_snapshot.h"

#include <utility>

#include "splotch/load/particle_count.h"
#include "splotch/load/preview_subset.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/work_budget.h"
#include "splotch/stages/geometry.h"

namespace splotch {

class HeldSource : public ParticleSource {
 public:
  HeldSource(HeldSnapshot& held, const FramePlan& plan, Console& console, double thin, DrawLimits limits,
             GpuCopies& copies)
      : held_(held),
        plan_(plan),
        console_(console),
        thin_(plan.settings.input.keep_fraction < 1 ? 1 : thin),
        limits_(limits),
        copies_(copies) {}

  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    held_.splat_pixels_ = 0;
    still_wanted();
    const std::string normalization = snapshot_signature("", plan_.normalization);
    if (!held_.loaded_ || held_.input_keys_ != plan_.input_keys) {
      copies_.clear();        // another snapshot's
      held_.loaded_.reset();  // its memory back first
      drop_share();
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
        drop_share();  // of the values normalised before
        copies_.refresh_values(key(true), held_.loaded_->particles);
        ++held_.normalisations_;
        clock.done("normalize");
      }
    }
    report.particles_read = held_.loaded_->read;
    report.particles_dropped = held_.loaded_->dropped;
    return std::nullopt;
  }
  BoundingBox box() const override { return bounding_box(held_.loaded_->particles); }
  const ParticleSet& particles() const override { return held_.loaded_->particles; }
  Framing framing() const override { return framing_of(*held_.loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return held_.loaded_->ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    still_wanted();
    const bool periodic = plan_.settings.input.periodic;
    GeometryOptions g = geometry;
    if (thin_ < 1) g.preview_fraction = thin_;
    ProjectedSplats out{splotch::project(thin_ >= 1 ? held_.loaded_->particles : share(), g, periodic)};
    within_budget(splat_pixels(out.splats, g.camera.xres, g.camera.yres));
    still_wanted();
    return out;
  }
  std::optional<GpuParticles> for_gpu(GeometryOptions& geometry) override {
    const bool whole = thin_ >= 1;
    if (copies_.refused(key(whole))) return std::nullopt;
    still_wanted();
    const ParticleSet& particles = whole ? held_.loaded_->particles : share();
    within_budget(estimated_splat_pixels(particles, geometry, plan_.settings.input.periodic));
    if (!whole) geometry.preview_fraction = thin_;
    return GpuParticles{key(whole), &particles};
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  // The name of the copy on the GPU of the whole snapshot, or of its share.
  GpuCopyKey key(bool whole) const { return {held_.input_keys_, whole ? "all" : "share"}; }

  // The share of the particles for reduced frames, made once per normalisation.
  const ParticleSet& share() {
    if (held_.thinned_fraction_ != thin_) {
      copies_.drop(key(false));
      held_.thinned_ = preview_subset(held_.loaded_->particles, thin_);
      held_.thinned_fraction_ = thin_;
    }
    return held_.thinned_;
  }
  void drop_share() {
    copies_.drop(key(false));
    held_.thinned_ = ParticleSet();
    held_.thinned_fraction_ = 1;
  }

  void still_wanted() const {
    if (limits_.cancelled && *limits_.cancelled) throw ViewCancelled();
  }
  void within_budget(double pixels) {
    held_.splat_pixels_ = pixels;
    if (pixels > limits_.work_budget) throw BadRequest(over_budget_text(pixels, limits_.work_budget));
  }

  HeldSnapshot& held_;
  const FramePlan& plan_;
  Console& console_;
  double thin_;
  DrawLimits limits_;
  GpuCopies& copies_;
};

std::unique_ptr<ParticleSource> HeldSnapshot::source(const FramePlan& plan, Console& console, double thin,
                                                     DrawLimits limits, GpuCopies& copies) {
  return std::make_unique<HeldSource>(*this, plan, console, thin, limits, copies);
}

}  // namespace splotch
