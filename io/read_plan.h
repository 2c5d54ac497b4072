// What a reader does once it knows where every value lies: it lists the runs of particles to copy
// from the files and the runs that get a constant, then carries the list out in parallel. Planning
// first lets every file and block be checked (and every error said) before the long reading.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/block_copy.h"
#include "io/gadget_reader.h"
#include "io/missing_field.h"
#include "io/particle_set.h"
#include "io/progress.h"
#include "io/read_share.h"

namespace splotch {

// A run of particles that all get `value`.
struct Fill {
  float* target;
  std::size_t count;
  float value;
};

struct ReadPlan {
  std::vector<Fill> fills;
  std::vector<BlockCopy> copies;
  std::vector<std::function<void()>> jobs;  // other reading that threads share (Tipsy records, text)
  // Reads through a library that must not be called from two threads at once (HDF5's chunked
  // and compressed datasets; even a thread-safe HDF5 holds one lock): one thread runs them, in
  // order, while the others do the rest.
  std::vector<std::function<void()>> library_reads;
  std::vector<std::function<void()>> finish;     // after every read (derived quantities)
  std::optional<ParticleArray<float>> scratch;   // read only to derive another quantity (densities)
  std::optional<ParticleArray<float>> divisors;  // a map's intensity divisors (RenderTypeRequest::intensity_divisor)
};

// Runs the fills, then the library reads on one OpenMP thread while the others share the jobs
// and copies, then the finishing steps; the first error is rethrown.
void run_read_plan(const ReadPlan& plan, const ProgressCallback& progress);

// Particle arrays for render types whose particles are [first[n], first[n + 1]): colour[1] and [2]
// when some type has vector colours (the plan fills the others' with 0), the type array when
// there are several render types.
ParticleSet allocate_particles(const std::vector<std::size_t>& first, const std::vector<RenderTypeRequest>& types,
                               ReadPlan& plan);

// The arrays a quantity goes to (up to three components; null: not wanted).
using QuantityTargets = std::array<ParticleArray<float>*, 3>;

// Plans what request `r` (render type `n`) needs of `count` particles of one file, which go to
// [at, at + count) of `p`: positions, hsml (size_fix or a label), colour, intensity. A quantity
// without a label gets its default; the others go to `read(quantity, components, targets, key)`,
// which plans the reading from the file (`key` names the parameter, for messages).
template <class Read>
void plan_request(const RenderTypeRequest& r, int n, std::size_t at, std::size_t count, ParticleSet& p, ReadPlan& plan,
                  Read&& read) {
  const std::string key = std::to_string(n);
  auto quantity = [&](const QuantityRequest& q, int components, QuantityTargets arrays, const std::string& name,
                      float absent) {
    if (q.label.empty()) {
      for (int j = 0; j < components; ++j) plan.fills.push_back({arrays[std::size_t(j)]->data() + at, count, absent});
      return;
    }
    read(q, components, arrays, name);
  };
  if (r.part == ReadPart::none) return;
  const bool all = r.part == ReadPart::all;
  // (a reread of values leaves the positions and sizes as the held snapshot has them)
  auto positions_and_sizes = [&] {
    quantity(QuantityRequest{"POS", 1.0f, std::nullopt}, 3, {&p.x, &p.y, &p.z}, "positions", 0.0f);
    if (r.size_estimate == SizeEstimate::knn) {
      plan.fills.push_back({p.hsml.data() + at, count, 1.0f});  // a placeholder, replaced after reading
    } else if (r.size_estimate == SizeEstimate::volume) {
      // hsml = factor (mass / density)^(1/3): the masses go to hsml, the densities to scratch.
      if (!plan.scratch) plan.scratch.emplace(p.size());  // one for every file and type
      ParticleArray<float>& density = *plan.scratch;
      read(QuantityRequest{"MASS", 1.0f, std::nullopt}, 1, {&p.hsml, nullptr, nullptr}, "size_estimate" + key);
      read(QuantityRequest{"RHO", 1.0f, std::nullopt}, 1, {&density, nullptr, nullptr}, "size_estimate" + key);
      float* hsml = p.hsml.data() + at;
      const float* rho = density.data() + at;
      const float factor = r.size.factor;
      plan.finish.push_back([hsml, rho, count, factor] {
#pragma omp parallel for schedule(static)
        for (std::size_t i = 0; i < count; ++i) hsml[i] = factor * std::cbrt(hsml[i] / rho[i]);
      });
    } else if (r.size_fix != 0) {
      plan.fills.push_back({p.hsml.data() + at, count, r.size_fix});
    } else {
      try {
        quantity(r.size, 1, {&p.hsml, nullptr, nullptr}, "size_label" + key, 1.0f);
      } catch (const MissingField& e) {  // what the user can do instead
        throw UserError(std::string(e.what()) + "; give type " + key + " one smoothing length with size_fix" + key +
                        " > 0, or estimate them with size_estimate" + key + " = knn");
      }
    }
  };
  if (all) positions_and_sizes();
  // A colour or intensity the file lacks is drawn with its absent default, as the original does,
  // and said once per type and label (the message names the fields the file has).
  auto or_absent = [&](const QuantityRequest& q, int components, QuantityTargets arrays, const std::string& name) {
    if (r.values_required) {
      try {
        quantity(q, components, arrays, name, 1.0f);
      } catch (const MissingField& e) {
        throw UserError(std::string(e.what()) + ": the map of type " + key + " needs it (map_quantity" + key +
                        ", map_weight" + key + "; bin/splotch --info lists the fields)");
      }
      return;
    }
    try {
      quantity(q, components, arrays, name, 1.0f);
    } catch (const MissingField& e) {
      for (int j = 0; j < components; ++j) plan.fills.push_back({arrays[std::size_t(j)]->data() + at, count, 1.0f});
      const std::string warning = std::string(e.what()) + ": type " + key + " is drawn with " +
                                  (name[0] == 'c' ? "colour" : "intensity") + " 1, as when " + name +
                                  " is left out (name a field the file has, or XXXX for none)";
      if (std::none_of(p.warnings.begin(), p.warnings.end(),
                       [&](const std::string& w) { return w.find("(" + name + ")") != std::string::npos; }))
        p.warnings.push_back(warning);  // the first file's: the others most likely lack it too
    }
  };
  // (a slice's densities first: without them there is no slice, whatever its quantity)
  if (!r.intensity_divisor.label.empty()) {
    if (!plan.divisors) plan.divisors.emplace(p.size());
    try {
      read(r.intensity_divisor, 1, {&*plan.divisors, nullptr, nullptr}, "map" + key);
    } catch (const UserError& e) {  // (a MissingField, or a block without this type's values)
      throw UserError(std::string(e.what()) + ": map = slice interpolates with each particle's volume, mass / " +
                      "density, and needs the densities (the SPH density field; particles without one, dark " +
                      "matter or stars, can be drawn with map = column or average)");
    }
    float* values = p.intensity.data() + at;
    const float* divisors = plan.divisors->data() + at;
    plan.finish.push_back([values, divisors, count] {
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < count; ++i) values[i] = divisors[i] > 0 ? values[i] / divisors[i] : 0.0f;
    });
  }
  if (r.vector_colour)
    or_absent(r.colour, 3, {&p.colour[0], &p.colour[1], &p.colour[2]}, "color_label" + key);
  else
    or_absent(r.colour, 1, {&p.colour[0], nullptr, nullptr},
              (r.values_required ? "map_quantity" : "color_label") + key);
  or_absent(r.intensity, 1, {&p.intensity, nullptr, nullptr}, (r.values_required ? "map" : "intensity_label") + key);
  // Interpolation between snapshots: the IDs (no components: integers, into p.id, where the
  // format has them) and for mode 2 the velocities.
  if (r.motion > 0 && all) {
    try {
      read(QuantityRequest{r.id_label, 1.0f, std::nullopt}, 0, {nullptr, nullptr, nullptr}, "id_label");
    } catch (const MissingField& e) {
      throw UserError(std::string(e.what()) +
                      "; interpolation matches the particles of two snapshots by their IDs: "
                      "name the IDs' block or dataset with id_label");
    }
    if (r.motion > 1)
      read(QuantityRequest{"VEL", 1.0f, std::nullopt}, 3, {&p.vx, &p.vy, &p.vz}, "interpolation_mode = 2 (velocities)");
  }
}

