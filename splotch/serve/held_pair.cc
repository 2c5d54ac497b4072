#include "splotch/serve/held_pair.h"

#include <cstdio>
#include <utility>

#include "splotch/load/particle_count.h"
#include "splotch/load/preview_subset.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/serve/input_key_lines.h"
#include "splotch/serve/work_budget.h"
#include "splotch/stages/geometry.h"

namespace splotch {

bool holds_snapshot(const HeldEnd& end, const std::string& input_keys, const SnapshotRequest& request) {
  if (!all_keys(differing_keys(end.input_keys, input_keys), motion_key)) return false;
  if (end.request.typed.types.size() != request.typed.types.size()) return false;
  for (std::size_t n = 0; n < request.typed.types.size(); ++n)
    if (end.request.typed.types[n].motion < request.typed.types[n].motion) return false;
  return true;
}

bool normalise_held(HeldEnd& end, const std::vector<TypeNormalization>& normalization, const std::string& signature) {
  if (end.normalization == signature) return false;
  renormalize(end.loaded, normalization);
  end.normalization = signature;
  refresh_share(end);
  return true;
}

void make_share(HeldEnd& end, double fraction, bool by_id) {
  drop_share(end);  // (its memory back first)
  end.share_places = preview_places(end.loaded.particles, fraction, by_id);
  end.share = preview_subset(end.loaded.particles, end.share_places, fraction);
  end.share_fraction = fraction;
}

void drop_share(HeldEnd& end) {
  end.share = ParticleSet();
  end.share_places = {};
  end.share_fraction = 1;
}

bool refresh_share(HeldEnd& end) {
  if (end.share_fraction >= 1) return false;
  if (regather_preview_values(end.loaded.particles, end.share_places, end.share)) return true;
  drop_share(end);
  return false;
}

void HeldPair::keep(HeldEnd end) {
  match_.reset();
  share_match_.reset();
  between_ = ParticleSet();
  if (ends_.size() >= 2) ends_.erase(ends_.begin());  // (the pair's first: the one left behind)
  ends_.push_back(std::move(end));
}

void HeldPair::clear() {
  ends_.clear();
  match_.reset();
  share_match_.reset();
  between_ = ParticleSet();
}

std::optional<HeldEnd> HeldPair::take(const std::string& input_keys, const SnapshotRequest& request) {
  // (a preview's share of an end was chosen by ID, a fresh read's by position)
  if (request.keep_fraction < 1) return std::nullopt;
  for (auto it = ends_.begin(); it != ends_.end(); ++it) {
    if (!holds_snapshot(*it, input_keys, request)) continue;
    HeldEnd end = std::move(*it);
    ends_.erase(it);
    match_.reset();
    share_match_.reset();
    between_ = ParticleSet();
    return end;
  }
  return std::nullopt;
}

class PairSource : public ParticleSource {
 public:
  PairSource(HeldPair& pair, const FramePlan& plan, Console& console, double thin, DrawLimits limits, GpuCopies& copies,
             double& splat_pixels)
      : pair_(pair),
        plan_(plan),
        console_(console),
        thin_(thin),
        limits_(limits),
        copies_(copies),
        splat_pixels_(splat_pixels) {}

  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    splat_pixels_ = 0;
    limits_.still_wanted();
    const InterpolationSettings& in = plan_.settings.interpolation;
    const std::string normalization = snapshot_signature("", plan_.normalization);
    const int reads = pair_.reads_;
    arrange(in.second_input_keys, in.second_input);
    report.snapshot_reads = pair_.reads_ - reads;
    // (a share whose values were taken again holds the same particles: its match stays)
    for (HeldEnd& end : pair_.ends_)
      if (normalise_held(end, plan_.normalization, normalization) && end.share_fraction >= 1)
        pair_.share_match_.reset();
    clock.done("read");
    const ParticleSet &a = pair_.ends_[0].loaded.particles, &b = pair_.ends_[1].loaded.particles;
    interpolation_notes(in, a, b, console_, report);
    if (!pair_.match_) pair_.match_ = match_snapshots(a, b);
    limits_.still_wanted();
    // (into the step before's memory: a slider's steps fault in no fresh pages)
    if (thin_ >= 1) {
      pair_.between_ = interpolate_snapshots(a, b, *pair_.match_, in.fraction, in.options, std::move(pair_.between_));
    } else {
      const ParticleSet &sa = share(pair_.ends_[0]), &sb = share(pair_.ends_[1]);
      if (!pair_.share_match_) pair_.share_match_ = match_snapshots(sa, sb);
      pair_.between_ =
          interpolate_snapshots(sa, sb, *pair_.share_match_, in.fraction, in.options, std::move(pair_.between_));
    }
    clock.done("interpolate");
    const LoadedSnapshot &la = pair_.ends_[0].loaded, &lb = pair_.ends_[1].loaded;
    report.particles_read = la.read + lb.read;
    report.particles_dropped = la.dropped + lb.dropped;
    report.reused = report.snapshot_reads == 0;
    report_between(in, pair_.match_->counts, report);
    return std::nullopt;
  }
  BoundingBox box() const override { return bounding_box(pair_.between_); }
  const ParticleSet& particles() const override { return pair_.between_; }
  Framing framing() const override { return splotch::framing(pair_.between_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return pair_.ends_[0].loaded.ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    limits_.still_wanted();
    GeometryOptions g = geometry;
    if (thin_ < 1) g.preview_fraction = thin_;
    ProjectedSplats out{splotch::project(pair_.between_, g, plan_.settings.input.periodic)};
    within_budget(splat_pixels(out.splats, g.camera.xres, g.camera.yres));
    limits_.still_wanted();
    return out;
  }
  std::optional<GpuParticles> for_gpu(GeometryOptions& geometry) override {
    // (each step's particles are new: copied up for it, in place of the step's before)
    char fraction[32];
    std::snprintf(fraction, sizeof fraction, " at %.17g", plan_.settings.interpolation.fraction);
    const GpuCopyKey key{"between " + plan_.input_keys + plan_.settings.interpolation.second_input_keys +
                             pair_.ends_[0].normalization + fraction,
                         thin_ >= 1 ? "all" : "share"};
    if (copies_.refused(key)) return std::nullopt;
    limits_.still_wanted();
    within_budget(estimated_splat_pixels(pair_.between_, geometry, plan_.settings.input.periodic));
    if (thin_ < 1) geometry.preview_fraction = thin_;
    return GpuParticles{key, &pair_.between_};
  }

 protected:
  std::optional<std::uint64_t> count() override { return particles_of_both(plan_.settings); }

 private:
  // The pair's ends made [the frame's first snapshot, its second]: those held kept, the others'
  // memory given back before the missing ones are read. Each end read is kept at once, so that a
  // picture cancelled (or failed) between the two reads loses neither.
  void arrange(const std::string& second_keys, const SnapshotRequest& second_request) {
    std::vector<HeldEnd>& ends = pair_.ends_;
    const auto find = [&](const std::string& keys, const SnapshotRequest& request) -> int {
      for (std::size_t i = 0; i < ends.size(); ++i)
        if (holds_snapshot(ends[i], keys, request)) return int(i);
      return -1;
    };
    const int a = find(plan_.input_keys, plan_.settings.input), b = find(second_keys, second_request);
    if (a == 0 && b == 1 && ends.size() == 2) return;
    pair_.match_.reset();
    pair_.share_match_.reset();
    pair_.between_ = ParticleSet();
    copies_.clear();
    // (the others' memory back first)
    std::vector<HeldEnd> kept;
    if (a >= 0) kept.push_back(std::move(ends[std::size_t(a)]));
    if (b >= 0) kept.push_back(std::move(ends[std::size_t(b)]));
    ends = std::move(kept);
    // (kept besides, per particle of the two: the values as read, 2 floats; the shares, about 2; the
    // particles between, 3: six floats of half the particles)
    if (a < 0 || b < 0) check_memory_before_read(plan_, *this, true, nullptr, console_, 2 + 2 + 3);
    if (a < 0) ends.push_back(read(plan_.input_keys, plan_.settings.input));
    if (b < 0) {
      limits_.still_wanted();
      ends.push_back(read(second_keys, second_request));
    }
    // [first, second]
    if (!holds_snapshot(ends[0], plan_.input_keys, plan_.settings.input)) std::swap(ends[0], ends[1]);
  }
  HeldEnd read(const std::string& keys, const SnapshotRequest& request) {
    HeldEnd end{keys,    snapshot_signature("", plan_.normalization),
                request, load_snapshot(request, plan_.normalization, console_, true),
                {},      1,
                {}};
    ++pair_.reads_;
    return end;
  }
  // The end's share for reduced pictures: by ID where the snapshot has IDs, so that both ends'
  // shares hold the same particles.
  const ParticleSet& share(HeldEnd& end) {
    if (end.share_fraction != thin_) {
      make_share(end, thin_, true);
      pair_.share_match_.reset();
    }
    return end.share;
  }
  void within_budget(double pixels) {
    splat_pixels_ = pixels;
    limits_.within_budget(pixels);
  }

  HeldPair& pair_;
  const FramePlan& plan_;
  Console& console_;
  double thin_;
  DrawLimits limits_;
  GpuCopies& copies_;
  double& splat_pixels_;
};

std::unique_ptr<ParticleSource> HeldPair::source(const FramePlan& plan, Console& console, double thin,
                                                 DrawLimits limits, GpuCopies& copies, double& splat_pixels) {
  return std::make_unique<PairSource>(*this, plan, console, thin, limits, copies, splat_pixels);
}

}  // namespace splotch
