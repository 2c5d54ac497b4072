#include "splotch/load/snapshot_load.h"

#include <algorithm>
#include <cstdio>

#include "errors/user_error.h"
#include "io/read_snapshot.h"
#include "splotch/load/estimate_hsml.h"
#include "splotch/load/particle_check.h"
#include "splotch/load/preview_subset.h"
#include "splotch/stages/camera_placement.h"
#include "splotch/util/stopwatch.h"

namespace splotch {
namespace {

std::string count_text(std::size_t n, const char* what) { return std::to_string(n) + " " + what; }

void warn_dropped(const DroppedParticles& d, std::size_t read, const std::string& path, Console& console) {
  if (d.total() == 0) return;
  std::string parts;
  auto add = [&](std::size_t n, const char* what) {
    if (n == 0) return;
    if (!parts.empty()) parts += ", ";
    parts += count_text(n, what);
  };
  add(d.bad_position, "with a NaN or infinite position");
  add(d.bad_hsml, "with a zero, negative or non-finite smoothing length");
  add(d.bad_value, "with a NaN or infinite intensity or colour");
  console.warning(std::to_string(d.total()) + " of " + std::to_string(read) + " particles of '" + path +
                  "' skipped: " + parts);
}

// Smoothing lengths far beyond the particles' own extent (1e30, a unit or factor gone wrong) make
// every such particle cover the whole picture: said, with where they come from.
void warn_huge_smoothing_lengths(const ParticleSet& p, const std::string& path, Console& console) {
  const std::size_t n = p.size();
  if (n < 2) return;
  const float* h = p.hsml.data();
  float largest = 0;
#pragma omp parallel for schedule(static) reduction(max : largest)
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, h[i]);
  // The extent of a sample of the positions is at most the whole's: when the largest smoothing
  // length is within 10 times it (the usual case), no pass over all the positions is needed.
  const std::size_t stride = std::max<std::size_t>(1, n >> 16);
  double sampled = 0;
  for (const ParticleArray<float>* axis : {&p.x, &p.y, &p.z}) {
    float lo = (*axis)[0], hi = lo;
    for (std::size_t i = 0; i < n; i += stride) lo = std::min(lo, (*axis)[i]), hi = std::max(hi, (*axis)[i]);
    sampled = std::max(sampled, double(hi) - double(lo));
  }
  if (double(largest) <= 10 * sampled) return;
  const BoundingBox box = bounding_box(p);
  const double extent = std::max({box.hi.x - box.lo.x, box.hi.y - box.lo.y, box.hi.z - box.lo.z});
  if (!(extent > 0)) return;
  const float limit = float(std::min(1e37, 10 * extent));
  std::size_t huge = 0;
#pragma omp parallel for schedule(static) reduction(+ : huge)
  for (std::size_t i = 0; i < n; ++i) huge += h[i] > limit;
  if (huge == 0) return;
  char text[64];
  std::snprintf(text, sizeof text, "%.3g (the particles span %.3g)", double(largest), extent);
  console.warning(std::to_string(huge) + " of " + std::to_string(n) + " particles of '" + path +
                  "' have smoothing lengths over 10 times the extent of all the particles, the largest " + text +
                  ": each covers the whole picture; check the smoothing lengths' source (size_fixN, size_facN, the "
                  "file's HSML field, r and smooth_factor for raw files)");
}

void check_types(const ParticleSet& p, int ptypes, const std::string& path) {
  if (p.type.empty()) return;
  const int highest = *std::max_element(p.type.begin(), p.type.end());
  if (highest >= ptypes)
    throw UserError("'" + path + "' holds particles of type " + std::to_string(highest) +
                    " but ptypes = " + std::to_string(ptypes) + "; raise ptypes");
}

template <class A>
std::size_t array_bytes(const A& a) {
  return a.size() * sizeof(typename A::value_type);
}

}  // namespace

