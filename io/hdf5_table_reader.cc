#include "io/hdf5_table_reader.h"

#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "errors/user_error.h"
#include "io/hdf5_handles.h"
#include "io/input_file.h"

namespace splotch {
namespace {

// Rows per library read: bounds the buffer a read converts into, whatever the table's size.
constexpr std::size_t piece_rows = std::size_t(1) << 20;
// Names a message lists before it says how many more there are: a catalogue may hold hundreds.
constexpr std::size_t names_shown = 40;

// A field to read: its key in the parameter file and the dataset or member the key names (both
// for messages), and the array it fills.
struct Wanted {
  std::string key, name;
  ParticleArray<float>* target;
};

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string setting(const std::string& key, const std::string& value) { return "(" + key + " = " + value + ")"; }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < names_shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > names_shown) out += ", ... (" + std::to_string(names.size() - names_shown) + " more)";
  return out.empty() ? "none" : out;
}

// The fields the options name, x, y and z first. Colours [1] and [2] only for vector colours:
// otherwise a scalar colour leaves them empty (io/particle_set.h), whatever they name.
std::vector<Wanted> wanted_fields(const Hdf5TableOptions& o, ParticleSet& set) {
  const std::string* position[3] = {&o.x, &o.y, &o.z};
  ParticleArray<float>* target[3] = {&set.x, &set.y, &set.z};
  const char* const keys[3] = {"x", "y", "z"};
  std::vector<Wanted> wanted;
  for (int k = 0; k < 3; ++k) {
    if (position[k]->empty())
      throw UserError("reading " + quote(o.path) + ": no " + (o.compound ? "member" : "dataset") + " is named for " +
                      keys[k] + "; simtype 7 needs x, y and z");
    wanted.push_back({keys[k], *position[k], target[k]});
  }
  if (!o.hsml.empty()) wanted.push_back({"r", o.hsml, &set.hsml});
  if (!o.intensity.empty()) wanted.push_back({"I", o.intensity, &set.intensity});
  for (int c = 0; c < (o.vector_colour ? 3 : 1); ++c)
    if (!o.colour[c].empty()) wanted.push_back({"C" + std::to_string(c + 1), o.colour[c], &set.colour[c]});
  return wanted;
}

// The datasets under `group` by their paths from it ("PosX", "Galaxies/Mass"), a few levels deep:
// what a name that opens nothing could have been. H5Oopen and H5Iget_type rather than
// H5Oget_info, whose signature differs between library versions.
void collect_datasets(hid_t group, const std::string& prefix, int depth, std::vector<std::string>& out) {
  for (const std::string& name : link_names(group)) {
    Id object(H5Oopen(group, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid()) continue;  // a dangling soft or external link
    const H5I_type_t kind = H5Iget_type(object.get());
    if (kind == H5I_DATASET)
      out.push_back(prefix + name);
    else if (kind == H5I_GROUP && depth > 0)
      collect_datasets(object.get(), prefix + name + "/", depth - 1, out);
  }
}

std::string dataset_list(hid_t file) {
  std::vector<std::string> names;
  collect_datasets(file, "", 3, names);
  return joined(names);
}

std::vector<std::string> member_names(hid_t compound) {
  std::vector<std::string> names;
  const int n = H5Tget_nmembers(compound);
  for (int i = 0; i < n; ++i)
    if (char* name = H5Tget_member_name(compound, unsigned(i))) {
      names.push_back(name);
      H5free_memory(name);
    }
  return names;
}

bool is_number(H5T_class_t kind) { return kind == H5T_INTEGER || kind == H5T_FLOAT; }

Id open_file(const std::string& path) {
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    InputFile exists(path);  // a missing file or a directory says so
    throw UserError(quote(path) + " is not an HDF5 file (simtype 7 reads tables of HDF5 datasets)");
  }
  Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) throw UserError("cannot open the HDF5 file " + quote(path) + " (damaged or truncated?)");
  return file;
}

Id open_dataset(hid_t file, const std::string& path, const std::string& key, const std::string& name) {
  Id d(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid())
    throw UserError("HDF5 file " + quote(path) + " has no dataset " + quote(name) + " " + setting(key, name) +
                    "; its datasets: " + dataset_list(file));
  return d;
}

// Fields that no key names take the original's defaults; thresh shifts only the colours read.
void complete(ParticleSet& set, const Hdf5TableOptions& o) {
  const std::size_t n = set.x.size();
  if (o.hsml.empty()) set.hsml.assign(n, o.hsml_absent);
  if (o.intensity.empty()) set.intensity.assign(n, o.intensity_absent);
  for (int c = 0; c < (o.vector_colour ? 3 : 1); ++c) {
    if (o.colour[c].empty())
      set.colour[c].assign(n, c == 0 ? 1.0f : 0.0f);
    else
      for (float& v : set.colour[c]) v += o.colour_offset;
  }
}

