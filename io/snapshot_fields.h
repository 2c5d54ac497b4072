// A snapshot's particle types and fields, each field read when asked for (the Python module's
// splotch.read): what --info lists (io/snapshot_contents.h), as data. Gadget, HDF5 and Tipsy
// snapshots read a field from their files at each ask; the formats held as columns (RAMSES, Enzo,
// Phantom, ASCII, FITS, Bonsai, VisIVO, mesh) are read whole once and their columns lent out.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/column_snapshot.h"
#include "io/particle_array.h"
#include "io/snapshot_request.h"
#include "io/snapshot_units.h"

namespace splotch {

struct FieldEntry {
  std::string name;      // as the file names it (Coordinates, POS, pos, density, position_x, ...)
  std::string type;      // as stored: "float32", "float64", "int64", "uint32", ...
  int components = 1;    // values per particle (3 for a vector)
  bool integer = false;  // IDs and other integers, read exactly by read_integers
};

struct TypeEntry {
  int file_type = 0;
  std::string name;  // "gas", "dark matter", ... where the format names its types, else ""
  std::uint64_t count = 0;
  double table_mass = 0;  // Gadget's and HDF5's mass table: each particle's mass where no field has it
  std::vector<FieldEntry> fields;
};

struct SnapshotOutline {
  std::string path, description;
  double time = 0, redshift = -1, box_size = 0;
  SnapshotUnits units;
  std::vector<std::pair<std::string, std::string>> header;  // the header's values, as text
  std::vector<std::string> notes;
  std::vector<TypeEntry> types;  // those with particles
};

class SnapshotFields {
 public:
  explicit SnapshotFields(const SnapshotRequest& input);
  ~SnapshotFields();
  SnapshotFields(const SnapshotFields&) = delete;
  SnapshotFields& operator=(const SnapshotFields&) = delete;

  const SnapshotOutline& outline() const { return outline_; }
  // Component `component` of a field of a type, every file's particles of the type in file order.
  // A type or field the snapshot lacks is a UserError naming those it has.
  ParticleArray<float> read(int type, const std::string& field, int component = 0) const;
  // An integer field (IDs) exactly.
  std::vector<std::uint64_t> read_integers(int type, const std::string& field) const;
  // The column a format held as columns already holds (no read, no copy), else null.
  const ParticleArray<float>* held(int type, const std::string& field) const;

 private:
  const FieldEntry& entry(int type, const std::string& field) const;
  SnapshotRequest input_;
  SnapshotOutline outline_;
  std::unique_ptr<ColumnSnapshot> columns_;  // the formats held as columns
};

}  // namespace splotch
