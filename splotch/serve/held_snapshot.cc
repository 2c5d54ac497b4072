#include "splotch/serve/held_snapshot.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "splotch/load/particle_count.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/load/values_reread.h"
#include "splotch/serve/input_key_lines.h"
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
    limits_.still_wanted();
    const std::string normalization = snapshot_signature("", plan_.normalization);
    std::optional<HeldEnd>& shown = held_.shown_;
    if (!holds()) {
      // The pair's, where it holds this snapshot (the slider let go at one of its two).
      if (std::optional<HeldEnd> taken = held_.pair_.take(plan_.input_keys, plan_.settings.input)) {
        if (shown) held_.pair_.keep(std::move(*shown));
        shown = std::move(taken);
        new_copy_name();
      }
    }
    if (shown && !holds() && other_values_only()) {
      const std::vector<int> which = types_with_other_values(shown->request, plan_.settings.input);
      if (!which.empty() && reread_values(shown->loaded, plan_.settings.input, which, plan_.normalization, console_)) {
        shown->input_keys = plan_.input_keys;
        // (the IDs and velocities held stay, for a time between two: the request says so)
        SnapshotRequest request = plan_.settings.input;
        for (std::size_t n = 0; n < request.typed.types.size(); ++n) {
          const RenderTypeRequest& before = shown->request.typed.types[n];
          if (before.motion > request.typed.types[n].motion)
            request.typed.types[n].motion = before.motion, request.typed.types[n].id_label = before.id_label;
        }
        shown->request = std::move(request);
        shown->normalization = normalization;
        refresh_share_values();  // (the share's particles stay: only their values are new)
        copies_.refresh_values(key(true), shown->loaded.particles);
        ++held_.value_reads_;
        report.reused = true;  // (the particles: their values read anew)
        clock.done("read");
        report.particles_read = shown->loaded.read;
        report.particles_dropped = shown->loaded.dropped;
        return std::nullopt;
      }
    }
    if (!holds()) {
      copies_.clear();  // another snapshot's
      shown.reset();    // its memory back first (and the pair's)
      held_.pair_.clear();
      // Kept besides: the intensities and colours as read (2 floats, 4 with vector colours), and
      // the reduced pictures' share (a quarter of the 6 or 8 fields, about).
      bool vector = false;
      for (const TypeSettings& t : plan_.settings.types) vector |= t.vector_colour;
      const int raw = vector ? 4 : 2, share = 2;
      check_memory_before_read(plan_, *this, true, nullptr, console_, raw + share);
      const double before = clock.load_starts();
      shown = HeldEnd{plan_.input_keys,
                      normalization,
                      plan_.settings.input,
                      load_snapshot(plan_.settings.input, plan_.normalization, console_, true),
                      {},
                      1,
                      {}};
      clock.loaded(shown->loaded, before);
      new_copy_name();
      ++held_.reads_;
    } else {
      report.reused = true;
      clock.done("read");
      if (normalise_held(*shown, plan_.normalization, normalization)) {
        share_copy_refreshed();
        copies_.refresh_values(key(true), shown->loaded.particles);
        ++held_.normalisations_;
        clock.done("normalize");
      }
    }
    report.particles_read = shown->loaded.read;
    report.particles_dropped = shown->loaded.dropped;
    return std::nullopt;
  }
  BoundingBox box() const override { return bounding_box(loaded().particles); }
  const ParticleSet& particles() const override { return loaded().particles; }
  Framing framing() const override { return framing_of(loaded(), plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return loaded().ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    limits_.still_wanted();
    const bool periodic = plan_.settings.input.periodic;
    GeometryOptions g = geometry;
    if (thin_ < 1) g.preview_fraction = thin_;
    ProjectedSplats out{splotch::project(thin_ >= 1 ? loaded().particles : share(), g, periodic)};
    within_budget(splat_pixels(out.splats, g.camera.xres, g.camera.yres));
    limits_.still_wanted();
    return out;
  }
  std::optional<GpuParticles> for_gpu(GeometryOptions& geometry) override {
    const bool whole = thin_ >= 1;
    if (copies_.refused(key(whole))) return std::nullopt;
    limits_.still_wanted();
    const ParticleSet& particles = whole ? loaded().particles : share();
    within_budget(estimated_splat_pixels(particles, geometry, plan_.settings.input.periodic));
    if (!whole) geometry.preview_fraction = thin_;
    return GpuParticles{key(whole), &particles};
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  const LoadedSnapshot& loaded() const { return held_.shown_->loaded; }
  // Whether the snapshot shown is the frame's (its IDs, read for a time between two, aside).
  bool holds() const { return held_.shown_ && holds_snapshot(*held_.shown_, plan_.input_keys, plan_.settings.input); }
  // Whether the frame's input keys differ from the held snapshot's in its colours' and
  // intensities' fields alone (what they change of the reading, values_reread.h tells).
  bool other_values_only() const {
    for (const std::string& k : differing_keys(held_.shown_->input_keys, plan_.input_keys))
      if (!values_key(k) && !motion_key(k)) return false;
    return true;
  }

  // The name of the copy on the GPU of the whole snapshot, or of its share.
  GpuCopyKey key(bool whole) const { return {held_.copy_name_, whole ? "all" : "share"}; }
  void new_copy_name() { held_.copy_name_ = "held " + std::to_string(++held_.copies_made_); }

  // The share of the particles for reduced frames, made once per normalisation.
  const ParticleSet& share() {
    HeldEnd& shown = *held_.shown_;
    if (shown.share_fraction != thin_) {
      copies_.drop(key(false));
      make_share(shown, thin_, false);
      ++held_.shares_made_;
    }
    return shown.share;
  }
  // The share's values taken again after the snapshot's changed, and its copy on the GPU's with
  // them (a browser's field or range changed: the next reduced picture copies up two or four
  // fields, not a new share).
  void refresh_share_values() {
    refresh_share(*held_.shown_);
    share_copy_refreshed();
  }
  // The share's copy on the GPU given the share's values (refreshed), or dropped with the share.
  void share_copy_refreshed() {
    if (held_.shown_->share_fraction < 1)
      copies_.refresh_values(key(false), held_.shown_->share);
    else
      copies_.drop(key(false));
  }

  void within_budget(double pixels) {
    held_.splat_pixels_ = pixels;
    limits_.within_budget(pixels);
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
  between_last_ = plan.settings.interpolation.between;
  if (plan.settings.interpolation.between) {
    // The snapshot shown alone may be one of the pair, where it was read with its IDs (from the
    // pair before); else its memory goes.
    if (shown_) {
      const std::vector<RenderTypeRequest>& types = shown_->request.typed.types;
      if (std::any_of(types.begin(), types.end(), [](const RenderTypeRequest& r) { return r.motion > 0; }))
        pair_.keep(std::move(*shown_));
      shown_.reset();
    }
    return pair_.source(plan, console, plan.settings.input.keep_fraction < 1 ? 1 : thin, limits, copies, splat_pixels_);
  }
  return std::make_unique<HeldSource>(*this, plan, console, thin, limits, copies);
}

}  // namespace splotch
