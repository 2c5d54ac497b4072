#include "splotch/load/values_reread.h"

#include <cmath>
#include <cstddef>

#include "io/read_snapshot.h"

namespace splotch {
namespace {

bool same(const QuantityRequest& a, const QuantityRequest& b) {
  return a.label == b.label && a.factor == b.factor && a.present == b.present;
}

// Everything of a render type but its colour and intensity (the IDs and velocities: `a` has
// those `b` asks for).
bool same_but_values(const RenderTypeRequest& a, const RenderTypeRequest& b) {
  return a.file_type == b.file_type && a.size_fix == b.size_fix && same(a.size, b.size) &&
         a.vector_colour == b.vector_colour && a.size_estimate == b.size_estimate && a.neighbours == b.neighbours &&
         a.estimate_if_constant == b.estimate_if_constant && a.motion >= b.motion &&
         (b.motion == 0 || a.id_label == b.id_label) && a.part == ReadPart::all && b.part == ReadPart::all;
}

bool same_values(const RenderTypeRequest& a, const RenderTypeRequest& b) {
  return same(a.colour, b.colour) && same(a.intensity, b.intensity) && same(a.intensity_divisor, b.intensity_divisor) &&
         a.values_required == b.values_required;
}

bool whole_read(const SnapshotRequest& r) {
  const bool typed = r.format == SnapshotFormat::gadget || r.format == SnapshotFormat::hdf5 ||
                     r.format == SnapshotFormat::tipsy || r.format == SnapshotFormat::arrays;
  return typed && r.keep_fraction >= 1 && !r.typed.region && r.typed.share.whole();
}

}  // namespace

std::vector<int> types_with_other_values(const SnapshotRequest& then, const SnapshotRequest& now) {
  if (!whole_read(then) || !whole_read(now) || then.format != now.format || then.path != now.path ||
      then.arrays != now.arrays || then.typed.files != now.typed.files ||
      then.typed.swap_endian != now.typed.swap_endian || then.periodic != now.periodic || then.ptypes != now.ptypes ||
      then.dimensions != now.dimensions || then.typed.types.size() != now.typed.types.size())
    return {};
  std::vector<int> which;
  for (std::size_t n = 0; n < now.typed.types.size(); ++n) {
    const RenderTypeRequest &a = then.typed.types[n], &b = now.typed.types[n];
    if (!same_but_values(a, b)) return {};
    if (!same_values(a, b)) which.push_back(int(n));
  }
  return which;
}

bool reread_values(LoadedSnapshot& loaded, const SnapshotRequest& now, const std::vector<int>& which,
                   const std::vector<TypeNormalization>& normalization, Console& console) {
  const std::size_t held = loaded.particles.size();
  if (which.empty() || loaded.dropped_kinds.bad_value > 0 || loaded.raw.intensity.size() != held) return false;
  SnapshotRequest values = now;
  for (RenderTypeRequest& r : values.typed.types) {
    r.part = ReadPart::none;
    r.motion = 0;  // (the IDs and velocities held stay)
  }
  for (int n : which) values.typed.types[std::size_t(n)].part = ReadPart::values;
  ParticleSet read = read_snapshot(values, console.progress("read"));
  console.end_progress();
  // The particles as read are those held, less the dropped ones, in the same order.
  if (read.size() != loaded.read || read.size() != held + loaded.raw.dropped_at.size()) return false;
  const std::vector<std::size_t>& dropped = loaded.raw.dropped_at;
  std::vector<bool> wanted(now.typed.types.size(), false);
  for (int n : which) wanted[std::size_t(n)] = true;
  const auto changed = [&](std::size_t i) {
    const std::size_t t = std::size_t(read.type_of(i));
    return t < wanted.size() && wanted[t];
  };
  std::vector<std::pair<ParticleArray<float>*, const ParticleArray<float>*>> fields{
      {&loaded.raw.intensity, &read.intensity}};
  for (int c = 0; c < 3; ++c)
    if (!loaded.raw.colour[c].empty() && read.colour[c].size() == read.size())
      fields.push_back({&loaded.raw.colour[c], &read.colour[c]});
  // A value a fresh load would drop the particle for: that load is the one to make.
  std::size_t bad = 0;
  for (const auto& field : fields) {
    const float* v = field.second->data();
    const std::size_t n = read.size();
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (std::size_t i = 0; i < n; ++i) bad += changed(i) && !std::isfinite(v[i]);
  }
  if (bad > 0) return false;
  for (const auto& [to, from] : fields) {
    float* out = to->data();
    const float* in = from->data();
    if (dropped.empty()) {
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < held; ++i)
        if (changed(i)) out[i] = in[i];
      continue;
    }
    std::size_t next = 0, k = 0;  // the next dropped place; the held particle of read particle i
    for (std::size_t i = 0; i < read.size(); ++i) {
      if (next < dropped.size() && dropped[next] == i) {
        ++next;
        continue;
      }
      if (changed(i)) out[k] = in[i];
      ++k;
    }
  }
  for (const std::string& w : read.warnings) console.warning(w);
  renormalize(loaded, normalization);
  return true;
}

}  // namespace splotch
