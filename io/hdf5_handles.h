// What every user of the HDF5 C library here needs: its errors kept quiet (each failure becomes
// one message of ours), identifiers closed when they go out of scope, a group's link names. Included only by the
// sources built with HDF5 (io/hdf5_file.cc, io/hdf5_table_reader.cc).
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace splotch {

// HDF5 prints its error stack by default; we turn every failure into one message of our own.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// An HDF5 identifier closed when it goes out of scope.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Id(Id&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id& operator=(Id&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(close_, other.close_);
    return *this;
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// The names of a group's links (its datasets and groups), in name order.
inline std::vector<std::string> link_names(hid_t group) {
  H5G_info_t info;
  if (H5Gget_info(group, &info) < 0) return {};
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t length = H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (length < 0) continue;
    std::string name(std::size_t(length) + 1, '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
    name.resize(std::size_t(length));
    names.push_back(name);
  }
  return names;
}

}  // namespace splotch
