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

namespace {

// A frame of several views keeps its particles while each view projects a copy of them.
bool several_views(const Settings& s) { return view_paths(s.views, "").size() > 1; }

// A frame's particles copied whole to the GPU for its views, with the GPU chosen: their geometry,
// colour and ordering run there, as copying them up costs a fraction of what those stages cost on
// the CPU (10^8 particles on the H100 node: 0.06 s against 0.35 s). The host's copy stays, for a
// GPU that fails (failed()).
class GpuCopy {
 public:
  explicit GpuCopy(std::size_t window) : window_(window) {}
  DeviceParticles* get(const ParticleSet& particles, const std::function<CudaSession*()>& gpu, RunReport* report) {
    if (refused_) return nullptr;
    CudaSession* session = gpu();
    if (!session) return nullptr;
    if (kept_) return kept_.get();
    std::string why;
    try {
      kept_ = DeviceParticles::upload(particles, *session, &why, window_);
    } catch (const std::runtime_error& e) {  // a CUDA error while copying: drawn as if refused
      why = e.what();
      kept_.reset();
    }
    if (!kept_) {
      refused_ = true;
      if (report)
        report->notes.push_back(
            "geometry, colour and ordering on the CPU, the splats streamed to the GPU: the "
            "particles are not copied to the GPU whole (" +
            why + ")");
    }
    return kept_.get();
  }
  void failed(const std::string& why, Console& console) {
    kept_.reset();
    refused_ = true;
    console.warning("drawing on the GPU from the particles copied to it failed (" + why +
                    "): the view is projected, coloured and ordered on the CPU and drawn again");
  }
  void release() {
    kept_.reset();
    refused_ = true;
  }
  std::unique_ptr<DeviceParticles> take() { return std::move(kept_); }

