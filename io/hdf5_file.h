// One file of an HDF5 snapshot (simtype 7 and 8) in the layout Gadget-2/3/4, AREPO, GIZMO and
// SWIFT share: a `Header` group of attributes and a group `PartType<t>` of datasets per particle
// type (a type without particles in this file may have no group). The header's per-type arrays
// have as many entries as the code writes (Gadget-4: its NTYPES; others 6), and scalars may be
// 1-element arrays (SWIFT), BoxSize a 3-vector.
//
// A dataset that is stored contiguously, unfiltered, as IEEE floats can be read without the HDF5
// library, by positioned reads at its offset in the file (Hdf5Field::raw): the library serialises
// every call behind one lock, so that is the way to read in parallel. Chunked or compressed
// datasets, and integers, go through the library, in pieces of rows (hyperslabs), which is also
// how a share of the particles is read.
//
// This header does not include hdf5.h; a build without HDF5 (make HDF5=0) keeps the interface and
// says so when a file is opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/particle_array.h"
#include "io/snapshot_units.h"

namespace splotch {

// Whether this build reads HDF5 files.
bool hdf5_supported();
// Whether the HDF5 library may be called from two threads at once (Debian builds it so); when
// not, a scene does not read an HDF5 snapshot in the background.
bool hdf5_thread_safe();

struct Hdf5Header {
  std::vector<std::uint64_t> npart;        // particles of each type in this file
  std::vector<std::uint64_t> npart_total;  // over all files (high words added), as written; may be empty
  std::vector<double> mass;                // the mass table (0: per-particle masses)
  std::vector<double> box_sides;           // BoxSize as written: one value, or three (SWIFT)
  // The side of the periodic cube; 0 when there is none or the box is not a cube (a SWIFT box of
  // sides 2 x 1 x 1): wrapping and periodic neighbour searches need one side.
  double box_size = 0;
  double time = 0, redshift = 0;
  bool has_redshift = false;
  int num_files = 1;
  // Units, cosmology and kernel from the Header, Parameters, Units, Cosmology and HydroScheme groups
  // (Gadget-4, AREPO, GIZMO, SWIFT); unknown where none is written.
  SnapshotUnits units;

  int types() const { return int(npart.size()); }
  std::uint64_t count(int type) const { return type < types() ? npart[std::size_t(type)] : 0; }
  double mass_of(int type) const { return type < int(mass.size()) ? mass[std::size_t(type)] : 0.0; }
};

struct Hdf5Field {
  std::string name;        // the dataset's name in PartType<t>
  std::size_t rows = 0;    // particles
  int components = 1;      // values per particle (the second dimension; 1 for a 1-D dataset)
  std::string value_type;  // "float32", "float64", "int64", "uint32", ... as stored
  bool raw = false;        // contiguous unfiltered IEEE floats at `offset`, `value_bytes` each
  std::size_t offset = 0;
  int value_bytes = 0;
  bool big_endian = false;
};

class Hdf5File {
 public:
  // A file that is not HDF5, or has no Header group: UserError saying what it is.
  explicit Hdf5File(const std::string& path);
  ~Hdf5File();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  const std::string& path() const { return path_; }
  const Hdf5Header& header() const { return header_; }

  // The datasets of PartType<type>, by name; none when the group is missing. Described once per
  // type (a snapshot's quantities each look their dataset up), from one thread.
  const std::vector<Hdf5Field>& fields(int type) const;
  // The dataset a label names: its name in any case, or a name with the same Gadget label
  // (io/field_names.h: HSML finds SmoothingLength or SmoothingLengths); none if there is none.
  std::optional<Hdf5Field> find(int type, const std::string& label) const;
  // "Coordinates, Density, ..." for messages.
  std::string field_names(int type) const;

  // Component `component` of every row of `field` (for --info), through the library.
  ParticleArray<float> read_field(int type, const Hdf5Field& field, int component) const;

  // Rows [first, first + count) of `field` through the library (any stored type, converted to
  // float): component c times `factor` goes to targets[c], which may be null to skip it.
  void read(int type, const Hdf5Field& field, std::size_t first, std::size_t count, float* const targets[],
            int target_count, float factor) const;
  // Rows [first, first + count) of a one-value integer `field` (IDs) as unsigned 64-bit integers.
  void read_ids(int type, const Hdf5Field& field, std::size_t first, std::size_t count, std::uint64_t* out) const;

 private:
  std::string path_;
  std::int64_t file_ = -1;  // hid_t
  Hdf5Header header_;
  mutable std::map<int, std::vector<Hdf5Field>> fields_;  // by type, as fields() describes them
};

// Whether a file's first bytes are HDF5's signature (at offset 0; files with a user block are
// recognised by the library itself).
inline bool is_hdf5_start(const unsigned char* bytes, std::size_t size) {
  static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  return size >= 8 && std::memcmp(bytes, signature, 8) == 0;
}

}  // namespace splotch
