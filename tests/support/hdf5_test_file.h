// Writes the HDF5 twin of a Gadget test snapshot (tests/support/gadget_test_file.h) for the HDF5 reader
// tests: the same particles as PartType<t> datasets under their HDF5 names, with the header in
// the ways the codes write it (Gadget-4's arrays of only the types used, SWIFT's 1-element arrays
// and 3-vector BoxSize), datasets contiguous or chunked and compressed, either byte order.
#pragma once

#ifdef SPLOTCH_HDF5

#include <hdf5.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/gadget_test_file.h"

namespace splotch::testing {

struct Hdf5TestOptions {
  int header_types = 6;            // length of the header's per-type arrays (Gadget-4: its NTYPES)
  bool scalars_as_arrays = false;  // SWIFT: Time, NumFilesPerSnapshot, ... as 1-element arrays
  bool box_as_vector = false;      // SWIFT: BoxSize as (L, L, L)
  bool chunked = false;            // chunked and gzip-compressed datasets
  bool big_endian = false;         // datasets stored big-endian
  bool plural_names = false;       // SWIFT's SmoothingLengths, Densities, InternalEnergies
  std::vector<double> box_sides;   // BoxSize as these values instead (a box that is not a cube)
};

class Hdf5TestWriter {
 public:
  // The dataset name of a Gadget block label.
  static std::string dataset_name(const std::string& label, bool plural) {
    static const std::map<std::string, std::pair<std::string, std::string>> names = {
        {"POS", {"Coordinates", "Coordinates"}},          {"VEL", {"Velocities", "Velocities"}},
        {"ID", {"ParticleIDs", "ParticleIDs"}},           {"MASS", {"Masses", "Masses"}},
        {"U", {"InternalEnergy", "InternalEnergies"}},    {"RHO", {"Density", "Densities"}},
        {"HSML", {"SmoothingLength", "SmoothingLengths"}}};
    auto it = names.find(label);
    if (it == names.end()) return label;
    return plural ? it->second.second : it->second.first;
  }

  // Writes `g` (one file of a snapshot) to `path` as HDF5. A block holds every type with
  // particles, or gas alone, or the types without a mass-table entry, whichever its size fits.
  static void write(const GadgetTestFile& g, const std::string& path, const Hdf5TestOptions& o = {}) {
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) throw std::runtime_error("cannot create " + path);
    hid_t header = H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const std::size_t nt = std::size_t(o.header_types);
    std::vector<std::uint64_t> npart(nt), total(nt);
    std::vector<double> mass(nt);
    for (std::size_t t = 0; t < nt && t < 6; ++t) {
      npart[t] = g.npart[t];
      total[t] = g.npart_total[t];
      mass[t] = g.mass[t];
    }
    attribute(header, "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT64, npart.data(), nt, true);
    attribute(header, "NumPart_Total", H5T_STD_U64LE, H5T_NATIVE_UINT64, total.data(), nt, true);
    attribute(header, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass.data(), nt, true);
    const bool arrays = o.scalars_as_arrays;
    attribute(header, "Time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &g.time, 1, arrays);
    attribute(header, "Redshift", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &g.redshift, 1, arrays);
    const int num_files = g.num_files;
    attribute(header, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT, &num_files, 1, arrays);
    const double cube[3] = {g.box_size, g.box_size, g.box_size};
    if (o.box_sides.empty())
      attribute(header, "BoxSize", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, cube, o.box_as_vector ? 3 : 1,
                arrays || o.box_as_vector);
    else
      attribute(header, "BoxSize", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, o.box_sides.data(), o.box_sides.size(), true);
    H5Gclose(header);

    std::size_t all = 0, gas = g.npart[0], unmassed = 0;
    for (int t = 0; t < 6; ++t) {
      all += g.npart[std::size_t(t)];
      if (g.mass[std::size_t(t)] == 0) unmassed += g.npart[std::size_t(t)];
    }
    std::map<int, hid_t> groups;
    for (const GadgetTestBlock& b : g.blocks) {
      const int k = b.label == "POS" || b.label == "VEL" ? 3 : 1;
      const std::size_t n = b.values.size() / std::size_t(k);
      std::size_t at = 0;  // particle index into the block
      for (int t = 0; t < 6; ++t) {
        const std::size_t count = g.npart[std::size_t(t)];
        const bool holds = count > 0 && (n == all || (n == gas && t == 0) ||
                                         (n == unmassed && n != all && n != gas && g.mass[std::size_t(t)] == 0));
        if (!holds) continue;
        if (!groups.count(t))
          groups[t] = H5Gcreate2(file, ("PartType" + std::to_string(t)).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        std::vector<double> values(b.values.begin() + std::ptrdiff_t(at * std::size_t(k)),
                                   b.values.begin() + std::ptrdiff_t((at + count) * std::size_t(k)));
        dataset(groups[t], dataset_name(b.label, o.plural_names), b, values, count, k, o);
        at += count;
      }
    }
    for (auto& [t, group] : groups) H5Gclose(group);
    H5Fclose(file);
  }

 private:
  static void attribute(hid_t group, const char* name, hid_t file_type, hid_t memory_type, const void* values,
                        std::size_t n, bool as_array) {
    const hsize_t dims[1] = {hsize_t(n)};
    hid_t space = as_array ? H5Screate_simple(1, dims, nullptr) : H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(group, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, memory_type, values);
    H5Aclose(a);
    H5Sclose(space);
  }

  static void dataset(hid_t group, const std::string& name, const GadgetTestBlock& b, const std::vector<double>& values,
                      std::size_t count, int k, const Hdf5TestOptions& o) {
    const hsize_t dims[2] = {hsize_t(count), hsize_t(k)};
    hid_t space = H5Screate_simple(k == 3 ? 2 : 1, dims, nullptr);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    if (o.chunked) {
      const hsize_t chunk[2] = {hsize_t(count < 7 ? count : 7), hsize_t(k)};  // several chunks, the last partial
      H5Pset_chunk(plist, k == 3 ? 2 : 1, chunk);
      H5Pset_shuffle(plist);
      H5Pset_deflate(plist, 6);
    }
    hid_t type;
    if (b.integer)
      type = b.value_bytes == 8 ? (o.big_endian ? H5T_STD_U64BE : H5T_STD_U64LE)
                                : (o.big_endian ? H5T_STD_U32BE : H5T_STD_U32LE);
    else
      type = b.value_bytes == 8 ? (o.big_endian ? H5T_IEEE_F64BE : H5T_IEEE_F64LE)
                                : (o.big_endian ? H5T_IEEE_F32BE : H5T_IEEE_F32LE);
    hid_t d = H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(d);
    H5Pclose(plist);
    H5Sclose(space);
  }
};

// A member of a compound dataset's rows: its name, offset in the row and HDF5 type.
struct CompoundMember {
  const char* name;
  std::size_t offset;
  hid_t type;
};

// A new file at `path` holding one compound dataset `dataset` of `rows` (as a semi-analytic
// catalogue is written), each row a `Row` with the members given.
template <class Row>
void write_compound_table(const std::string& path, const std::string& dataset, const std::vector<Row>& rows,
                          const std::vector<CompoundMember>& members) {
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot create " + path);
  hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  for (const CompoundMember& m : members) H5Tinsert(type, m.name, m.offset, m.type);
  const hsize_t n = rows.size();
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t d = H5Dcreate2(file, dataset.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
  H5Dclose(d);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
}

}  // namespace splotch::testing

#endif  // SPLOTCH_HDF5