// ---- One dataset per field ----

// A dataset that one key names, checked to hold one number per row.
struct Column {
  Wanted field;
  Id dataset;
  int rank;
  std::size_t rows;
};

Column open_column(hid_t file, const std::string& path, const Wanted& w) {
  Id d = open_dataset(file, path, w.key, w.name);
  const std::string what = "dataset " + quote(w.name) + " " + setting(w.key, w.name) + " of " + quote(path);
  Id type(H5Dget_type(d.get()), H5Tclose);
  const H5T_class_t kind = H5Tget_class(type.get());
  if (kind == H5T_COMPOUND)
    throw UserError(what + " is a compound dataset of members " + joined(member_names(type.get())) +
                    ": set is_compound_data = TRUE and dataset_name = " + w.name + ", and name its members");
  if (!is_number(kind)) throw UserError(what + " does not hold numbers");
  Id space(H5Dget_space(d.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t dims[2] = {0, 1};
  if (rank >= 1 && rank <= 2) H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (rank < 1 || rank > 2 || dims[1] != 1)
    throw UserError(what + " has " + std::to_string(rank) + " dimensions" +
                    (rank == 2 ? " (" + std::to_string(dims[1]) + " columns)" : "") +
                    "; simtype 7 reads one number per row: a 1-D dataset, or a 2-D one of one column");
  return {w, std::move(d), rank, std::size_t(dims[0])};
}

// Rows [first, first + count) of a column, converted to float by the library.
void read_rows(const Column& c, std::size_t first, std::size_t count, float* out, const std::string& path) {
  Id file_space(H5Dget_space(c.dataset.get()), H5Sclose);
  const hsize_t start[2] = {hsize_t(first), 0}, size[2] = {hsize_t(count), 1};
  Id memory(H5Screate_simple(1, size, nullptr), H5Sclose);
  if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, size, nullptr) < 0 ||
      H5Dread(c.dataset.get(), H5T_NATIVE_FLOAT, memory.get(), file_space.get(), H5P_DEFAULT, out) < 0)
    throw UserError("cannot read rows " + std::to_string(first) + " to " + std::to_string(first + count) +
                    " of dataset " + quote(c.field.name) + " of " + quote(path) + " (damaged or truncated file?)");
}

ParticleSet read_columns(const Hdf5TableOptions& o, hid_t file, const ProgressCallback& progress) {
  ParticleSet set;
  std::vector<Column> columns;
  for (const Wanted& w : wanted_fields(o, set)) columns.push_back(open_column(file, o.path, w));
  const Column& x = columns[0];
  for (const Column& c : columns)
    if (c.rows != x.rows)
      throw UserError("dataset " + quote(c.field.name) + " " + setting(c.field.key, c.field.name) + " of " +
                      quote(o.path) + " has " + std::to_string(c.rows) + " rows, but " + quote(x.field.name) +
                      " (x) has " + std::to_string(x.rows) + ": every field needs one value per particle");
  const auto [first, last] = o.share.of(x.rows);
  const std::size_t total = (last - first) * columns.size();
  std::size_t done = 0;
  for (const Column& c : columns) {
    c.field.target->resize(last - first);
    for (std::size_t at = first; at < last; at += piece_rows) {
      const std::size_t count = std::min(piece_rows, last - at);
      read_rows(c, at, count, c.field.target->data() + (at - first), o.path);
      done += count;
      if (progress && done < total) progress(double(done) / double(total));
    }
  }
  complete(set, o);
  return set;
}

// ---- Members of one compound dataset ----

struct Table {
  Id dataset, type;
  std::size_t rows;
  std::vector<std::string> members;
};