 private:
  const std::size_t window_;
  std::unique_ptr<DeviceParticles> kept_;
  bool refused_ = false;
};

// The snapshot file, read by this process for this frame alone.
class FileSource : public ParticleSource {
 public:
  FileSource(const FramePlan& plan, std::size_t gpu_window, Console& console)
      : plan_(plan), console_(console), gpu_copy_(gpu_window) {}
  void load(StageClock& clock, RunReport& report) override {
    check_memory_before_read(plan_, *this, several_views(plan_.settings), nullptr, console_);
    const double before = clock.load_starts();
    loaded_ = load_snapshot(plan_.settings.input, plan_.normalization, console_);
    clock.loaded(loaded_, before);
    report.particles_read = loaded_.read;
    report.particles_dropped = loaded_.dropped;
    report.notes.insert(report.notes.end(), loaded_.notes.begin(), loaded_.notes.end());
    report_ = &report;
  }
  BoundingBox box() const override { return bounding_box(loaded_.particles); }
  Framing framing() const override { return framing_of(loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return loaded_.ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool keep) override {
    if (keep) return {splotch::project(loaded_.particles, geometry, plan_.settings.input.periodic)};
    if (plan_.settings.input.periodic) wrap_periodic(loaded_.particles, geometry.wrap_about());
    return {splotch::project(std::move(loaded_.particles), geometry)};
  }
  DeviceParticles* on_gpu(const std::function<CudaSession*()>& gpu, GeometryOptions&, Console&) override {
    return gpu_copy_.get(loaded_.particles, gpu, report_);
  }
  void gpu_failed(const std::string& why, Console& console) override { gpu_copy_.failed(why, console); }
  std::shared_ptr<void> take_memory() override {
    struct Owned {
      LoadedSnapshot loaded;
      std::unique_ptr<DeviceParticles> kept;  // (freed first: it was made from `loaded`)
    };
    return std::make_shared<Owned>(Owned{std::move(loaded_), gpu_copy_.take()});
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  const FramePlan& plan_;
  Console& console_;
  LoadedSnapshot loaded_;
  RunReport* report_ = nullptr;
  GpuCopy gpu_copy_;
};

// A snapshot through a scene's cache, and where it came from.
struct CacheLoad {
  enum From { kept, read_ahead, read } from;
  const LoadedSnapshot& loaded;
};

// The snapshot `signature` names: kept from the frames before, read in the background (the wait
// timed as stage read), or read now, once the memory of the kept snapshots (but `beside`, an
// interpolated frame's other one) is given back and `before_read` (the memory check) has run.
CacheLoad load_through_cache(SnapshotCache& cache, const std::string& signature, const std::string& beside,
                             const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization,
                             StageClock& clock, Console& console, const std::function<void()>& before_read) {
  if (const LoadedSnapshot* kept = cache.kept(signature)) {
    clock.done("read");
    return {CacheLoad::kept, *kept};
  }
  if (const LoadedSnapshot* ahead = cache.take_read_ahead(signature, console, beside)) {
    clock.done("read");
    return {CacheLoad::read_ahead, *ahead};
  }
  cache.clear(beside);
  before_read();
  const double before = clock.load_starts();
  const LoadedSnapshot& loaded = cache.keep(signature, load_snapshot(input, normalization, console), beside);
  clock.loaded(loaded, before);
  return {CacheLoad::read, loaded};
}

// A scene's frame: the particles stay as they are for later frames (the cache), and the frame
// projects a copy of the active ones.
class CacheSource : public ParticleSource {
 public:
  CacheSource(const FramePlan& plan, const FrameOptions& frame, Console& console)
      : plan_(plan), frame_(frame), console_(console) {}
  void load(StageClock& clock, RunReport& report) override {
    const std::string signature = snapshot_signature(plan_.input_keys, plan_.normalization);
    const CacheLoad got =
        load_through_cache(*frame_.cache, signature, "", plan_.settings.input, plan_.normalization, clock, console_,
                           [&] { check_memory_before_read(plan_, *this, true, nullptr, console_); });
    loaded_ = &got.loaded;
    signature_ = signature;
    if (frame_.kept_on_gpu && frame_.kept_on_gpu->signature != signature) {
      frame_.kept_on_gpu->particles.reset();  // another snapshot's
      frame_.kept_on_gpu->signature.clear();
    }
    if (got.from != CacheLoad::kept)
      report.notes.insert(report.notes.end(), loaded_->notes.begin(), loaded_->notes.end());
    report.reused = got.from == CacheLoad::kept;
    report.read_ahead = got.from == CacheLoad::read_ahead;
    report.particles_read = loaded_->read;
    report.particles_dropped = loaded_->dropped;
    if (frame_.loaded) frame_.loaded(signature, loaded_->bytes(), loaded_->seconds());
  }
  BoundingBox box() const override { return bounding_box(loaded_->particles); }
  Framing framing() const override { return framing_of(*loaded_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return loaded_->ranges; }
  ProjectedSplats project(const GeometryOptions& geometry, bool) override {
    return {splotch::project(loaded_->particles, geometry, plan_.settings.input.periodic)};
  }
  // A scene of one snapshot (an orbit, a fly-through) copies it up once; one of a new snapshot
  // each frame copies each up, which costs less than the CPU's stages (FileSource::on_gpu).
  DeviceParticles* on_gpu(const std::function<CudaSession*()>& gpu, GeometryOptions&, Console& console) override {
    KeptOnGpu* kept = frame_.kept_on_gpu;
    if (!kept || kept->refused_signature == signature_) return nullptr;
    CudaSession* session = gpu();  // the frame's renderer chosen, and its session made ready to draw
    if (!session) return nullptr;
    if (kept->particles) return kept->particles.get();
    std::string why;
    try {
      kept->particles = DeviceParticles::upload(loaded_->particles, *session, &why);
    } catch (const std::runtime_error& e) {  // a CUDA error while copying
      kept->particles.reset();
      gpu_failed(e.what(), console);
      return nullptr;
    }
    if (!kept->particles) {
      // Too large for the GPU: said once in a scene (a sequence of such snapshots would say it
      // every frame), and its frames' stages run on the CPU.
      const bool said = !kept->refused.empty();
      kept->refused = why;
      kept->refused_signature = signature_;
      if (!said)
        console.warning("the scene's snapshot is not copied to the GPU whole (" + why +
                        "): the frames of such snapshots are projected, coloured and ordered on the CPU, which is "
                        "slower (the GPU still draws)");
      return nullptr;
    }
    kept->signature = signature_;
    return kept->particles.get();
  }
  void gpu_failed(const std::string& why, Console& console) override {
    KeptOnGpu* kept = frame_.kept_on_gpu;
    kept->particles.reset();
    kept->signature.clear();
    kept->refused = why;
    kept->refused_signature = signature_;
    console.warning("drawing on the GPU from the scene's snapshot copied to it failed (" + why +
                    "): the frames of this snapshot are projected, coloured and ordered on the CPU, which is slower "
                    "(the GPU still draws)");
  }

 protected:
  std::optional<std::uint64_t> count() override { return splotch::particles_to_read(plan_.settings.input); }

 private:
  const FramePlan& plan_;
  const FrameOptions& frame_;
  Console& console_;
  const LoadedSnapshot* loaded_ = nullptr;
  std::string signature_;
};

// A frame between two snapshots (interpolation_mode): both loaded (from the scene's cache, which
// keeps the two for the frames between them, or read), and the particles between them drawn.
class InterpolationSource : public ParticleSource {
 public:
  InterpolationSource(const FramePlan& plan, const FrameOptions& frame, Console& console)
      : plan_(plan), frame_(frame), console_(console) {}
  void load(StageClock& clock, RunReport& report) override {
    const Settings& s = plan_.settings;
    const InterpolationSettings& in = s.interpolation;
    const std::string first_signature = snapshot_signature(plan_.input_keys, plan_.normalization);
    const std::string second_signature = snapshot_signature(in.second_input_keys, plan_.normalization);
    check_memory_before_read(plan_, *this, true, nullptr, console_);  // both snapshots, kept
    report.snapshot_reads = 0;
    const LoadedSnapshot& a = get(s.input, first_signature, second_signature, clock, report);
    const LoadedSnapshot& b = get(in.second_input, second_signature, first_signature, clock, report);
    if (in.options.mode == 2 && !(b.particles.time > a.particles.time))
      console_.warning("interpolation_mode = 2: snapshot " + std::to_string(in.second) + "'s header time (" +
                       number_text(b.particles.time) + ") is not after snapshot " + std::to_string(in.first) + "'s (" +
                       number_text(a.particles.time) +
                       "): there is no time between them for the velocities to span, so the particles move on the "
                       "cubic without them; check the snapshots, or use interpolation_mode = 1");
    if (in.options.mode == 2 && comoving_times(a.particles, b.particles) &&
        (a.particles.redshift < 0 || b.particles.redshift < 0))
      report.notes.push_back("interpolation_mode = 2: the snapshots' headers give no redshift, and their times (" +
                             number_text(a.particles.time) + ", " + number_text(b.particles.time) +
                             ") are taken as scale factors of a cosmological run (hubble, omega, lambda)");
    if (in.options.mode == 2 && b.particles.time > a.particles.time && !comoving_times(a.particles, b.particles))
      report.notes.push_back("interpolation_mode = 2: the snapshots' header times (" + number_text(a.particles.time) +
                             ", " + number_text(b.particles.time) +
                             ") are not scale factors, so the run is taken as one in physical time: a velocity v "
                             "moves a particle v (t2 - t1) in the file's units");
    std::optional<SnapshotMatch> own;
    if (!frame_.cache) own = match_snapshots(a.particles, b.particles);
    const SnapshotMatch& match = frame_.cache ? frame_.cache->match(first_signature, second_signature) : *own;
    const InterpolationCounts counts = match.counts;
    particles_ = interpolate_snapshots(a.particles, b.particles, match, in.fraction, in.options);
    clock.done("interpolate");
    ranges_ = a.ranges;
    report.particles_read = a.read + b.read;
    report.particles_dropped = a.dropped + b.dropped;
    report.reused = report.snapshot_reads == 0;
    char share[32];
    std::snprintf(share, sizeof share, "%.4g%%", 100 * in.fraction);
    const std::string first = std::to_string(in.first), second = std::to_string(in.second);
    report.between = "snapshots " + first + " to " + second + " at " + share + ": " + std::to_string(counts.matched) +
                     " particles matched, " + std::to_string(counts.only_first) + " only in " + first + ", " +
                     std::to_string(counts.only_second) + " only in " + second;
    report.notes.push_back("interpolated (interpolation_mode = " + std::to_string(in.options.mode) + ") between " +
                           report.between + " (those of one snapshot drawn where it has them, faded in or out)");
    if (frame_.loaded) frame_.loaded(second_signature, b.bytes(), b.seconds());
  }
  BoundingBox box() const override { return bounding_box(particles_); }
  Framing framing() const override { return splotch::framing(particles_, plan_.settings.input.periodic); }
  NormalizedRanges ranges() const override { return ranges_; }
  ProjectedSplats project(const GeometryOptions& geometry, bool keep) override {
    if (keep) return {splotch::project(particles_, geometry, plan_.settings.input.periodic)};
    if (plan_.settings.input.periodic) wrap_periodic(particles_, geometry.wrap_about());
    return {splotch::project(std::move(particles_), geometry)};
  }

 protected:
  std::optional<std::uint64_t> count() override {
    const std::optional<std::uint64_t> a = splotch::particles_to_read(plan_.settings.input);
    const std::optional<std::uint64_t> b = splotch::particles_to_read(plan_.settings.interpolation.second_input);
    if (!a || !b) return std::nullopt;
    return *a + *b;
  }

 private:
  // A snapshot from the cache (or read), the other one, `beside`, staying kept.
  const LoadedSnapshot& get(const SnapshotRequest& input, const std::string& signature, const std::string& beside,
                            StageClock& clock, RunReport& report) {
    if (!frame_.cache) {
      const double before = clock.load_starts();
      owned_.push_back(load_snapshot(input, plan_.normalization, console_));
      clock.loaded(owned_.back(), before);
      ++report.snapshot_reads;
      return owned_.back();
    }
    const CacheLoad got =
        load_through_cache(*frame_.cache, signature, beside, input, plan_.normalization, clock, console_, [] {});
    report.read_ahead |= got.from == CacheLoad::read_ahead;
    report.snapshot_reads += got.from != CacheLoad::kept;
    return got.loaded;
  }

  const FramePlan& plan_;
  const FrameOptions& frame_;
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
  ShareSource(const FramePlan& plan, const Comm& comm, SnapshotCache* cache, std::size_t gpu_window, Console& console)
      : plan_(plan),
        comm_(comm),
        cache_(cache),
        console_(console),
        request_(plan.settings.input),
        gpu_copy_(gpu_window) {
    check_data_parallel(plan.settings, comm.size());
    request_.raw.share = request_.typed.share = request_.table.share = ReadShare{comm.rank(), comm.size()};
    std::vector<std::uint64_t> known = {0, 0};
    if (comm.root())
      if (const std::optional<std::uint64_t> n = splotch::particles_to_read(request_)) known = {1, *n};
    comm.broadcast(known);
    set_count(known[0] ? std::optional<std::uint64_t>(known[1]) : std::nullopt);
  }
  void load(StageClock& clock, RunReport& report) override {
    report_ = &report;
    const std::string signature = cache_ ? snapshot_signature(plan_.input_keys, plan_.normalization) : "";
    // Kept by every process, or read again by all (the read is collective).
    if (cache_ && comm_.all(cache_->kept(signature) != nullptr)) {
      share_ = cache_->kept(signature);
      clock.done("read");
      report.reused = true;
      count_read(report);
      return;
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
  }
  BoundingBox box() const override { return framing().whole; }
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
  // one (and with a_eq_e, whose images are summed in any order).
  DeviceParticles* on_gpu(const std::function<CudaSession*()>& gpu, GeometryOptions&, Console&) override {
    return gpu_copy_.get(share_->particles, gpu, report_);
  }
  void gpu_failed(const std::string& why, Console& console) override { gpu_copy_.failed(why, console); }
  void gpu_declined() override { gpu_copy_.release(); }

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
  Console& console_;
  SnapshotRequest request_;
  LoadedSnapshot owned_;                   // the share, where no cache keeps it
  const LoadedSnapshot* share_ = nullptr;  // owned_ or the cache's
  RunReport* report_ = nullptr;
  GpuCopy gpu_copy_;
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

std::unique_ptr<ParticleSource> particle_source(const FramePlan& plan, const FrameOptions& frame, const Comm* comm,
                                                Console& console) {
  if (frame.source) return frame.source(plan, console);
  const bool interpolated = plan.settings.interpolation.between;
  if (interpolated && comm && comm->size() > 1)
    throw UserError("a frame between snapshots " + std::to_string(plan.settings.interpolation.first) + " and " +
                    std::to_string(plan.settings.interpolation.second) +
                    " (interpolation_mode, a fractional fidx) cannot be drawn by several MPI processes each holding a "
                    "share of the "
                    "particles: their IDs would have to be matched across processes; run the scene with "
                    "mpi_mode = frames, which deals whole frames out to the processes");
  if (interpolated) return std::make_unique<InterpolationSource>(plan, frame, console);
  if (comm && comm->size() > 1)
    return std::make_unique<ShareSource>(plan, *comm, frame.cache, frame.gpu_window, console);
  if (frame.cache) return std::make_unique<CacheSource>(plan, frame, console);
  return std::make_unique<FileSource>(plan, frame.gpu_window, console);
}

}  // namespace splotch