// What a ReadShare takes of each render type: [first, last) of its particles in file order over
// all files.
using ShareRanges = std::vector<std::pair<std::size_t, std::size_t>>;

// The ranges of `share` (ReadShare::ranges), from `count_of(f, t)`, the particles of file type t
// in file f (0 to files - 1).
template <class CountOf>
ShareRanges share_ranges(const std::vector<RenderTypeRequest>& types, std::size_t files, CountOf&& count_of,
                         const ReadShare& share) {
  std::vector<std::vector<std::size_t>> counts(files);
  for (std::size_t f = 0; f < files; ++f)
    for (const RenderTypeRequest& r : types) counts[f].push_back(std::size_t(count_of(f, r.file_type)));
  return share.ranges(counts, types.size());
}

// Which files hold particles of the ranges (and so are read).
template <class CountOf>
std::vector<bool> files_of_share(const std::vector<RenderTypeRequest>& types, std::size_t files, CountOf&& count_of,
                                 const ShareRanges& ranges) {
  std::vector<bool> used(files, false);
  for (std::size_t n = 0; n < types.size(); ++n) {
    std::size_t file_first = 0;
    for (std::size_t f = 0; f < files; ++f) {
      const std::size_t in_file = std::size_t(count_of(f, types[n].file_type));
      if (std::max(file_first, ranges[n].first) < std::min(file_first + in_file, ranges[n].second)) used[f] = true;
      file_first += in_file;
    }
  }
  return used;
}