Table open_table(hid_t file, const Hdf5TableOptions& o) {
  if (o.dataset.empty())
    throw UserError("reading " + quote(o.path) + " with is_compound_data = TRUE: dataset_name names no dataset; " +
                    "the file's datasets: " + dataset_list(file));
  Id d = open_dataset(file, o.path, "dataset_name", o.dataset);
  const std::string what =
      "dataset " + quote(o.dataset) + " " + setting("dataset_name", o.dataset) + " of " + quote(o.path);
  Id type(H5Dget_type(d.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_COMPOUND)
    throw UserError(what + " is not a compound dataset (a table of named members); if x, y, z, ... name " +
                    "datasets, set is_compound_data = FALSE");
  Id space(H5Dget_space(d.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t rows = 0;
  if (rank != 1 || H5Sget_simple_extent_dims(space.get(), &rows, nullptr) < 0)
    throw UserError(what + " has " + std::to_string(rank) + " dimensions; a compound table has 1 (a row per particle)");
  std::vector<std::string> members = member_names(type.get());
  return {std::move(d), std::move(type), std::size_t(rows), std::move(members)};
}

void check_member(const Table& t, const Hdf5TableOptions& o, const std::string& key, const std::string& name) {
  const int index = H5Tget_member_index(t.type.get(), name.c_str());
  const std::string where = "compound dataset " + quote(o.dataset) + " of " + quote(o.path);
  if (index < 0)
    throw UserError(where + " has no member " + quote(name) + " " + setting(key, name) +
                    "; its members: " + joined(t.members));
  if (!is_number(H5Tget_member_class(t.type.get(), unsigned(index))))
    throw UserError("member " + quote(name) + " " + setting(key, name) + " of " + where +
                    " is not a number (an array, string or nested compound?)");
}

// How the members read lie in each row of the buffer that the library converts the stored rows
// to (it matches members by name): the selecting member as an int64 first, then each other
// member once as a float.
class RowLayout {
 public:
  RowLayout(const std::vector<Wanted>& wanted, const std::string& selector)
      : type_(-1, H5Tclose), selecting_(!selector.empty()) {
    std::vector<std::pair<std::string, std::size_t>> floats;
    std::size_t at = selecting_ ? sizeof(std::int64_t) : 0;
    for (const Wanted& w : wanted) {
      if (selecting_ && w.name == selector) {
        offsets_.push_back(from_selector);  // one name cannot be two members of a memory type
        continue;
      }
      auto known = std::find_if(floats.begin(), floats.end(), [&](const auto& f) { return f.first == w.name; });
      if (known == floats.end()) {
        floats.emplace_back(w.name, at);
        at += sizeof(float);
        known = floats.end() - 1;
      }
      offsets_.push_back(known->second);
    }
    bytes_ = selecting_ ? (at + 7) / 8 * 8 : at;  // the int64 of each row aligned
    type_ = Id(H5Tcreate(H5T_COMPOUND, bytes_), H5Tclose);
    if (selecting_) H5Tinsert(type_.get(), selector.c_str(), 0, H5T_NATIVE_INT64);
    for (const auto& [name, offset] : floats) H5Tinsert(type_.get(), name.c_str(), offset, H5T_NATIVE_FLOAT);
  }

  hid_t type() const { return type_.get(); }
  std::size_t bytes() const { return bytes_; }
  std::int64_t selector(const unsigned char* row) const {
    std::int64_t v;
    std::memcpy(&v, row, sizeof v);
    return v;
  }
  // Wanted field `k` of a row.
  float value(const unsigned char* row, std::size_t k) const {
    if (offsets_[k] == from_selector) return float(selector(row));
    float v;
    std::memcpy(&v, row + offsets_[k], sizeof v);
    return v;
  }

 private:
  static constexpr std::size_t from_selector = std::size_t(-1);
  Id type_;
  bool selecting_;
  std::size_t bytes_ = 0;
  std::vector<std::size_t> offsets_;  // of each wanted field
};

// Rows [first, last) of the table in pieces, each converted to `layout` and handed to
// use(rows, count); progress after each piece but the last.
template <class Use>
void for_each_piece(const Table& t, const RowLayout& layout, std::size_t first, std::size_t last,
                    const Hdf5TableOptions& o, const ProgressCallback& progress, Use use) {
  std::vector<unsigned char> buffer(std::min(piece_rows, last - first) * layout.bytes());
  for (std::size_t at = first; at < last; at += piece_rows) {
    const std::size_t count = std::min(piece_rows, last - at);
    Id file_space(H5Dget_space(t.dataset.get()), H5Sclose);
    const hsize_t start = at, size = count;
    Id memory(H5Screate_simple(1, &size, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &size, nullptr) < 0 ||
        H5Dread(t.dataset.get(), layout.type(), memory.get(), file_space.get(), H5P_DEFAULT, buffer.data()) < 0)
      throw UserError("cannot read rows " + std::to_string(at) + " to " + std::to_string(at + count) +
                      " of compound dataset " + quote(o.dataset) + " of " + quote(o.path) +
                      " (damaged or truncated file?)");
    use(buffer.data(), count);
    if (progress && at + count < last) progress(double(at + count - first) / double(last - first));
  }
}

std::vector<std::pair<std::int64_t, std::size_t>> snapshot_counts(const Table& t, const Hdf5TableOptions& o) {
  const RowLayout layout({}, o.snapshot_field);
  std::map<std::int64_t, std::size_t> counts;
  for_each_piece(t, layout, 0, t.rows, o, {}, [&](const unsigned char* rows, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) ++counts[layout.selector(rows + i * layout.bytes())];
  });
  return {counts.begin(), counts.end()};
}

UserError nothing_selected(const Table& t, const Hdf5TableOptions& o) {
  std::vector<std::string> held;
  for (const auto& [id, count] : snapshot_counts(t, o))
    held.push_back(std::to_string(id) + " (" + std::to_string(count) + " rows)");
  return UserError("no row of compound dataset " + quote(o.dataset) + " of " + quote(o.path) + " has " +
                   o.snapshot_field + " = " + std::to_string(o.snapshot_id) + " (snapshot = " + o.snapshot_field +
                   ", snapshotID = " + std::to_string(o.snapshot_id) + "); the values of " + quote(o.snapshot_field) +
                   " in the file: " + (held.empty() ? "none, the table is empty" : joined(held)));
}

// A process's slice of the rows kept, which are known only once all are read.
void keep_share(const std::vector<Wanted>& wanted, const ReadShare& share) {
  if (share.whole()) return;
  const auto [first, last] = share.of(wanted[0].target->size());
  for (const Wanted& w : wanted) {
    ParticleArray<float>& a = *w.target;
    a.erase(a.begin() + std::ptrdiff_t(last), a.end());
    a.erase(a.begin(), a.begin() + std::ptrdiff_t(first));
    a.shrink_to_fit();
  }
}

ParticleSet read_members(const Hdf5TableOptions& o, hid_t file, const ProgressCallback& progress) {
  ParticleSet set;
  const std::vector<Wanted> wanted = wanted_fields(o, set);
  const Table table = open_table(file, o);
  for (const Wanted& w : wanted) check_member(table, o, w.key, w.name);
  const bool selecting = !o.snapshot_field.empty();
  if (selecting) check_member(table, o, "snapshot", o.snapshot_field);
  const RowLayout layout(wanted, o.snapshot_field);
  // Without a selection a share is a slice of the stored rows, read alone; with one, which rows
  // are kept is known only at the end, so every process reads every row and keeps its slice.
  const auto [first, last] = selecting ? std::pair<std::size_t, std::size_t>(0, table.rows) : o.share.of(table.rows);
  if (!selecting)
    for (const Wanted& w : wanted) w.target->reserve(last - first);
  for_each_piece(table, layout, first, last, o, progress, [&](const unsigned char* rows, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const unsigned char* row = rows + i * layout.bytes();
      if (selecting && layout.selector(row) != o.snapshot_id) continue;
      for (std::size_t k = 0; k < wanted.size(); ++k) wanted[k].target->push_back(layout.value(row, k));
    }
  });
  if (selecting) {
    if (set.x.empty()) throw nothing_selected(table, o);
    keep_share(wanted, o.share);
  }
  complete(set, o);
  return set;
}

}  // namespace

