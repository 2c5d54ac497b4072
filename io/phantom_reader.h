// The Phantom reader (simtype 20; the original has none): Phantom's and sphNG's binary dumps (tagged, or
// untagged as sphNG's and Phantom's before 2014 are: io/phantom_untagged.h; any format version; either byte order,
// single or double precision, full and small dumps, the blocks of MPI runs, the sink particles' arrays) and its HDF5
// dumps. A particle's type is its iphase (itype in HDF5): file types 1 gas, 2 empty (dust in dumps whose idust is 2), 3
// boundary, 4 stars, 5 dark matter, 6 bulge, from idust (7) dust, and 0 the sink particles. Particles accreted onto
// sinks (h < 0) are left out. Each type's mass is the header's massoftype, its density mass (hfact / h)^3, and its
// smoothing length Phantom's h, whose kernel reaches to 2h (a map's support, io/snapshot_units.h:
// code "Phantom"). Units from udist, umass, utime. sphNG's dumps (no "Phantom" in the fileident) type
// by sphNG's iphase: 0 gas (1), 1 to 9 point masses (0, sinks), 10 stars (4), 11 on dust (7), below 0
// dead (left out); their mass and rho are arrays (a small dump's mass the header's pmassinitial).
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

constexpr int phantom_sink_type = 0;
constexpr int phantom_max_type = 63;

// "gas", "dust", "sinks", ... for file type t (dust from `idust`, 7 in Phantom since 2019).
std::string phantom_type_name(int t, int idust = 7);

// Whether `path` starts as a Phantom binary dump does (its first record's check integers), or is a
// Phantom HDF5 dump (header/fileident, particles/xyz).
bool is_phantom_dump(const std::string& path);

// Every type's count and columns (without values), from the header alone.
ColumnSnapshot phantom_outline(const std::string& path);
ColumnSnapshot load_phantom(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress = {});

// What the two kinds of dump share, as the parsers deliver it: the header's values by tag (a tag
// written several times, npartoftype and massoftype, gives several), and the particle and sink arrays.
struct PhantomArray {
  std::string name, type;      // type as the file holds it: "float64", "int8", ...
  std::vector<double> values;  // empty when not read
};
struct PhantomDump {
  std::string path, kind;  // kind: "binary, 64-bit reals, 1 block", "HDF5"
  std::string fileident;
  std::vector<std::pair<std::string, std::vector<double>>> header;
  bool sphng = false;  // sphNG's dump (types by its iphase: 0 gas, 1-9 point masses, 10 stars, 11 on dust)
  std::size_t particles = 0, sinks = 0;
  std::size_t point_masses = 0;  // sphNG: the length of its point-mass list (they are among the particles)
  std::vector<PhantomArray> arrays, sink_arrays;
  std::vector<std::int64_t> iorig;  // the particles' IDs where the dump has them (iorig)
  const std::vector<double>* value(const std::string& tag) const;
};

// Whether the array `name` of the particles (sinks: of the sinks) is to be read for `wanted`:
// the positions, h and the types always, the others as `wanted` names them (x, vx, u, ...: POS,
// VEL, U, as ColumnType::find takes them).
bool phantom_array_wanted(const std::string& name, bool sinks, const ColumnWanted& wanted);

// The HDF5 dump (io/phantom_hdf5.cc; without HDF5, an error), its arrays named as the binary dump
// names them (xyz as x, y, z); `values`: read the wanted arrays, else only their names.
bool is_phantom_hdf5(const std::string& path);
PhantomDump read_phantom_hdf5(const std::string& path, const ColumnWanted& wanted, bool values);

}  // namespace splotch
