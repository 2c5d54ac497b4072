// Phantom's HDF5 dumps (io/phantom_reader.h): the header's datasets, particles/ and sinks/ with
// their arrays (xyz and vxyz as x, y, z and vx, vy, vz; itype the types), as the binary dump names them.
#include <hdf5.h>

#include <algorithm>
#include <cstring>

#include "errors/user_error.h"
#include "io/hdf5_file.h"
#include "io/hdf5_handles.h"
#include "io/input_file.h"
#include "io/phantom_reader.h"

namespace splotch {
namespace {

bool has_link(hid_t location, const char* path) { return H5Lexists(location, path, H5P_DEFAULT) > 0; }

// A dataset of numbers as doubles (rows x columns), or empty where it is none.
std::vector<double> read_numbers(hid_t group, const std::string& name, std::size_t& rows, std::size_t& columns,
                                 std::string& type, bool values) {
  Id d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) return {};
  Id space(H5Dget_space(d.get()), H5Sclose);
  Id t(H5Dget_type(d.get()), H5Tclose);
  const H5T_class_t c = H5Tget_class(t.get());
  if (c != H5T_INTEGER && c != H5T_FLOAT) {
    rows = 0;
    return {};
  }
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t dims[2] = {1, 1};
  if (rank < 0 || rank > 2) {
    rows = 0;
    return {};
  }
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  rows = rank == 0 ? 1 : std::size_t(dims[0]);
  columns = rank == 2 ? std::size_t(dims[1]) : 1;
  const std::size_t bytes = H5Tget_size(t.get());
  type = (c == H5T_FLOAT ? "float" : H5Tget_sign(t.get()) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(8 * bytes);
  if (!values) return {};
  std::vector<double> v(rows * columns);
  if (!v.empty() && H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw UserError("cannot read the dataset '" + name + "' of a Phantom HDF5 dump");
  return v;
}

// A group's arrays: one per column (xyz -> x, y, z; vxyz -> vx, vy, vz; other 2-D ones name_1, ...).
void read_group(hid_t file, const char* group, std::size_t& count, std::vector<PhantomArray>& out,
                std::vector<std::int64_t>* ids, const ColumnWanted& wanted, bool values, const std::string& path) {
  if (!has_link(file, group)) return;
  Id g(H5Gopen2(file, group, H5P_DEFAULT), H5Gclose);
  const bool sinks = std::strcmp(group, "sinks") == 0;
  for (const std::string& name : link_names(g.get())) {
    std::size_t rows = 0, columns = 1;
    std::string type;
    read_numbers(g.get(), name, rows, columns, type, false);
    if (rows == 0) continue;
    if (count == 0) count = rows;
    if (rows != count)
      throw UserError("'" + path + "': " + group + "/" + name + " has " + std::to_string(rows) + " rows, and " + group +
                      " " + std::to_string(count) + " particles: the dump is damaged");
    std::vector<std::string> names;
    if (columns == 3 && (name == "xyz" || name == "vxyz")) {
      const std::string p = name == "xyz" ? "" : "v";
      names = {p + "x", p + "y", p + "z"};
    } else if (columns == 1) {
      names = {name};
    } else {
      for (std::size_t k = 0; k < columns; ++k) names.push_back(name + "_" + std::to_string(k + 1));
    }
    if (name == "iorig" && ids) {
      if (values && (wanted.ids || wanted.all)) {
        const std::vector<double> v = read_numbers(g.get(), name, rows, columns, type, true);
        ids->assign(v.begin(), v.end());
      }
      continue;
    }
    bool any = false;
    for (const std::string& n : names) any = any || phantom_array_wanted(n, sinks, wanted);
    const std::vector<double> v =
        values && any ? read_numbers(g.get(), name, rows, columns, type, true) : std::vector<double>();
    for (std::size_t k = 0; k < names.size(); ++k) {
      PhantomArray a{names[k], type, {}};
      if (!v.empty() && phantom_array_wanted(names[k], sinks, wanted)) {
        a.values.resize(rows);
        for (std::size_t i = 0; i < rows; ++i) a.values[i] = v[i * columns + k];
      }
      out.push_back(std::move(a));
    }
  }
}

}  // namespace

bool is_phantom_hdf5(const std::string& path) {
  unsigned char start[8] = {0};
  try {
    InputFile f(path);
    if (f.size() < 8) return false;
    f.read_at(start, 8, 0);
  } catch (const UserError&) { return false; }
  if (!is_hdf5_start(start, 8)) return false;
  QuietErrors quiet;
  Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  return file.valid() && has_link(file.get(), "header") && has_link(file.get(), "particles") &&
         has_link(file.get(), "header/fileident");
}

PhantomDump read_phantom_hdf5(const std::string& path, const ColumnWanted& wanted, bool values) {
  QuietErrors quiet;
  Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) throw UserError("cannot open '" + path + "' as HDF5");
  PhantomDump d;
  d.path = path;
  d.kind = "HDF5";
  Id header(H5Gopen2(file.get(), "header", H5P_DEFAULT), H5Gclose);
  if (!header.valid()) throw UserError("'" + path + "' has no header group: not a Phantom HDF5 dump");
  for (const std::string& name : link_names(header.get())) {
    if (name == "fileident") {
      Id ds(H5Dopen2(header.get(), "fileident", H5P_DEFAULT), H5Dclose);
      Id t(H5Dget_type(ds.get()), H5Tclose);
      if (H5Tget_class(t.get()) == H5T_STRING && !H5Tis_variable_str(t.get())) {
        std::string text(H5Tget_size(t.get()), '\0');
        Id mem(H5Tcopy(t.get()), H5Tclose);
        if (H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()) >= 0)
          d.fileident = text.substr(0, text.find_last_not_of(std::string(" \0", 2)) + 1);
      }
      continue;
    }
    std::size_t rows = 0, columns = 1;
    std::string type;
    const std::vector<double> v = read_numbers(header.get(), name, rows, columns, type, true);
    if (!v.empty()) d.header.emplace_back(name, v);
  }
  read_group(file.get(), "particles", d.particles, d.arrays, &d.iorig, wanted, values, path);
  read_group(file.get(), "sinks", d.sinks, d.sink_arrays, nullptr, wanted, values, path);
  return d;
}

}  // namespace splotch