// Each render type's first particle in the set, and the total last: render type n takes
// ranges[n] of the particles of file type types[n].file_type. A type the files hold none of
// stays empty (the settings warned of it: a movie's stars before the first has formed).
std::vector<std::size_t> render_type_starts(const std::vector<RenderTypeRequest>& types, const ShareRanges& ranges);

// Plans every render type from every file in turn: `count_of(f, t)` particles of file type t in
// file f (0 to files - 1), of which render type n takes ranges[n] over all files; a file's part of
// it, `count` particles from its `skip`-th of the type, is read by `read(f, t, quantity,
// components, targets, at, skip, count, key)` (see plan_request) into [at, at + count).
template <class CountOf, class Read>
void plan_files(const std::vector<RenderTypeRequest>& types, const std::vector<std::size_t>& first, std::size_t files,
                CountOf&& count_of, ParticleSet& p, ReadPlan& plan, Read&& read, const ShareRanges& ranges) {
  for (std::size_t n = 0; n < types.size(); ++n) {
    const RenderTypeRequest& r = types[n];
    const auto [lo, hi] = ranges[n];
    std::size_t at = first[n], file_first = 0;  // file_first: the file's first particle of the type, over all
    for (std::size_t f = 0; f < files; ++f) {
      const std::size_t in_file = std::size_t(count_of(f, r.file_type));
      const std::size_t from = std::max(file_first, lo), to = std::min(file_first + in_file, hi);
      file_first += in_file;
      if (from >= to) continue;
      const std::size_t skip = from - (file_first - in_file), count = to - from;
      plan_request(r, int(n), at, count, p, plan,
                   [&](const QuantityRequest& q, int components, QuantityTargets targets, const std::string& key) {
                     read(f, r.file_type, q, components, targets, at, skip, count, key);
                   });
      at += count;
    }
  }
}

}  // namespace splotch
