// An Enzo data file (HDF5): the packed files of Enzo 2 (DD0018.cpu0000, a group GridNNNNNNNN per
// grid) or the older file per grid (DD0018.grid0001, its datasets at the root). Built with HDF5
// only (io/enzo_hdf5.cc; without it io/no_hdf5.cc's stand-in says so).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace splotch {

struct EnzoDataset {
  std::string name;
  std::string type;                // "float32", "int64", ...
  std::vector<std::size_t> shape;  // as HDF5 gives it: (nz, ny, nx) for a 3-D grid's field
};

class EnzoDataFile {
 public:
  explicit EnzoDataFile(const std::string& path);  // an error names the file
  ~EnzoDataFile();
  EnzoDataFile(const EnzoDataFile&) = delete;
  EnzoDataFile& operator=(const EnzoDataFile&) = delete;

  const std::string& path() const { return path_; }
  // The grid's datasets (groups inside it are not listed); empty where the file has no such grid.
  std::vector<EnzoDataset> datasets(int grid) const;
  // A dataset's values in the file's order, converted by HDF5.
  std::vector<double> read(int grid, const std::string& name) const;
  std::vector<std::int64_t> read_integers(int grid, const std::string& name) const;

 private:
  struct Handle;
  std::string path_;
  std::unique_ptr<Handle> handle_;
};

}  // namespace splotch
