#include "io/snapshot_contents.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "errors/user_error.h"
#include "io/column_formats.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/hdf5_table_reader.h"
#include "io/input_file.h"
#include "io/read_snapshot.h"
#include "io/snapshot_units.h"
#include "io/tipsy_file.h"

namespace splotch {
namespace {

// A field's statistics over its finite values, and how many are not (a NaN would make min and max
// meaningless: an AREPO file's Density showed a max of 0.681 where its finite max is 25.7).
struct FieldSummary {
  float min = 0, median = 0, max = 0;
  std::size_t nan = 0, inf = 0, finite = 0;
};

FieldSummary summarize(ParticleArray<float> v) {
  FieldSummary f;
  const auto end = std::partition(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
  for (auto it = end; it != v.end(); ++it) ++(std::isnan(*it) ? f.nan : f.inf);
  f.finite = std::size_t(end - v.begin());
  if (f.finite == 0) return f;
  auto mid = v.begin() + std::ptrdiff_t(f.finite / 2);
  std::nth_element(v.begin(), mid, end);
  f.median = *mid;
  auto [lo, hi] = std::minmax_element(v.begin(), end);
  f.min = *lo;
  f.max = *hi;
  return f;
}

// A value for the table: integers as integers, and no "-0".
std::string cell(float v, bool integer) {
  char text[32];
  if (integer)
    std::snprintf(text, sizeof text, "%13.0f", double(v) + 0.0);
  else
    std::snprintf(text, sizeof text, "%13.6g", double(v) + 0.0);
  return text;
}

void print_row(std::ostream& out, const std::string& name, const std::string& type, const ParticleArray<float>& v) {
  char line[200];
  const FieldSummary f = summarize(v);
  const bool integer = type.rfind("int", 0) == 0 || type.rfind("uint", 0) == 0;
  std::snprintf(line, sizeof line, "    %-16s %-8s", name.c_str(), type.c_str());
  out << line;
  if (f.finite == 0 && !v.empty())
    out << "   no finite value";
  else
    out << " " << cell(f.min, integer) << " " << cell(f.median, integer) << " " << cell(f.max, integer);
  if (f.nan + f.inf > 0) {
    out << "   (";
    if (f.nan) out << f.nan << " NaN" << (f.inf ? ", " : "");
    if (f.inf) out << f.inf << " infinite";
    out << ": not counted; a render skips such particles)";
  }
  out << "\n";
}

// A row of integers (IDs), exact however large.
void print_integer_row(std::ostream& out, const std::string& name, const std::string& type,
                       std::vector<std::uint64_t> v) {
  char line[200];
  std::snprintf(line, sizeof line, "    %-16s %-8s", name.c_str(), type.c_str());
  out << line;
  if (!v.empty()) {
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::snprintf(line, sizeof line, " %13llu %13llu %13llu", static_cast<unsigned long long>(*lo),
                  static_cast<unsigned long long>(*mid), static_cast<unsigned long long>(*hi));
    out << line;
  }
  out << "\n";
}

void print_table_head(std::ostream& out) {
  char line[200];
  std::snprintf(line, sizeof line, "    %-16s %-8s %13s %13s %13s\n", "field", "type", "min", "median", "max");
  out << line;
}

// "  type 1 (dark): 36000 particles, each of mass 0.5 (mass table)" and the table's head.
void print_type_head(std::ostream& out, int type, const std::string& name, std::uint64_t count, double table_mass) {
  out << "  type " << type << (name.empty() ? "" : " (" + name + ")") << ": " << count << " particles";
  if (table_mass != 0) out << ", each of mass " << table_mass << " (mass table)";
  out << "\n";
  print_table_head(out);
}

void print_raw_info(const SnapshotRequest& input, const ReadProgress& progress, std::ostream& out) {
  ParticleSet p = read_snapshot(input, progress.start("read"));
  progress.end();
  if (input.format == SnapshotFormat::hdf5_table) {
    const Hdf5TableOptions& t = input.table;
    out << input.path << ": HDF5, particles as rows of "
        << (t.compound ? "the compound dataset " + t.dataset : std::string("datasets named by x, y, z, ..."));
    if (!t.snapshot_field.empty()) out << ", rows whose " << t.snapshot_field << " is " << t.snapshot_id;
    out << "\n";
  } else {
    out << input.path << ": raw binary, " << (input.raw.layout == RawOptions::Layout::table ? "table" : "blocks")
        << " layout, " << input.raw.num_fields << " float32 fields, "
        << (input.raw.swap_endian ? "byte-swapped (swap_endian = TRUE)" : "native byte order") << "\n";
  }
  out << "  type 0: " << p.size() << " particles\n";
  print_table_head(out);
  const std::pair<const char*, const ParticleArray<float>*> fields[] = {
      {"x", &p.x},         {"y", &p.y},          {"z", &p.z},          {"hsml", &p.hsml},
      {"I", &p.intensity}, {"C1", &p.colour[0]}, {"C2", &p.colour[1]}, {"C3", &p.colour[2]}};
  for (const auto& [name, values] : fields)
    if (!values->empty()) print_row(out, name, "float32", *values);
}

bool is_vector_block(const std::string& label) { return label == "POS" || label == "VEL" || label == "ACCE"; }

void print_gadget_info(const SnapshotRequest& input, const ReadProgress& progress, std::ostream& out) {
  const TypedSnapshotRequest& g = input.typed;
  std::vector<std::unique_ptr<GadgetFile>> files;
  std::array<std::uint64_t, gadget_types> counts{};
  for (const std::string& path : g.files) {
    files.push_back(std::make_unique<GadgetFile>(path, g.swap_endian));
    for (int t = 0; t < gadget_types; ++t) counts[std::size_t(t)] += files.back()->header().npart[std::size_t(t)];
  }
  const GadgetFile& first = *files[0];
  const GadgetHeader& h = first.header();
  out << first.path() << ": Gadget binary format " << first.format() << ", "
      << (first.swapped() ? "byte-swapped (the other endianness)" : "native byte order") << ", "
      << (first.position_bytes() == 8 ? "double" : "single") << " precision positions, " << files.size()
      << (files.size() == 1 ? " file" : " files") << "\n";
  char line[300];
  std::snprintf(line, sizeof line, "  time %g, redshift %g, box size %g\n", h.time, h.redshift, h.box_size);
  out << line << units_description(gadget_default_units(h.hubble, h.omega0, h.time, h.redshift));
  out << "  header npartTotal:";
  for (auto n : h.npart_total) out << " " << n;
  out << "; num_files " << h.num_files << "\n";

  for (int t = 0; t < gadget_types; ++t) {
    if (counts[std::size_t(t)] == 0) continue;
    print_type_head(out, t, "", counts[std::size_t(t)], h.mass[std::size_t(t)]);
    // The blocks of the first file holding particles of this type.
    const GadgetFile* f = nullptr;
    for (const auto& file : files)
      if (file->header().npart[std::size_t(t)] > 0) {
        f = file.get();
        break;
      }
    for (const GadgetBlock& b : f->blocks()) {
      const int components = is_vector_block(b.label) ? 3 : 1;
      GadgetBlockLayout layout;
      try {
        layout = f->layout(b, components, std::nullopt, "--info");
      } catch (const UserError&) {
        out << "    " << b.label << ": " << b.bytes << " bytes, which fit no usual set of particle types\n";
        continue;
      }
      if (!(layout.types & (1u << t))) continue;
      const std::string type = std::string(b.label == "ID" ? "int" : "float") + std::to_string(8 * layout.value_bytes);
      if (b.label == "ID") {  // read as integers, as a movie between snapshots reads them
        TypedSnapshotRequest o;
        o.files = g.files;
        o.swap_endian = g.swap_endian;
        RenderTypeRequest r;
        r.file_type = t;
        r.motion = 1;
        r.id_label = b.label;
        o.types = {r};
        const ParticleSet p = read_gadget(o, progress.start("read " + b.label));
        progress.end();
        print_integer_row(out, b.label, type, std::vector<std::uint64_t>(p.id.begin(), p.id.end()));
        continue;
      }
      TypedSnapshotRequest o;
      o.files = g.files;
      o.swap_endian = g.swap_endian;
      RenderTypeRequest r;
      r.file_type = t;
      r.colour.label = b.label;
      r.colour.present = layout.types;
      r.vector_colour = components == 3;
      o.types = {r};
      ParticleSet p = read_gadget(o, progress.start("read " + b.label));
      progress.end();
      if (components == 1) {
        print_row(out, b.label, type, p.colour[0]);
      } else {
        for (int c = 0; c < 3; ++c) print_row(out, b.label + "[" + "xyz"[c] + "]", type, p.colour[c]);
      }
    }
  }
}

void print_hdf5_info(const SnapshotRequest& input, std::ostream& out) {
  std::vector<std::unique_ptr<Hdf5File>> files;
  for (const std::string& path : input.typed.files) files.push_back(std::make_unique<Hdf5File>(path));
  int types = 0;
  for (const auto& f : files) types = std::max(types, f->header().types());
  std::vector<std::uint64_t> counts(std::size_t(types), 0);
  for (const auto& f : files)
    for (int t = 0; t < types; ++t) counts[std::size_t(t)] += f->header().count(t);
  const Hdf5File& first = *files[0];
  const Hdf5Header& h = first.header();
  std::string precision = "no particles";
  for (int t = 0; t < types && precision == "no particles"; ++t)
    if (h.count(t) > 0)
      if (std::optional<Hdf5Field> pos = first.find(t, "Coordinates"))
        precision = (pos->value_type == "float64" ? "double" : "single") + std::string(" precision positions");
  out << first.path() << ": HDF5 (Gadget/AREPO/GIZMO/SWIFT layout), " << precision << ", " << files.size()
      << (files.size() == 1 ? " file" : " files") << ", " << types << (types == 1 ? " type" : " types")
      << " in the header\n";
  char line[300];
  std::string box = "no box size";
  if (!h.box_sides.empty()) {
    box = "box size";
    for (double side : h.box_sides) {
      char value[32];
      std::snprintf(value, sizeof value, " %g", side);
      box += value;
    }
    if (h.box_sides.size() > 1 && h.box_size == 0) box += " (not a cube: no periodic wrapping)";
  }
  std::snprintf(line, sizeof line, "  time %g, %s, %s\n", h.time,
                h.has_redshift ? ("redshift " + std::to_string(h.redshift)).c_str() : "no redshift", box.c_str());
  out << line << units_description(h.units);
  out << "  header NumPart_Total:";
  for (auto n : h.npart_total) out << " " << n;
  out << "; NumFilesPerSnapshot " << h.num_files << "\n";

  for (int t = 0; t < types; ++t) {
    if (counts[std::size_t(t)] == 0) continue;
    print_type_head(out, t, "", counts[std::size_t(t)], h.mass_of(t));
    const Hdf5File* f = nullptr;
    for (const auto& file : files)
      if (file->header().count(t) > 0) {
        f = file.get();
        break;
      }
    for (const Hdf5Field& field : f->fields(t)) {
      // IDs (and other unsigned integers) exactly, as integers; signed ones, which may be negative
      // flags, as the floats below, printed as integers.
      const bool exact = field.value_type.rfind("uint", 0) == 0 ||
                         (field.value_type.rfind("int", 0) == 0 && field.name.find("ID") != std::string::npos);
      if (exact && field.components == 1) {
        std::vector<std::uint64_t> values;
        for (const auto& file : files) {
          const std::optional<Hdf5Field> here = file->header().count(t) ? file->find(t, field.name) : std::nullopt;
          if (!here || here->rows != file->header().count(t)) continue;  // (said below for floats)
          const std::size_t at = values.size();
          values.resize(at + here->rows);
          file->read_ids(t, *here, 0, here->rows, values.data() + at);
        }
        print_integer_row(out, field.name, field.value_type, std::move(values));
        continue;
      }
      if (field.components == 2 || field.components > 3) {
        std::snprintf(line, sizeof line, "    %-16s %-8s (%d values per particle)\n", field.name.c_str(),
                      field.value_type.c_str(), field.components);
        out << line;
        continue;
      }
      // Each component over every file that holds the type.
      for (int c = 0; c < field.components; ++c) {
        ParticleArray<float> values;
        for (const auto& file : files) {
          if (file->header().count(t) == 0) continue;
          const std::optional<Hdf5Field> here = file->find(t, field.name);
          if (!here)
            throw UserError("HDF5 file '" + file->path() + "' lacks PartType" + std::to_string(t) + "/" + field.name +
                            ", which '" + f->path() + "' has");
          if (here->rows != file->header().count(t) && c == 0) {
            std::snprintf(line, sizeof line,
                          "    %-16s %s: %zu rows, but the header says %llu particles of type %d "
                          "(a render of this type stops here)\n",
                          field.name.c_str(), file->path().c_str(), here->rows,
                          static_cast<unsigned long long>(file->header().count(t)), t);
            out << line;
          }
          const ParticleArray<float> part = file->read_field(t, *here, c);
          values.insert(values.end(), part.begin(), part.end());
        }
        const std::string name = field.components == 1 ? field.name : field.name + "[" + "xyz"[c] + "]";
        print_row(out, name, field.value_type, values);
      }
    }
  }
}

void print_tipsy_info(const SnapshotRequest& input, std::ostream& out) {
  const TipsyFile f(input.typed.files[0], input.typed.swap_endian);
  out << f.path() << ": Tipsy standard binary, " << (f.big_endian() ? "big-endian" : "little-endian") << " ("
      << (f.swapped() ? "byte-swapped" : "native byte order") << "), " << f.header_bytes() << "-byte header, "
      << (f.position_bytes() == 8 ? "double" : "single") << " precision positions, no box size\n";
  char line[300];
  std::snprintf(line, sizeof line, "  time %g, nbodies %llu, ndim %u\n", f.time(),
                static_cast<unsigned long long>(f.total()), unsigned(f.header().ndim));
  out << line << "  units: none written (Gasoline's and ChaNGa's are in the run's .param: give map_unit_length ...)\n";
  for (int t = 0; t < tipsy_types; ++t) {
    if (f.count(t) == 0) continue;
    print_type_head(out, t, tipsy_type_name(t), f.count(t), 0.0);
    for (const TipsyField& field : f.fields(t)) {
      const std::string type = "float" + std::to_string(8 * field.value_bytes);
      if (field.components == 1) {
        print_row(out, field.name, type, f.read_field(t, field.name));
      } else {
        for (int c = 0; c < field.components; ++c)
          print_row(out, field.name + "[" + "xyz"[c] + "]", type, f.read_field(t, field.name, c));
      }
    }
  }
}

// A snapshot of columns (RAMSES): the format's description, its header, units and per type each
// column's range.
void print_columns_info(const ColumnSnapshot& s, std::ostream& out) {
  out << s.path << ": " << s.description << "\n";
  for (const auto& [key, value] : s.header) out << "  " << key << " = " << value << "\n";
  char line[200], box[64] = "no periodic box";
  if (s.box_size > 0) std::snprintf(box, sizeof box, "periodic box %g", s.box_size);
  std::snprintf(line, sizeof line, "  time %g, %s, %s\n", s.time,
                s.redshift >= 0 ? ("redshift " + std::to_string(s.redshift)).c_str() : "no redshift", box);
  out << line << units_description(s.units);
  for (const std::string& note : s.notes) out << "  note: " << note << "\n";
  for (const ColumnType& t : s.types) {
    if (t.count == 0) continue;
    print_type_head(out, t.file_type, t.name, t.count, 0.0);
    for (const Column& c : t.columns) print_row(out, c.name, c.type, c.values);
    if (!t.ids.empty()) print_integer_row(out, t.id_name, "integer", t.ids);
  }
}

}  // namespace

void print_snapshot_contents(const SnapshotRequest& input, const ReadProgress& progress, std::ostream& out) {
  if (input.format == SnapshotFormat::gadget)
    print_gadget_info(input, progress, out);
  else if (input.format == SnapshotFormat::hdf5)
    print_hdf5_info(input, out);
  else if (input.format == SnapshotFormat::tipsy)
    print_tipsy_info(input, out);
  else if (reads_columns(input.format)) {
    ColumnWanted all;
    all.all = true;
    all.ids = true;
    const ColumnSnapshot s = load_columns(input, all, progress.start("read"));
    progress.end();
    print_columns_info(s, out);
  } else
    print_raw_info(input, progress, out);
}

}  // namespace splotch
