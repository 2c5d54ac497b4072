#include "splotch/frame/particle_source.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "errors/user_error.h"
#include "params/number_text.h"
#include "splotch/frame/frame_views.h"
#include "splotch/frame/memory_need.h"
#include "splotch/frame/system_memory.h"
#include "splotch/load/interpolate_snapshots.h"
#include "splotch/load/particle_count.h"
#include "splotch/load/preview_subset.h"
#include "splotch/load/snapshot_cache.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/mpi/comm.h"
#include "splotch/stages/geometry.h"

namespace splotch {

MemoryShape memory_shape(const Settings& s, bool keeps_particles, int extra_fields) {
  MemoryShape shape;
  shape.pixels = std::size_t(s.camera.xres) * std::size_t(s.camera.yres);
  for (const TypeSettings& t : s.types)
    if (t.vector_colour) shape.fields = 8;
  shape.types = s.input.ptypes > 1;
  shape.a_eq_e = s.render.a_eq_e;
  int motion = 0;
  if (has_particle_types(s.input.format))
    for (const RenderTypeRequest& r : s.input.typed.types) {
      // (not for smoothing lengths the file gives, which turn into an estimate only where they
      // are one value for all: counting a tree for every such run would refuse many that fit)
      shape.knn |= r.size_estimate == SizeEstimate::knn;
      motion = std::max(motion, r.motion);
    }
  shape.fields += (motion > 0 ? 2 : 0) + (motion > 1 ? 3 : 0);  // the IDs (8 bytes), the velocities
  shape.fields += extra_fields;
  shape.keeps_particles = keeps_particles;
  return shape;
}

void check_memory_before_read(const FramePlan& plan, ParticleSource& source, bool keeps_particles, const Comm* comm,
                              Console& console, int extra_fields) {
  const std::optional<std::uint64_t> n = plan.memory_check ? source.particles_to_read() : std::nullopt;
  if (!n) return;
  const Settings& s = plan.settings;
  const MemoryShape shape = memory_shape(s, keeps_particles, extra_fields);
  const int on_node = comm ? comm->node_size() : 1;
  agreed(comm, "drawing its share of the particles", [&] {
    const std::string w = check_memory(memory_need(*n, shape), *n, available_memory_bytes() / std::size_t(on_node),
                                       on_node, s.input.path);
    if (!w.empty()) console.warning(w);
  });
}

std::optional<std::uint64_t> particles_of_both(const Settings& s) {
  const std::optional<std::uint64_t> a = splotch::particles_to_read(s.input);
  const std::optional<std::uint64_t> b = splotch::particles_to_read(s.interpolation.second_input);
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

void interpolation_notes(const InterpolationSettings& in, const ParticleSet& a, const ParticleSet& b, Console& console,
                         RunReport& report) {
  if (in.options.mode == 2 && !(b.time > a.time))
    console.warning("interpolation_mode = 2: snapshot " + std::to_string(in.second) + "'s header time (" +
                    number_text(b.time) + ") is not after snapshot " + std::to_string(in.first) + "'s (" +
                    number_text(a.time) +
                    "): there is no time between them for the velocities to span, so the particles move on the "
                    "cubic without them; check the snapshots, or use interpolation_mode = 1");
  if (in.options.mode == 2 && comoving_times(a, b) && (a.redshift < 0 || b.redshift < 0))
    report.notes.push_back("interpolation_mode = 2: the snapshots' headers give no redshift, and their times (" +
                           number_text(a.time) + ", " + number_text(b.time) +
                           ") are taken as scale factors of a cosmological run (hubble, omega, lambda)");
  if (in.options.mode == 2 && b.time > a.time && !comoving_times(a, b))
    report.notes.push_back("interpolation_mode = 2: the snapshots' header times (" + number_text(a.time) + ", " +
                           number_text(b.time) +
                           ") are not scale factors, so the run is taken as one in physical time: a velocity v "
                           "moves a particle v (t2 - t1) in the file's units");
}

void report_between(const InterpolationSettings& in, const InterpolationCounts& counts, RunReport& report) {
  char share[32];
  std::snprintf(share, sizeof share, "%.4g%%", 100 * in.fraction);
  const std::string first = std::to_string(in.first), second = std::to_string(in.second);
  report.between = "snapshots " + first + " to " + second + " at " + share + ": " + std::to_string(counts.matched) +
                   " particles matched, " + std::to_string(counts.only_first) + " only in " + first + ", " +
                   std::to_string(counts.only_second) + " only in " + second;
  report.notes.push_back("interpolated (interpolation_mode = " + std::to_string(in.options.mode) + ") between " +
                         report.between + " (those of one snapshot drawn where it has them, faded in or out)");
}

namespace {

// A frame of several views keeps its particles while each view projects a copy of them.
bool several_views(const Settings& s) { return view_paths(s.views, "").size() > 1; }

// The name of a frame's particles' copy on the GPU: the snapshot's signature.
GpuCopyKey gpu_key(const FramePlan& plan) { return {snapshot_signature(plan.input_keys, plan.normalization)}; }

// The snapshot file, read by this process for this frame alone.
class FileSource : public ParticleSource {
 public:
  FileSource(const FramePlan& plan, Console& console) : plan_(plan), console_(console) {}
  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    check_memory_before_read(plan_, *this, several_views(plan_.settings), nullptr, console_);
    const double before = clock.load_starts();
    SnapshotRequest input = plan_.settings.input;
    input.typed.region = plan_.region;
    loaded_ = load_snapshot(input, plan_.normalization, console_);
    clock.loaded(loaded_, before);
    report.particles_read = loaded_.read;
    report.particles_dropped = loaded_.dropped;
    report.notes.insert(report.notes.end(), loaded_.notes.begin(), loaded_.notes.end());
    return std::nullopt;
  }
  BoundingBox box() const override { return bounding_box(loaded_.particles); }
  const ParticleSet& particles() const override { return loaded_.particles; }
  Framing framing() const override { return framing_of(loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return loaded_.ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool keep) override {
    if (keep) return {splotch::project(loaded_.particles, geometry, plan_.settings.input.periodic)};
    if (plan_.settings.input.periodic) wrap_periodic(loaded_.particles, geometry.wrap_about());
    return {splotch::project(std::move(loaded_.particles), geometry)};
  }
  // (its host copy stays, for a GPU that fails)
  std::optional<GpuParticles> for_gpu(GeometryOptions&) override {
    return GpuParticles{gpu_key(plan_), &loaded_.particles};
  }
  std::shared_ptr<void> take_memory() override { return std::make_shared<LoadedSnapshot>(std::move(loaded_)); }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  const FramePlan& plan_;
  Console& console_;
  LoadedSnapshot loaded_;
};

// A snapshot through a scene's cache, and where it came from.
struct CacheLoad {
  enum From { kept, read_ahead, read } from;
  const LoadedSnapshot& loaded;
};

// The snapshot `signature` names where the scene has it: kept from the frames before, or read in
// the background (the wait timed as stage read).
std::optional<CacheLoad> cached(SnapshotCache& cache, const std::string& signature, const std::string& beside,
                                StageClock& clock, Console& console) {
  if (const LoadedSnapshot* kept = cache.kept(signature)) {
    clock.done("read");
    return CacheLoad{CacheLoad::kept, *kept};
  }
  if (const LoadedSnapshot* ahead = cache.take_read_ahead(signature, console, beside)) {
    clock.done("read");
    return CacheLoad{CacheLoad::read_ahead, *ahead};
  }
  return std::nullopt;
}

// The snapshot read now into the cache, beside `beside` (an interpolated frame's other one). The
// caller gives the kept snapshots' memory back first (SnapshotCache::clear), then checks the memory.
const LoadedSnapshot& read_into(SnapshotCache& cache, const std::string& signature, const std::string& beside,
                                const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization,
                                StageClock& clock, Console& console) {
  const double before = clock.load_starts();
  const LoadedSnapshot& loaded = cache.keep(signature, load_snapshot(input, normalization, console), beside);
  clock.loaded(loaded, before);
  return loaded;
}

// A scene's frame: the particles stay as they are for later frames (the cache), and the frame
// projects a copy of the active ones.
class CacheSource : public ParticleSource {
 public:
  CacheSource(const FramePlan& plan, SnapshotCache& cache, GpuCopies& copies, Console& console)
      : plan_(plan), cache_(cache), copies_(copies), console_(console) {}
  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    const std::string signature = gpu_key(plan_).snapshot;
    copies_.keep_only(signature);  // the snapshot before's copy on the GPU, where this is another
    std::optional<CacheLoad> got = cached(cache_, signature, "", clock, console_);
    if (!got) {
      cache_.clear("");
      check_memory_before_read(plan_, *this, true, nullptr, console_);
      got.emplace(CacheLoad{CacheLoad::read, read_into(cache_, signature, "", plan_.settings.input, plan_.normalization,
                                                       clock, console_)});
    }
    loaded_ = &got->loaded;
    if (got->from != CacheLoad::kept)
      report.notes.insert(report.notes.end(), loaded_->notes.begin(), loaded_->notes.end());
    report.reused = got->from == CacheLoad::kept;
    report.read_ahead = got->from == CacheLoad::read_ahead;
    report.particles_read = loaded_->read;
    report.particles_dropped = loaded_->dropped;
    return SnapshotLoaded{signature, loaded_->bytes(), loaded_->seconds()};
  }
  BoundingBox box() const override { return bounding_box(loaded_->particles); }
  const ParticleSet& particles() const override { return loaded_->particles; }
  Framing framing() const override { return framing_of(*loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return loaded_->ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    return {splotch::project(loaded_->particles, geometry, plan_.settings.input.periodic)};
  }
  // A scene of one snapshot (an orbit, a fly-through) copies it up once; one of a new snapshot
  // each frame copies each up, which costs less than the CPU's stages.
  std::optional<GpuParticles> for_gpu(GeometryOptions&) override {
    return GpuParticles{gpu_key(plan_), &loaded_->particles};
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  const FramePlan& plan_;
  SnapshotCache& cache_;
  GpuCopies& copies_;
  Console& console_;
  const LoadedSnapshot* loaded_ = nullptr;
};

// A frame between two snapshots (interpolation_mode): both loaded (from the scene's cache, which
// keeps the two for the frames between them, or read), and the particles between them drawn.
class InterpolationSource : public ParticleSource {
 public:
  InterpolationSource(const FramePlan& plan, SnapshotCache* cache, Console& console)
      : plan_(plan), cache_(cache), console_(console) {}
  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    const Settings& s = plan_.settings;
    const InterpolationSettings& in = s.interpolation;
    const std::string first_signature = snapshot_signature(plan_.input_keys, plan_.normalization);
    const std::string second_signature = snapshot_signature(in.second_input_keys, plan_.normalization);
    check_memory_before_read(plan_, *this, true, nullptr, console_);  // both snapshots, kept
    report.snapshot_reads = 0;
    const LoadedSnapshot& a = get(s.input, first_signature, second_signature, clock, report);
    const LoadedSnapshot& b = get(in.second_input, second_signature, first_signature, clock, report);
    interpolation_notes(in, a.particles, b.particles, console_, report);
    std::optional<SnapshotMatch> own;
    if (!cache_) own = match_snapshots(a.particles, b.particles);
    const SnapshotMatch& match = cache_ ? cache_->match(first_signature, second_signature) : *own;
    const InterpolationCounts counts = match.counts;
    particles_ = interpolate_snapshots(a.particles, b.particles, match, in.fraction, in.options);
    clock.done("interpolate");
    ranges_ = a.ranges;
    report.particles_read = a.read + b.read;
    report.particles_dropped = a.dropped + b.dropped;
    report.reused = report.snapshot_reads == 0;
    report_between(in, counts, report);
    if (!cache_) return std::nullopt;
    return SnapshotLoaded{second_signature, b.bytes(), b.seconds()};
  }
  BoundingBox box() const override { return bounding_box(particles_); }
  const ParticleSet& particles() const override { return particles_; }
  Framing framing() const override { return splotch::framing(particles_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return ranges_; }
  ProjectedSplats project(const GeometryOptions& geometry, bool keep) override {
    if (keep) return {splotch::project(particles_, geometry, plan_.settings.input.periodic)};
    if (plan_.settings.input.periodic) wrap_periodic(particles_, geometry.wrap_about());
    return {splotch::project(std::move(particles_), geometry)};
  }

 protected:
  std::optional<std::uint64_t> count() override { return particles_of_both(plan_.settings); }

 private:
  // A snapshot from the cache (or read), the other one, `beside`, staying kept.
  const LoadedSnapshot& get(const SnapshotRequest& input, const std::string& signature, const std::string& beside,
                            StageClock& clock, RunReport& report) {
    if (!cache_) {
      const double before = clock.load_starts();
      owned_.push_back(load_snapshot(input, plan_.normalization, console_));
      clock.loaded(owned_.back(), before);
      ++report.snapshot_reads;
      return owned_.back();
    }
    if (const std::optional<CacheLoad> got = cached(*cache_, signature, beside, clock, console_)) {
      report.read_ahead |= got->from == CacheLoad::read_ahead;
      report.snapshot_reads += got->from == CacheLoad::read_ahead;
      return got->loaded;
    }
    cache_->clear(beside);
    ++report.snapshot_reads;
    return read_into(*cache_, signature, beside, input, plan_.normalization, clock, console_);
  }

  const FramePlan& plan_;
  SnapshotCache* cache_;  // a scene's, or null
  Console& console_;
  std::deque<LoadedSnapshot> owned_;  // without a cache (a deque: the first stays in place)
  ParticleSet particles_;
  NormalizedRanges ranges_;
};

// What a data-parallel MPI run cannot do yet, said before any reading.
void check_data_parallel(const Settings& s, int processes) {
  const std::string why = share_obstacle(s.input, processes);
  if (!why.empty()) throw UserError(why);
}

// Data-parallel (docs/design.md section 6): this process reads and draws its share of every render
// type. The headers are read by rank 0 for all, as for the read (splotch/load/snapshot_load.cc),
// so the count is taken now, by every process together. In a scene (`cache`) the share stays for
// the frames after that draw the same snapshot, as a single process's does (CacheSource): every
// frame read and normalised its share again before, 1.5 s at 10^9 on two processes (on the host
// the kept share costs a second projection pass instead: docs/performance.md).
class ShareSource : public ParticleSource {
 public:
  ShareSource(const FramePlan& plan, const Comm& comm, SnapshotCache* cache, GpuCopies& copies, Console& console)
      : plan_(plan), comm_(comm), cache_(cache), copies_(copies), console_(console), request_(plan.settings.input) {
    check_data_parallel(plan.settings, comm.size());
    request_.raw.share = request_.typed.share = request_.table.share = ReadShare{comm.rank(), comm.size()};
    std::vector<std::uint64_t> known = {0, 0};
    if (comm.root())
      if (const std::optional<std::uint64_t> n = splotch::particles_to_read(request_)) known = {1, *n};
    comm.broadcast(known);
    set_count(known[0] ? std::optional<std::uint64_t>(known[1]) : std::nullopt);
  }
  std::optional<SnapshotLoaded> load(StageClock& clock, RunReport& report) override {
    const std::string signature = gpu_key(plan_).snapshot;
    if (cache_) copies_.keep_only(signature);  // (as CacheSource)
    // Kept by every process, or read again by all (the read is collective).
    if (cache_ && comm_.all(cache_->kept(signature) != nullptr)) {
      share_ = cache_->kept(signature);
      clock.done("read");
      report.reused = true;
      count_read(report);
      return std::nullopt;
    }
    if (cache_) cache_->clear();
    check_memory_before_read(plan_, *this, cache_ || several_views(plan_.settings), &comm_, console_);
    const double before = clock.load_starts();
    LoadedSnapshot loaded = load_snapshot_share(request_, plan_.normalization, comm_, console_);
    clock.loaded(loaded, before);
    share_ = cache_ ? &cache_->keep(signature, std::move(loaded)) : &(owned_ = std::move(loaded));
    count_read(report);
    report.notes.insert(report.notes.end(), share_->notes.begin(), share_->notes.end());
    if (report.particles_read == report.particles_dropped)
      throw UserError("'" + request_.path + "' holds no particle that can be drawn");
    if (request_.keep_fraction < 1 && comm_.sum(share_->particles.size()) == 0)
      throw UserError(
          preview_kept_none(request_.keep_fraction, report.particles_read - report.particles_dropped, request_.path));
    return std::nullopt;
  }
  BoundingBox box() const override { return framing().whole; }
  const ParticleSet& particles() const override { return share_->particles; }
  // Of every process's particles: every process asks (frame_camera), and the counts are summed.
  Framing framing() const override {
    FramingReduction over_processes;
    over_processes.sum = [this](std::vector<std::uint64_t>& counts) { comm_.sum(counts); };
    over_processes.min_max = [this](std::vector<float>& mins, std::vector<float>& maxs) { comm_.min_max(mins, maxs); };
    return framing_of(*share_, request_.periodic, over_processes);
  }
  NormalizedRanges ranges() const override { return share_->ranges; }
  // A share kept for later frames or views is projected as a copy; else its arrays are given up.
  ProjectedSplats project(const GeometryOptions& geometry, bool keep) override {
    ProjectedSplats p;
    agreed(&comm_, "drawing its share of the particles", [&] {
      if (keep || cache_) {
        p.splats = splotch::project(share_->particles, geometry, request_.periodic);
        return;
      }
      if (request_.periodic) wrap_periodic(owned_.particles, geometry.wrap_about());
      p.splats = splotch::project(std::move(owned_.particles), geometry);
    });
    return p;
  }
  // The share on this process's GPU: the pipeline draws from it only where every process has
  // one.
  std::optional<GpuParticles> for_gpu(GeometryOptions&) override {
    return GpuParticles{gpu_key(plan_), &share_->particles};
  }

 protected:
  std::optional<std::uint64_t> count() override { return std::nullopt; }  // (set in the constructor)

 private:
  void count_read(RunReport& report) const {
    report.particles_read = comm_.sum(share_->read);  // what all processes read
    report.particles_dropped = comm_.sum(share_->dropped);
  }

  const FramePlan& plan_;
  const Comm& comm_;
  SnapshotCache* cache_;  // a scene's, or null
  GpuCopies& copies_;
  Console& console_;
  SnapshotRequest request_;
  LoadedSnapshot owned_;                   // the share, where no cache keeps it
  const LoadedSnapshot* share_ = nullptr;  // owned_ or the cache's
};

}  // namespace

std::string share_obstacle(const SnapshotRequest& input, int processes) {
  for (std::size_t n = 0; n < input.typed.types.size() && has_particle_types(input.format); ++n)
    if (input.typed.types[n].size_estimate == SizeEstimate::knn) {
      const std::string N = std::to_string(n);
      const bool chosen = input.typed.types[n].estimate_chosen;
      return (chosen ? "render type " + N +
                           " has no smoothing lengths in the file, and estimating them from the nearest "
                           "neighbours (size_estimate" +
                           N + " = auto, the default)"
                     : "size_estimate" + N + " = knn") +
             " cannot run with " + std::to_string(processes) +
             " MPI processes: a process's share of the particles does not hold their neighbours; run it with one "
             "process, or give the smoothing lengths (size_fix" +
             N + " for one length, or size_label" + N + " for a field of the file)";
    }
  return "";
}

std::unique_ptr<ParticleSource> particle_source(const FramePlan& plan, SnapshotCache* cache, GpuCopies& copies,
                                                const Comm* comm, Console& console) {
  const bool interpolated = plan.settings.interpolation.between;
  if (interpolated && comm && comm->size() > 1)
    throw UserError("a frame between snapshots " + std::to_string(plan.settings.interpolation.first) + " and " +
                    std::to_string(plan.settings.interpolation.second) +
                    " (interpolation_mode, a fractional fidx) cannot be drawn by several MPI processes each holding a "
                    "share of the "
                    "particles: their IDs would have to be matched across processes; run the scene with "
                    "mpi_mode = frames, which deals whole frames out to the processes");
  if (interpolated) return std::make_unique<InterpolationSource>(plan, cache, console);
  if (comm && comm->size() > 1) return std::make_unique<ShareSource>(plan, *comm, cache, copies, console);
  if (cache) return std::make_unique<CacheSource>(plan, *cache, copies, console);
  return std::make_unique<FileSource>(plan, console);
}

}  // namespace splotch
