#include "io/tipsy_reader.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>

#include "errors/user_error.h"
#include "io/missing_field.h"
#include "io/read_plan.h"
#include "io/tipsy_aux_array.h"
#include "io/tipsy_file.h"

namespace splotch {
namespace {

// Records to read in pieces (a type's, or a binary auxiliary array's) and the columns taken
// from them; each column's `out` is the render type's first particle.
struct Source {
  TipsyRecords records;
  std::size_t count = 0;
  std::vector<TipsyColumn> columns;
};

// The values of an ASCII auxiliary array for one render type: one job, text being sequential.
struct TextRead {
  const TipsyAuxArray* array;
  std::uint64_t first;  // in file order
  std::size_t count;
  float* out;
  float factor;
};

// Lists what loads the particles of each render type: columns of the type's records, auxiliary
// arrays (binary ones as records of one value) and the fills of the shared plan.
class Planner {
 public:
  Planner(const TipsyFile& file, ParticleSet& p, ReadPlan& plan) : file_(file), p_(p), plan_(plan) {}

  std::deque<Source> sources;
  std::vector<TextRead> texts;

  // Render type n: `count` particles of its file type from the `skip`-th, to [first, first + count).
  void plan_type(int n, const RenderTypeRequest& r, std::size_t first, std::size_t skip, std::size_t count) {
    const int t = r.file_type;
    TipsyRecords type_records = file_.records(t);
    type_records.start += skip * type_records.record_bytes;
    Source records{type_records, count, {}};
    plan_request(r, n, first, records.count, p_, plan_,
                 [&](const QuantityRequest& q, int components, QuantityTargets targets, const std::string& key) {
                   if (components == 0) return;  // no IDs: the particles of two snapshots match by order
                   quantity(records, t, skip, q, components, targets, first, key);
                 });
    sources.push_back(std::move(records));
    // No IDs in the file: a particle's place in it (gas, dark, star records in turn) stands in, so
    // that the particles of two snapshots match by it even after some are dropped.
    if (!p_.id.empty()) {
      std::uint64_t base = 0;
      for (int before = 0; before < t; ++before) base += file_.count(before);
      for (std::size_t k = 0; k < count; ++k) p_.id[first + k] = base + skip + k;
    }
  }

 private:
  // From the type's records or an auxiliary array.
  void quantity(Source& records, int t, std::size_t skip, const QuantityRequest& q, int components,
                QuantityTargets arrays, std::size_t first, const std::string& key) {
    const std::size_t count = records.count;
    if (const TipsyField* f = file_.field(t, q.label)) {
      check_components(*f, components, q.label, key);
      for (int j = 0; j < components; ++j)
        records.columns.push_back({f->offset + std::size_t(j) * std::size_t(f->value_bytes), f->value_bytes,
                                   arrays[std::size_t(j)]->data() + first, q.factor});
      return;
    }
    const std::string aux_path = file_.path() + "." + q.label;
    if (components == 1 && ::access(aux_path.c_str(), F_OK) == 0) {
      const TipsyAuxArray& aux = aux_array(aux_path);
      float* out = arrays[0]->data() + first;
      if (aux.binary()) {
        const TipsyRecords values = aux.records(file_.first_index(t) + skip);
        sources.push_back({values, count, {{0, int(values.record_bytes), out, q.factor}}});
      } else {
        texts.push_back({&aux, file_.first_index(t) + skip, count, out, q.factor});
      }
      return;
    }
    missing(t, q.label, components, key, aux_path);
  }

  void check_components(const TipsyField& f, int components, const std::string& label, const std::string& key) const {
    if (f.components == components) return;
    if (components == 3)
      throw UserError(key + " = " + label + ": vector colours need a field of 3 values per particle (pos, vel), but " +
                      f.name + " has one");
    const bool colour = key.rfind("color_label", 0) == 0;
    throw UserError(
        key + " = " + label + ": " + f.name + " has 3 values per particle where one is needed" +
        (colour ? "; for vector colours give color_is_vector" + key.substr(11) + " = TRUE" : std::string()));
  }