ParticleSet read_hdf5_table(const Hdf5TableOptions& options, const ProgressCallback& progress) {
  QuietErrors quiet;
  const Id file = open_file(options.path);
  ParticleSet set =
      options.compound ? read_members(options, file.get(), progress) : read_columns(options, file.get(), progress);
  if (progress) progress(1.0);
  return set;
}

std::vector<std::pair<std::int64_t, std::size_t>> hdf5_table_snapshot_ids(const Hdf5TableOptions& options) {
  if (!options.compound || options.snapshot_field.empty())
    throw UserError("reading the snapshot IDs of " + quote(options.path) +
                    ": they are the values of a member of a compound dataset; set is_compound_data = TRUE, " +
                    "dataset_name and snapshot");
  QuietErrors quiet;
  const Id file = open_file(options.path);
  const Table table = open_table(file.get(), options);
  check_member(table, options, "snapshot", options.snapshot_field);
  return snapshot_counts(table, options);
}

bool is_gadget_layout_hdf5(const std::string& path) {
  QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  const Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) return false;
  const Id header(H5Gopen2(file.get(), "Header", H5P_DEFAULT), H5Gclose);
  if (!header.valid()) return false;
  for (const std::string& name : link_names(file.get()))
    if (name.compare(0, 8, "PartType") == 0 && Id(H5Gopen2(file.get(), name.c_str(), H5P_DEFAULT), H5Gclose).valid())
      return true;
  return false;
}

}  // namespace splotch
