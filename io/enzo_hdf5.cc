// Enzo's HDF5 data files (io/enzo_data_file.h).
#include <hdf5.h>

#include <cstdio>

#include "errors/user_error.h"
#include "io/enzo_data_file.h"
#include "io/hdf5_handles.h"

namespace splotch {

struct EnzoDataFile::Handle {
  Id file;
};

namespace {

std::string group_name(int grid) {
  char name[32];
  std::snprintf(name, sizeof name, "Grid%08d", grid);
  return name;
}

// The grid's group of a packed file, else the root (a file per grid).
Id open_grid(hid_t file, int grid) {
  const std::string g = group_name(grid);
  if (H5Lexists(file, g.c_str(), H5P_DEFAULT) > 0) return Id(H5Gopen2(file, g.c_str(), H5P_DEFAULT), H5Gclose);
  return Id(H5Gopen2(file, "/", H5P_DEFAULT), H5Gclose);
}

template <class T>
std::vector<T> read_as(hid_t file, int grid, const std::string& name, hid_t memory_type, const std::string& path) {
  QuietErrors quiet;
  Id g = open_grid(file, grid);
  Id d(g.valid() ? H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT) : -1, H5Dclose);
  if (!d.valid())
    throw UserError("'" + path + "' has no dataset " + group_name(grid) + "/" + name +
                    ", which the hierarchy says is there: the output is incomplete or damaged");
  Id space(H5Dget_space(d.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  std::vector<T> v(n > 0 ? std::size_t(n) : 0);
  if (!v.empty() && H5Dread(d.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw UserError("cannot read " + group_name(grid) + "/" + name + " of '" + path +
                    "' (not numbers, or the file is truncated)");
  return v;
}

}  // namespace

EnzoDataFile::EnzoDataFile(const std::string& path) : path_(path), handle_(new Handle{Id(-1, H5Fclose)}) {
  QuietErrors quiet;
  handle_->file = Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!handle_->file.valid())
    throw UserError("cannot open the Enzo data file '" + path +
                    "' as HDF5 (missing, truncated, or an HDF4 file of an old Enzo, which is not read)");
}

EnzoDataFile::~EnzoDataFile() = default;

std::vector<EnzoDataset> EnzoDataFile::datasets(int grid) const {
  QuietErrors quiet;
  std::vector<EnzoDataset> out;
  Id g = open_grid(handle_->file.get(), grid);
  if (!g.valid()) return out;
  for (const std::string& name : link_names(g.get())) {
    Id object(H5Oopen(g.get(), name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid() || H5Iget_type(object.get()) != H5I_DATASET) continue;  // (groups of active particles)
    Id d(H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    Id space(H5Dget_space(d.get()), H5Sclose);
    Id t(H5Dget_type(d.get()), H5Tclose);
    const H5T_class_t c = H5Tget_class(t.get());
    if (c != H5T_INTEGER && c != H5T_FLOAT) continue;
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0 || rank > 3) continue;
    hsize_t dims[3] = {1, 1, 1};
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    EnzoDataset ds;
    ds.name = name;
    ds.type = (c == H5T_FLOAT                         ? "float"
               : H5Tget_sign(t.get()) == H5T_SGN_NONE ? "uint"
                                                      : "int") +
              std::to_string(8 * H5Tget_size(t.get()));
    for (int k = 0; k < rank; ++k) ds.shape.push_back(std::size_t(dims[k]));
    out.push_back(ds);
  }
  return out;
}

std::vector<double> EnzoDataFile::read(int grid, const std::string& name) const {
  return read_as<double>(handle_->file.get(), grid, name, H5T_NATIVE_DOUBLE, path_);
}

std::vector<std::int64_t> EnzoDataFile::read_integers(int grid, const std::string& name) const {
  return read_as<std::int64_t>(handle_->file.get(), grid, name, H5T_NATIVE_INT64, path_);
}

}  // namespace splotch
