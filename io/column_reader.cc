#include "io/column_reader.h"

#include <algorithm>

#include "io/missing_field.h"
#include "io/read_plan.h"

namespace splotch {

ColumnWanted columns_wanted(const TypedSnapshotRequest& o) {
  ColumnWanted w;
  for (const RenderTypeRequest& r : o.types) {
    w.types.push_back(r.file_type);
    w.want("POS", 3);
    if (r.size_estimate == SizeEstimate::volume) {
      w.want("MASS", 1);
      w.want("RHO", 1);
    } else if (!r.size.label.empty()) {
      w.want(r.size.label, 1);
    }
    for (const QuantityRequest* q : {&r.colour, &r.intensity, &r.intensity_divisor})
      if (!q->label.empty()) w.want(q->label, q == &r.colour && r.vector_colour ? 3 : 1);
    if (r.motion > 0) w.ids = true;
    if (r.motion > 1) w.want("VEL", 3);
  }
  w.part = o.share.part;
  w.parts = o.share.parts;
  return w;
}

ParticleSet particles_from_columns(const ColumnSnapshot& s, const TypedSnapshotRequest& o,
                                   const ProgressCallback& progress, bool lend) {
  ShareRanges ranges;
  std::vector<const ColumnType*> of_type;
  for (const RenderTypeRequest& r : o.types) {
    const ColumnType* t = s.type(r.file_type);
    of_type.push_back(t);
    const std::size_t count = t ? t->count : 0;
    // (a share the reader took as whole files is this process's already)
    ranges.push_back(s.shared_by_file ? std::pair<std::size_t, std::size_t>(0, count) : o.share.of(count));
  }
  const std::vector<std::size_t> first = render_type_starts(o.types, ranges);
  ReadPlan plan;
  ParticleSet p = allocate_particles(first, o.types, plan);
  for (std::size_t n = 0; n < o.types.size(); ++n) {
    const ColumnType* t = of_type[n];
    const std::size_t skip = ranges[n].first, count = ranges[n].second - ranges[n].first;
    if (!t || count == 0) continue;
    const std::size_t at = first[n];
    plan_request(o.types[n], int(n), at, count, p, plan,
                 [&](const QuantityRequest& q, int components, QuantityTargets targets, const std::string& key) {
                   const std::string what = "'" + s.path + "' (" + s.description + ")";
                   if (components == 0) {
                     if (t->ids.size() < skip + count)
                       throw MissingField(what + " holds no IDs for type " + std::to_string(t->file_type) + " (" +
                                          t->name + ")" + " (" + key + ")");
                     const std::uint64_t* ids = t->ids.data() + skip;
                     std::uint64_t* out = p.id.data() + at;
                     plan.jobs.push_back([ids, out, count] { std::copy(ids, ids + count, out); });
                     return;
                   }
                   const std::vector<const Column*> columns = t->find(q.label, components);
                   if (columns.empty())
                     throw MissingField(what + " has no field '" + q.label + "'" +
                                        (components > 1 ? " of " + std::to_string(components) + " components" : "") +
                                        " for type " + std::to_string(t->file_type) + " (" + t->name + ") (" + key +
                                        "; it has: " + t->field_list() + ")");
                   for (int j = 0; j < components; ++j) {
                     const ParticleArray<float>& values = columns[std::size_t(j)]->values;
                     const float* in = values.data() + skip;
                     if (values.size() < skip + count)
                       throw MissingField(what + ": the field '" + columns[std::size_t(j)]->name + "' of type " +
                                          std::to_string(t->file_type) + " was not read (" + key + ")");
                     ParticleArray<float>* target = targets[std::size_t(j)];
                     // (the stages after reading copy what they change of positions and sizes first)
                     const bool whole = o.types.size() == 1 && skip == 0 && count == values.size();
                     if (lend && whole && q.factor == 1.0f &&
                         (target == &p.x || target == &p.y || target == &p.z || target == &p.hsml)) {
                       *target = lend_again(values);
                       continue;
                     }
                     float* out = target->data() + at;
                     const float factor = q.factor;
                     plan.jobs.push_back([in, out, count, factor] {
                       for (std::size_t i = 0; i < count; ++i) out[i] = in[i] * factor;
                     });
                   }
                 });
  }
  run_read_plan(plan, progress);
  p.time = s.time;
  p.redshift = s.redshift;
  p.box_size = s.box_size;
  p.units = s.units;
  return p;
}

}  // namespace splotch