std::size_t LoadedSnapshot::bytes() const {
  const ParticleSet& p = particles;
  std::size_t n = array_bytes(p.x) + array_bytes(p.y) + array_bytes(p.z) + array_bytes(p.hsml) +
                  array_bytes(p.intensity) + array_bytes(p.type) + array_bytes(p.id) + array_bytes(p.vx) +
                  array_bytes(p.vy) + array_bytes(p.vz);
  for (const auto& c : p.colour) n += array_bytes(c);
  n += array_bytes(raw.intensity);
  for (const auto& c : raw.colour) n += array_bytes(c);
  return n + raw.dropped_at.size() * sizeof(std::size_t);
}

double LoadedSnapshot::seconds() const {
  double sum = 0;
  for (const auto& stage : stages) sum += stage.second;
  return sum;
}

namespace {

template <class T>
void copy_array(const ParticleArray<T>& from, ParticleArray<T>& to) {
  to.resize(from.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < from.size(); ++i) to[i] = from[i];
}

LoadedSnapshot load(const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization, Console& console,
                    bool share, const RangeReduction& reduce, const FramingReduction& framing_reduction,
                    bool keep_raw = false) {
  Stopwatch clock;
  LoadedSnapshot out;
  out.particles = read_snapshot(input, console.progress("read"));
  console.end_progress();
  out.read = out.particles.size();
  for (const std::string& w : out.particles.warnings) console.warning(w);
  out.notes.insert(out.notes.end(), out.particles.notes.begin(), out.particles.notes.end());
  const std::vector<bool> estimate = types_to_estimate(out.particles, input, share, out.notes, out.shared_warnings);
  if (!share)
    for (const std::string& w : out.shared_warnings) console.warning(w);
  const DroppedParticles dropped = drop_invalid_particles(out.particles, keep_raw ? &out.raw.dropped_at : nullptr);
  warn_dropped(dropped, out.read, input.path, console);
  out.dropped = dropped.total();
  out.dropped_kinds = dropped;
  // Before a preview's thinning, so that a preview is framed as the full render is.
  if (input.keep_fraction < 1) out.framing = framing(out.particles, input.periodic, framing_reduction);
  if (input.keep_fraction < 1) {
    const std::size_t valid = out.particles.size();
    if (keep_preview_subset(out.particles, input.keep_fraction) == 0 && valid > 0 && !share)
      throw UserError(preview_kept_none(input.keep_fraction, valid, input.path));
  }
  if (out.particles.size() == 0 && !share) throw UserError("'" + input.path + "' holds no particle that can be drawn");
  check_types(out.particles, input.ptypes, input.path);
  out.stages.push_back({"read", clock.lap()});
  if (std::find(estimate.begin(), estimate.end(), true) != estimate.end()) {
    estimate_smoothing_lengths(out.particles, input, estimate, out.notes, console);
    out.stages.push_back({"hsml", clock.lap()});
  }
  // (after the estimate: its placeholders are no smoothing lengths to warn about)
  warn_huge_smoothing_lengths(out.particles, input.path, console);
  if (keep_raw) {
    copy_array(out.particles.intensity, out.raw.intensity);
    for (int c = 0; c < 3; ++c) copy_array(out.particles.colour[c], out.raw.colour[c]);
  }
  out.ranges = normalize(out.particles, normalization, reduce);
  out.stages.push_back({"normalize", clock.lap()});
  return out;
}

}  // namespace

const Framing& framing_of(const LoadedSnapshot& loaded, bool periodic, const FramingReduction& reduce) {
  if (!loaded.framing) loaded.framing = framing(loaded.particles, periodic, reduce);
  return *loaded.framing;
}

LoadedSnapshot load_snapshot(const SnapshotRequest& input, const std::vector<TypeNormalization>& normalization,
                             Console& console, bool keep_raw) {
  return load(input, normalization, console, false, {}, {}, keep_raw);
}

