#include "io/hdf5_reader.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/field_names.h"
#include "io/hdf5_file.h"
#include "io/input_file.h"
#include "io/missing_field.h"
#include "io/read_plan.h"
#include "io/swift_cells.h"

namespace splotch {
namespace {

// A file of the snapshot: the library's view, and plain positioned reads for raw datasets (a
// second descriptor, opened only for a file that has them).
struct SnapshotFile {
  explicit SnapshotFile(const std::string& path) : hdf5(path) {}
  Hdf5File hdf5;
  std::optional<InputFile> raw;
};

std::string rows_mismatch(const std::string& where, const Hdf5Field& field, std::size_t count) {
  return where + "/" + field.name + " has " + std::to_string(field.rows) +
         " rows but the header (NumPart_ThisFile) says " + std::to_string(count) + " particles";
}

// Plans the reading of quantity `q` for `count` particles of type `type` in `f`, from its
// `skip`-th, which go to [at, at + count) of `targets`.
void plan_dataset(SnapshotFile& f, int type, const QuantityRequest& q, int components, QuantityTargets targets,
                  std::size_t at, std::size_t skip, std::size_t count, const std::string& key, ReadPlan& plan) {
  const std::string where = "HDF5 file '" + f.hdf5.path() + "' PartType" + std::to_string(type);
  const std::optional<Hdf5Field> found = f.hdf5.find(type, q.label);
  const double table_mass = f.hdf5.header().mass_of(type);
  if (!found && components == 1 && table_mass != 0 && gadget_block_label(q.label) == "MASS") {  // the mass table
    plan.fills.push_back({targets[0]->data() + at, count, float(table_mass * double(q.factor))});
    return;
  }
  if (!found)
    throw MissingField(where + " has no dataset '" + q.label + "' (" + key + ") for its " + std::to_string(count) +
                       " particles; its datasets are: " + f.hdf5.field_names(type));
  const Hdf5Field& field = *found;
  const std::size_t in_file = f.hdf5.header().count(type);
  if (field.rows != in_file) throw UserError(rows_mismatch(where, field, in_file));
  if (field.components != components)
    throw UserError(where + "/" + field.name + " (" + key + ") holds " + std::to_string(field.components) +
                    " value(s) per particle where " + std::to_string(components) + " are needed" +
                    (field.components == 3 && key.rfind("color_label", 0) == 0
                         ? "; for vector colours give color_is_vector" + key.substr(11) + " = TRUE"
                         : std::string()));
  if (field.raw && !f.raw) f.raw.emplace(f.hdf5.path());
  if (field.raw && field.offset + field.rows * std::size_t(components) * std::size_t(field.value_bytes) > f.raw->size())
    throw UserError(where + "/" + field.name + " runs past the end of the file (truncated?)");
  // Library reads in pieces of 2^20 rows; raw ones as block copies are.
  const std::size_t step = field.raw ? block_copy_piece(components, field.value_bytes) : std::size_t(1) << 20;
  for (std::size_t done = 0; done < count; done += step) {
    const std::size_t piece = std::min(step, count - done);
    float* out[3] = {nullptr, nullptr, nullptr};
    for (int j = 0; j < components; ++j)
      if (targets[std::size_t(j)]) out[j] = targets[std::size_t(j)]->data() + at + done;
    if (field.raw) {
      const std::size_t stride = std::size_t(components) * std::size_t(field.value_bytes);
      plan.copies.push_back({&*f.raw,
                             field.big_endian != host_is_big_endian,
                             field.offset + (skip + done) * stride,
                             piece,
                             components,
                             field.value_bytes,
                             {out[0], out[1], out[2]},
                             q.factor});
    } else {
      const float factor = q.factor;
      const Hdf5File* file = &f.hdf5;
      const std::size_t row = skip + done;
      plan.library_reads.push_back([file, type, field, row, piece, out, components, factor] {
        file->read(type, field, row, piece, out, components, factor);
      });
    }
  }
}

// Plans the reading of the IDs (`q`) of `count` particles of type `type` in `f`, from its
// `skip`-th, to `out`, through the library (any integer type).
void plan_ids(SnapshotFile& f, int type, const QuantityRequest& q, std::uint64_t* out, std::size_t skip,
              std::size_t count, const std::string& key, ReadPlan& plan) {
  const std::string where = "HDF5 file '" + f.hdf5.path() + "' PartType" + std::to_string(type);
  std::optional<Hdf5Field> found = f.hdf5.find(type, q.label);
  if (!found && gadget_block_label(q.label) == "ID") found = f.hdf5.find(type, "ParticleIDs");
  if (!found)
    throw MissingField(where + " has no dataset '" + q.label + "' (" + key +
                       "); its datasets are: " + f.hdf5.field_names(type));
  const Hdf5Field field = *found;
  const std::size_t in_file = f.hdf5.header().count(type);
  if (field.rows != in_file) throw UserError(rows_mismatch(where, field, in_file));
  if (field.components != 1)
    throw UserError(where + "/" + field.name + " (" + key + ") holds " + std::to_string(field.components) +
                    " values per particle where one ID is needed");
  const Hdf5File* file = &f.hdf5;
  const std::size_t step = std::size_t(1) << 20;
  for (std::size_t done = 0; done < count; done += step) {
    const std::size_t piece = std::min(step, count - done), row = skip + done;
    std::uint64_t* to = out + done;
    plan.library_reads.push_back([file, type, field, row, piece, to] { file->read_ids(type, field, row, piece, to); });
  }
}

}  // namespace

std::vector<std::vector<std::uint64_t>> hdf5_file_counts(const TypedSnapshotRequest& o) {
  std::vector<std::vector<std::uint64_t>> counts;
  std::size_t types = 0;
  for (const std::string& path : o.files) {
    const Hdf5File f(path);
    counts.emplace_back();
    for (int t = 0; t < f.header().types(); ++t) counts.back().push_back(f.header().count(t));
    types = std::max(types, counts.back().size());
  }
  for (auto& file : counts) file.resize(types, 0);  // one length for all
  return counts;
}

ParticleSet read_hdf5(const TypedSnapshotRequest& o, const ProgressCallback& progress) {
  if (o.files.empty()) throw std::invalid_argument("read_hdf5: no files");
  // The files are opened as needed: with the counts of all files given (an MPI share), only the
  // first (for the box size) and those holding particles of the share.
  std::vector<std::unique_ptr<SnapshotFile>> files(o.files.size());
  auto open = [&](std::size_t f) -> SnapshotFile& {
    if (!files[f]) files[f] = std::make_unique<SnapshotFile>(o.files[f]);
    return *files[f];
  };
  std::vector<std::vector<std::uint64_t>> counts = o.share.file_counts;
  if (counts.empty()) {
    for (std::size_t f = 0; f < files.size(); ++f) {
      counts.emplace_back();
      for (int t = 0; t < open(f).hdf5.header().types(); ++t) counts.back().push_back(open(f).hdf5.header().count(t));
    }
  }
  if (counts.size() != files.size()) throw std::invalid_argument("read_hdf5: counts of another number of files");
  // A region read (a given camera's view, one process): the rows of the cells that reach it.
  std::optional<CellSelection> cells;
  std::vector<std::string> notes;
  if (o.region && o.share.whole()) {
    std::string why;
    cells = swift_cells_reaching(o.files, counts, *o.region, open(0).hdf5.header().box_size, why);
    // (every cell, or none: the whole snapshot, whose particles the view then shows or says it misses)
    if (cells && (cells->reaching == cells->cells || cells->reaching == 0)) cells.reset();
    if (cells && !o.region->ranges_given) {
      notes.push_back("read whole: " + std::to_string(cells->reaching) + " of the " + std::to_string(cells->cells) +
                      " SWIFT cells reach the view, but the colour or intensity ranges come from the data; give "
                      "color_minN, color_maxN, intensity_minN and intensity_maxN to read only those cells");
      cells.reset();
    }
    if (!cells && !why.empty() && why != swift_no_cells)
      notes.push_back("read whole, not by region: '" + o.files[0] + "': " + why);
  }
  const auto selected = [&](std::size_t f, int t) -> const std::vector<RowRun>* {
    if (!cells || !o.region->applies_to(t) || std::size_t(t) >= cells->runs[f].size()) return nullptr;
    return &cells->runs[f][std::size_t(t)];
  };
  const auto count_of = [&](std::size_t f, int t) {
    if (const std::vector<RowRun>* runs = selected(f, t)) {
      std::size_t n = 0;
      for (const RowRun& r : *runs) n += r.count;
      return n;
    }
    return std::size_t(t) < counts[f].size() ? std::size_t(counts[f][std::size_t(t)]) : std::size_t(0);
  };
  const ShareRanges ranges = share_ranges(o.types, files.size(), count_of, o.share);
  const std::vector<std::size_t> first = render_type_starts(o.types, ranges);
  // Each type's positions must have the header's count of rows before those counts size any
  // array: a corrupted header could otherwise ask for gigabytes.
  const std::vector<bool> used = files_of_share(o.types, files.size(), count_of, ranges);
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (!used[f]) continue;
    const Hdf5File& file = open(f).hdf5;
    for (const RenderTypeRequest& r : o.types) {
      const std::size_t count = file.header().count(r.file_type);
      if (count == 0) continue;
      const std::optional<Hdf5Field> pos = file.find(r.file_type, "POS");
      const std::string where = "HDF5 file '" + file.path() + "' PartType" + std::to_string(r.file_type);
      if (!pos)
        throw UserError(where + " has no Coordinates for its " + std::to_string(count) +
                        " particles; its datasets are: " + file.field_names(r.file_type));
      if (pos->rows != count) throw UserError(rows_mismatch(where, *pos, count));
    }
  }
  ReadPlan plan;
  ParticleSet p = allocate_particles(first, o.types, plan);
  p.box_size = open(0).hdf5.header().box_size;
  p.time = open(0).hdf5.header().time;
  p.units = open(0).hdf5.header().units;
  if (open(0).hdf5.header().has_redshift) p.redshift = open(0).hdf5.header().redshift;
  plan_files(
      o.types, first, files.size(), count_of, p, plan,
      [&](std::size_t f, int t, const QuantityRequest& q, int components, QuantityTargets targets, std::size_t at,
          std::size_t skip, std::size_t count, const std::string& key) {
        auto piece = [&](std::size_t to, std::size_t row, std::size_t n) {
          if (components == 0)
            plan_ids(*files[f], t, q, p.id.data() + to, row, n, key, plan);
          else
            plan_dataset(*files[f], t, q, components, targets, to, row, n, key, plan);
        };
        const std::vector<RowRun>* runs = selected(f, t);
        if (!runs) return piece(at, skip, count);
        // [skip, skip + count) of the rows selected, run by run of the file's rows.
        std::size_t before = 0;
        for (const RowRun& r : *runs) {
          const std::size_t from = std::max(skip, before), to = std::min(skip + count, before + r.count);
          if (from < to) piece(at + (from - skip), r.row + (from - before), to - from);
          before += r.count;
        }
      },
      ranges);
  run_read_plan(plan, progress);
  p.notes = notes;
  if (cells) {
    std::uint64_t all = 0;
    for (const RenderTypeRequest& r : o.types)
      for (std::size_t f = 0; f < files.size(); ++f)
        all += std::size_t(r.file_type) < counts[f].size() ? counts[f][std::size_t(r.file_type)] : 0;
    char share[32];
    std::snprintf(share, sizeof share, "%.3g%%", all ? 100.0 * double(p.size()) / double(all) : 0.0);
    p.notes.push_back("read by region: " + std::to_string(p.size()) + " of the " + std::to_string(all) +
                      " particles of the types drawn (" + share + "), those of the " + std::to_string(cells->reaching) +
                      " of " + std::to_string(cells->cells) + " SWIFT cells that can reach " + o.region->why +
                      " (read_region = FALSE reads them all)");
    // Smoothing lengths beyond a cell's side break the bound the cells were chosen by: read all.
    float largest = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (o.region->applies_to(o.types[p.type.empty() ? 0 : std::size_t(p.type[i])].file_type))
        largest = std::max(largest, p.hsml[i]);
    if (largest > cells->cell_size) {
      TypedSnapshotRequest whole = o;
      whole.region.reset();
      ParticleSet all_particles = read_hdf5(whole, progress);
      char text[96];
      std::snprintf(text, sizeof text, "%.4g is wider than a SWIFT cell (%.4g)", double(largest), cells->cell_size);
      all_particles.notes.push_back(std::string("read whole: a smoothing length of ") + text +
                                    ", whose kernel may reach the view from cells beyond those chosen");
      return all_particles;
    }
  }
  return p;
}

}  // namespace splotch
