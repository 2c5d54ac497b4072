// A snapshot held in memory as named columns per particle type: what the readers of formats that
// must decode a whole file to find their particles deliver (RAMSES: the leaf cells of the AMR tree
// and the particles of every CPU file). One reader (io/column_reader.h) turns it into the render's
// particles for every such format, by the same labels as the other formats (io/field_names.h), and
// --info prints it the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/particle_array.h"
#include "io/snapshot_units.h"

namespace splotch {

struct Column {
  std::string name;              // the format's own name: density, velocity_x, mass, ...
  std::string label;             // the Gadget block it is (POS, VEL, HSML, RHO, MASS, U, ...), or ""
  int component = -1;            // of a vector quantity (0, 1, 2: x, y, z), else -1
  std::string type = "float64";  // as the file holds it, for --info
  ParticleArray<float> values;
};

struct ColumnType {
  int file_type = 0;
  std::string name;  // "gas (leaf cells)", "dark matter", ... for a user
  std::size_t count = 0;
  std::vector<Column> columns;
  std::vector<std::uint64_t> ids;       // when read (ColumnWanted::ids)
  std::string id_name;                  // its name in the file ("identity"), or "" where it has none
  std::vector<std::string> all_fields;  // every field the type has, read or not (for messages)
  // Scalar: the column `label` names (a name, any case, or what its Gadget label is); vector: the
  // three components. Empty where the type has none.
  std::vector<const Column*> find(const std::string& label, int components) const;
  std::string field_list() const;  // "position_x, ..., density" for messages
  // Leaves out the columns whose values were not read (a load of some columns only).
  void drop_unread();
};

struct ColumnSnapshot {
  std::string path;               // what the user named (a directory, an info file)
  std::string description;        // "RAMSES output 10 (8 CPU files, 3-D)" for --info
  std::vector<ColumnType> types;  // every type the format knows of, with or without particles
  double time = 0, redshift = -1, box_size = 0;
  int dimensions = 3;  // a 2-D run's particles lie in z = 0 (a 1-D run's on the x axis)
  SnapshotUnits units;
  std::vector<std::pair<std::string, std::string>> header;  // key, value: for --info
  std::vector<std::string> notes;                           // for --info and the report
  // The reader read only an MPI process's share (ColumnWanted::part), whole files of it: the
  // columns are that share, not the snapshot.
  bool shared_by_file = false;

  const ColumnType* type(int file_type) const;
};

// What a load takes: the file types, and the columns (by the labels of the request, as
// ColumnType::find takes them); `all` for --info.
struct ColumnWanted {
  bool all = false;
  std::vector<int> types;           // empty: every type
  std::vector<std::string> labels;  // with their components: label, components
  std::vector<int> components;
  bool ids = false;
  int part = 0, parts = 1;  // an MPI process's share, which a reader may take as whole files

  void want(const std::string& label, int n) {
    labels.push_back(label);
    components.push_back(n);
  }
  bool wants_type(int t) const;
  // Whether a column of this name, label and component is asked for.
  bool wants(const std::string& name, const std::string& label, int component) const;
};

// Whether `label` with `components` names the column (name, label, component).
bool column_matches(const std::string& label, int components, const std::string& name, const std::string& column_label,
                    int component);

}  // namespace splotch