double renormalize(LoadedSnapshot& loaded, const std::vector<TypeNormalization>& normalization) {
  Stopwatch clock;
  copy_array(loaded.raw.intensity, loaded.particles.intensity);
  for (int c = 0; c < 3; ++c) copy_array(loaded.raw.colour[c], loaded.particles.colour[c]);
  loaded.ranges = normalize(loaded.particles, normalization);
  return clock.lap();
}

namespace {

// The share's input: with the counts of a many-file snapshot's files read by rank 0 for all, so
// that each process opens only the files it reads (on a parallel file system, every process
// opening every header is a storm of metadata requests).
SnapshotRequest with_file_counts(const SnapshotRequest& input, const Comm& comm) {
  SnapshotRequest mine = input;
  const bool many_files = mine.typed.files.size() > 1 && counts_per_file(input.format);
  if (!many_files || comm.size() == 1) return mine;
  std::vector<std::uint64_t> flat;
  agreed(&comm, "reading the files' headers", [&] {
    if (!comm.root()) return;
    for (const auto& file : snapshot_file_counts(input)) {
      flat.push_back(file.size());
      flat.insert(flat.end(), file.begin(), file.end());
    }
  });
  comm.broadcast(flat);
  for (std::size_t at = 0; at < flat.size(); at += 1 + std::size_t(flat[at]))
    mine.typed.share.file_counts.emplace_back(flat.begin() + std::ptrdiff_t(at + 1),
                                              flat.begin() + std::ptrdiff_t(at + 1 + flat[at]));
  return mine;
}

}  // namespace

LoadedSnapshot load_snapshot_share(const SnapshotRequest& shared, const std::vector<TypeNormalization>& normalization,
                                   const Comm& comm, Console& console) {
  Stopwatch clock;
  const SnapshotRequest input = with_file_counts(shared, comm);
  const double counting = clock.seconds();
  // The processes agree once, at the first reduction (the framing's, else the ranges'): a process
  // that failed before (say, reading its files) says so there instead of reducing.
  bool agreed = false;
  auto agree = [&] {
    if (agreed) return;
    agreed = true;
    const std::string error = comm.first_error("");
    if (!error.empty()) throw UserError(error);
  };
  FramingReduction framing_reduction;
  framing_reduction.sum = [&](std::vector<std::uint64_t>& counts) {
    agree();
    comm.sum(counts);
  };
  framing_reduction.min_max = [&](std::vector<float>& mins, std::vector<float>& maxs) {
    agree();
    comm.min_max(mins, maxs);
  };
  auto reduce = [&](std::vector<TypeRanges>& ranges) {
    agree();
    std::vector<float> mins, maxs;
    for (const TypeRanges& r : ranges) {
      mins.insert(mins.end(), {r.colour.min, r.intensity.min});
      maxs.insert(maxs.end(), {r.colour.max, r.intensity.max});
    }
    comm.min_max(mins, maxs);
    for (std::size_t t = 0; t < ranges.size(); ++t) {
      ranges[t].colour = {mins[2 * t], maxs[2 * t]};
      ranges[t].intensity = {mins[2 * t + 1], maxs[2 * t + 1]};
    }
  };
  Console quiet{Console::Holding{}};  // the counts of all processes are said instead
  std::string failure;
  LoadedSnapshot out;
  try {
    out = load(input, normalization, quiet, true, reduce, framing_reduction);
  } catch (const std::bad_alloc&) {
    if (agreed) throw;
    failure = "out of memory reading its share of '" + input.path + "'";
  } catch (const std::exception& e) {
    if (agreed) throw;
    failure = e.what();
  }
  if (!agreed) throw UserError(comm.first_error(failure));
  if (!out.stages.empty()) out.stages[0].second += counting;  // part of reading
  const DroppedParticles& d = out.dropped_kinds;
  std::vector<std::uint64_t> all = {out.read, d.bad_position, d.bad_hsml, d.bad_value};
  comm.sum(all);
  warn_dropped({all[1], all[2], all[3]}, all[0], input.path, console);
  for (const std::string& w : out.shared_warnings) console.warning(w);  // (said by the process that speaks)
  return out;
}

}  // namespace splotch