  [[noreturn]] void missing(int t, const std::string& label, int components, const std::string& key,
                            const std::string& aux_path) const {
    const std::string name = tipsy_field_name(label);
    const std::string type = tipsy_type_name(t);
    const bool alias = !name.empty() && name != label;  // say which field an alias means
    std::string what = "Tipsy file '" + file_.path() + "' has no field '" + label + "'" +
                       (alias ? " (" + name + ")" : "") + " (" + key + ") for its " + std::to_string(file_.count(t)) +
                       " " + type + " particles: " + type + " records hold " + file_.field_names(t);
    if (components == 3) throw MissingField(what + "; vector colours need pos or vel");
    what += ", and there is no auxiliary array '" + aux_path + "'";
    throw MissingField(what);
  }

  // Each auxiliary array is opened once, however many quantities take it.
  const TipsyAuxArray& aux_array(const std::string& path) {
    auto& slot = aux_[path];
    if (!slot) slot = std::make_unique<TipsyAuxArray>(path, file_.total(), file_.swapped());
    return *slot;
  }

  const TipsyFile& file_;
  ParticleSet& p_;
  ReadPlan& plan_;
  std::map<std::string, std::unique_ptr<TipsyAuxArray>> aux_;  // read from until the planner goes
};

std::string file_list(const std::vector<std::string>& files) {
  std::string s;
  for (std::size_t k = 0; k < files.size() && k < 3; ++k) s += (k ? ", '" : "'") + files[k] + "'";
  return files.size() > 3 ? s + ", ..." : s;
}

// Each render type's first particle in the set (and the total, last), checking the ptypes.
std::vector<std::size_t> type_starts(const TipsyFile& file, const std::vector<RenderTypeRequest>& types,
                                     ReadShare share) {
  std::vector<std::size_t> first(types.size() + 1, 0);
  for (std::size_t n = 0; n < types.size(); ++n) {
    const int t = types[n].file_type;
    const std::string key = "ptype" + std::to_string(n);
    if (t < 0 || t >= tipsy_types)
      throw UserError(key + " = " + std::to_string(t) + ": Tipsy particle types are 0 (gas), 1 (dark) and 2 (star)");
    first[n + 1] = first[n] + share.size_of(std::size_t(file.count(t)));
  }
  return first;
}

}  // namespace

ParticleSet read_tipsy(const TypedSnapshotRequest& o, const ProgressCallback& progress) {
  if (o.files.empty()) throw std::invalid_argument("read_tipsy: no files");
  if (o.files.size() > 1)
    throw UserError("a Tipsy snapshot is one file, but " + std::to_string(o.files.size()) + " were given (" +
                    file_list(o.files) + "): name the one file with infile and numfiles = 1");
  const TipsyFile file(o.files[0], o.swap_endian);
  const std::vector<std::size_t> first = type_starts(file, o.types, o.share);
  ReadPlan plan;
  ParticleSet p = allocate_particles(first, o.types, plan);
  // Tipsy headers hold no box: a periodic run keeps its box size (dPeriod) in the run's parameter
  // file, which does not travel with the snapshot.
  p.box_size = 0;
  Planner planner(file, p, plan);
  for (std::size_t n = 0; n < o.types.size(); ++n) {
    const auto [skip, end] = o.share.of(std::size_t(file.count(o.types[n].file_type)));
    planner.plan_type(int(n), o.types[n], first[n], skip, end - skip);
  }
  // The text arrays first: each is one long job, best started early.
  for (const TextRead& t : planner.texts)
    plan.jobs.push_back([&t] { t.array->read_text(t.first, t.count, t.out, t.factor); });
  for (const Source& source : planner.sources) {
    if (source.columns.empty()) continue;
    const std::size_t step = source.records.records_per_piece();
    for (std::size_t at = 0; at < source.count; at += step)
      plan.jobs.push_back([&source, at, count = std::min(step, source.count - at)] {
        thread_local std::vector<unsigned char> buffer;  // one per thread, kept between pieces
        source.records.read(at, count, source.columns, buffer);
      });
  }
  run_read_plan(plan, progress);
  p.time = file.header().time;
  p.units.code = "Tipsy";  // (Tipsy files write no units: ChaNGa's and Gasoline's are in their .param)
  return p;
}

}  // namespace splotch
