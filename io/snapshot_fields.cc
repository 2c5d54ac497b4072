#include "io/snapshot_fields.h"

#include <array>
#include <cstdio>

#include "errors/user_error.h"
#include "io/column_formats.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/read_snapshot.h"
#include "io/snapshot_survey.h"
#include "io/tipsy_file.h"

namespace splotch {
namespace {

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

bool vector_block(const std::string& label) { return label == "POS" || label == "VEL" || label == "ACCE"; }

void outline_gadget(const TypedSnapshotRequest& g, SnapshotOutline& o) {
  std::array<std::uint64_t, gadget_types> counts{};
  std::vector<std::unique_ptr<GadgetFile>> files;
  for (const std::string& path : g.files) {
    files.push_back(std::make_unique<GadgetFile>(path, g.swap_endian));
    for (int t = 0; t < gadget_types; ++t) counts[std::size_t(t)] += files.back()->header().npart[std::size_t(t)];
  }
  const GadgetHeader& h = files[0]->header();
  o.description = "Gadget binary format " + std::to_string(files[0]->format()) + ", " + std::to_string(files.size()) +
                  (files.size() == 1 ? " file" : " files");
  o.time = h.time;
  o.redshift = h.redshift;
  o.box_size = h.box_size;
  o.units = gadget_default_units(h.hubble, h.omega0, h.time, h.redshift);
  for (const auto& [key, value] : {std::pair<const char*, double>{"Time", h.time},
                                   {"Redshift", h.redshift},
                                   {"BoxSize", h.box_size},
                                   {"Omega0", h.omega0},
                                   {"OmegaLambda", h.omega_lambda},
                                   {"HubbleParam", h.hubble},
                                   {"NumFiles", double(h.num_files)}})
    o.header.emplace_back(key, number(value));
  for (int t = 0; t < gadget_types; ++t) {
    if (counts[std::size_t(t)] == 0) continue;
    TypeEntry e;
    e.file_type = t;
    e.name = t == 0 || t == 1 || t == 4 ? gadget_type_name(t) : "";
    e.count = counts[std::size_t(t)];
    e.table_mass = h.mass[std::size_t(t)];
    const GadgetFile* f = nullptr;
    for (const auto& file : files)
      if (file->header().npart[std::size_t(t)] > 0 && !f) f = file.get();
    for (const GadgetBlock& b : f->blocks()) {
      const int components = vector_block(b.label) ? 3 : 1;
      GadgetBlockLayout layout;
      try {
        layout = f->layout(b, components, std::nullopt, "splotch.read");
      } catch (const UserError&) {
        continue;  // (a block of no usual set of types: --info says so)
      }
      if (!(layout.types & (1u << t))) continue;
      const bool id = b.label == "ID";
      e.fields.push_back(
          {b.label, std::string(id ? "int" : "float") + std::to_string(8 * layout.value_bytes), components, id});
    }
    o.types.push_back(std::move(e));
  }
}

void outline_hdf5(const TypedSnapshotRequest& g, SnapshotOutline& o) {
  std::vector<std::unique_ptr<Hdf5File>> files;
  for (const std::string& path : g.files) files.push_back(std::make_unique<Hdf5File>(path));
  int types = 0;
  for (const auto& f : files) types = std::max(types, f->header().types());
  const Hdf5Header& h = files[0]->header();
  o.description = "HDF5 snapshot (Gadget/AREPO/GIZMO/SWIFT layout), " + std::to_string(files.size()) +
                  (files.size() == 1 ? " file" : " files");
  o.time = h.time;
  o.redshift = h.has_redshift ? h.redshift : -1;
  o.box_size = h.box_size;
  o.units = h.units;
  o.header.emplace_back("Time", number(h.time));
  if (h.has_redshift) o.header.emplace_back("Redshift", number(h.redshift));
  std::string box;
  for (double side : h.box_sides) box += (box.empty() ? "" : " ") + number(side);
  if (!box.empty()) o.header.emplace_back("BoxSize", box);
  o.header.emplace_back("NumFilesPerSnapshot", std::to_string(h.num_files));
  for (int t = 0; t < types; ++t) {
    std::uint64_t count = 0;
    const Hdf5File* f = nullptr;
    for (const auto& file : files) {
      count += file->header().count(t);
      if (file->header().count(t) > 0 && !f) f = file.get();
    }
    if (count == 0) continue;
    TypeEntry e;
    e.file_type = t;
    e.name = t == 0 || t == 1 || t == 4 ? gadget_type_name(t) : "";
    e.count = count;
    e.table_mass = h.mass_of(t);
    for (const Hdf5Field& field : f->fields(t)) {
      const bool integer = field.value_type.rfind("int", 0) == 0 || field.value_type.rfind("uint", 0) == 0;
      e.fields.push_back({field.name, field.value_type, field.components, integer && field.components == 1});
    }
    o.types.push_back(std::move(e));
  }
}

void outline_tipsy(const TypedSnapshotRequest& g, SnapshotOutline& o) {
  const TipsyFile f(g.files[0], g.swap_endian);
  o.description = "Tipsy standard binary";
  o.time = f.time();
  o.header.emplace_back("time", number(f.time()));
  o.header.emplace_back("nbodies", std::to_string(f.total()));
  for (int t = 0; t < tipsy_types; ++t) {
    if (f.count(t) == 0) continue;
    TypeEntry e;
    e.file_type = t;
    e.name = tipsy_type_name(t);
    e.count = f.count(t);
    for (const TipsyField& field : f.fields(t))
      e.fields.push_back({field.name, "float" + std::to_string(8 * field.value_bytes), field.components, false});
    o.types.push_back(std::move(e));
  }
}

void outline_columns(const ColumnSnapshot& s, SnapshotOutline& o) {
  o.description = s.description;
  o.time = s.time;
  o.redshift = s.redshift;
  o.box_size = s.box_size;
  o.units = s.units;
  o.header = s.header;
  o.notes = s.notes;
  for (const ColumnType& t : s.types) {
    if (t.count == 0) continue;
    TypeEntry e;
    e.file_type = t.file_type;
    e.name = t.name;
    e.count = t.count;
    for (const Column& c : t.columns) e.fields.push_back({c.name, c.type, 1, false});
    if (!t.ids.empty()) e.fields.push_back({t.id_name, "uint64", 1, true});
    o.types.push_back(std::move(e));
  }
}

}  // namespace

SnapshotFields::SnapshotFields(const SnapshotRequest& input) : input_(input) {
  outline_.path = input.path;
  if (input.format == SnapshotFormat::gadget)
    outline_gadget(input.typed, outline_);
  else if (input.format == SnapshotFormat::hdf5)
    outline_hdf5(input.typed, outline_);
  else if (input.format == SnapshotFormat::tipsy)
    outline_tipsy(input.typed, outline_);
  else if (reads_columns(input.format)) {
    ColumnWanted all;
    all.all = true;
    all.ids = true;
    columns_ = std::make_unique<ColumnSnapshot>(load_columns(input, all, {}));
    outline_columns(*columns_, outline_);
  } else {
    throw UserError("'" + input.path + "': " + format_description(input.format) +
                    " has no types and fields of its own to read by name: draw it with its parameter file");
  }
}

SnapshotFields::~SnapshotFields() = default;

const FieldEntry& SnapshotFields::entry(int type, const std::string& field) const {
  std::string types;
  for (const TypeEntry& t : outline_.types) {
    types += (types.empty() ? "" : ", ") + std::to_string(t.file_type);
    if (t.file_type != type) continue;
    std::string names;
    for (const FieldEntry& f : t.fields) {
      if (f.name == field) return f;
      names += (names.empty() ? "" : ", ") + f.name;
    }
    throw UserError("'" + outline_.path + "': type " + std::to_string(type) + " has no field '" + field + "'; it has " +
                    names);
  }
  throw UserError("'" + outline_.path + "' has no particles of type " + std::to_string(type) +
                  "; its types with particles: " + (types.empty() ? "none" : types));
}

const ParticleArray<float>* SnapshotFields::held(int type, const std::string& field) const {
  if (!columns_) return nullptr;
  if (const ColumnType* t = columns_->type(type))
    for (const Column& c : t->columns)
      if (c.name == field) return &c.values;
  return nullptr;
}

ParticleArray<float> SnapshotFields::read(int type, const std::string& field, int component) const {
  const FieldEntry& f = entry(type, field);
  if (component < 0 || component >= f.components)
    throw UserError("'" + outline_.path + "': " + field + " has " + std::to_string(f.components) + " component" +
                    (f.components == 1 ? "" : "s") + ", not a component " + std::to_string(component));
  if (const ParticleArray<float>* column = held(type, field)) return *column;
  const TypedSnapshotRequest& g = input_.typed;
  if (input_.format == SnapshotFormat::tipsy)
    return TipsyFile(g.files[0], g.swap_endian).read_field(type, field, component);
  if (input_.format == SnapshotFormat::hdf5) {
    ParticleArray<float> values;
    for (const std::string& path : g.files) {
      const Hdf5File file(path);
      if (file.header().count(type) == 0) continue;
      const std::optional<Hdf5Field> here = file.find(type, field);
      if (!here)
        throw UserError("HDF5 file '" + path + "' lacks PartType" + std::to_string(type) + "/" + field +
                        ", which the snapshot's first file of the type has");
      const ParticleArray<float> part = file.read_field(type, *here, component);
      values.insert(values.end(), part.begin(), part.end());
    }
    return values;
  }
  // Gadget: the block read as a colour, as --info reads it.
  TypedSnapshotRequest o;
  o.files = g.files;
  o.swap_endian = g.swap_endian;
  RenderTypeRequest r;
  r.file_type = type;
  r.colour.label = field;
  r.vector_colour = f.components == 3;
  o.types = {r};
  ParticleSet p = read_gadget(o);
  return std::move(p.colour[component]);
}

std::vector<std::uint64_t> SnapshotFields::read_integers(int type, const std::string& field) const {
  const FieldEntry& f = entry(type, field);
  if (!f.integer) throw UserError("'" + outline_.path + "': " + field + " is not an integer field: read it as floats");
  if (columns_) {
    const ColumnType* t = columns_->type(type);
    return std::vector<std::uint64_t>(t->ids.begin(), t->ids.end());
  }
  const TypedSnapshotRequest& g = input_.typed;
  if (input_.format == SnapshotFormat::hdf5) {
    std::vector<std::uint64_t> values;
    for (const std::string& path : g.files) {
      const Hdf5File file(path);
      if (file.header().count(type) == 0) continue;
      const std::optional<Hdf5Field> here = file.find(type, field);
      if (!here) continue;
      const std::size_t at = values.size();
      values.resize(at + here->rows);
      file.read_ids(type, *here, 0, here->rows, values.data() + at);
    }
    return values;
  }
  TypedSnapshotRequest o;  // Gadget's IDs, as a movie between snapshots reads them
  o.files = g.files;
  o.swap_endian = g.swap_endian;
  RenderTypeRequest r;
  r.file_type = type;
  r.motion = 1;
  r.id_label = field;
  o.types = {r};
  const ParticleSet p = read_gadget(o);
  return std::vector<std::uint64_t>(p.id.begin(), p.id.end());
}

}  // namespace splotch
