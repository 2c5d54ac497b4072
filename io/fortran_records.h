// A Fortran unformatted sequential file (RAMSES' amr, hydro and part files): records, each between
// two length markers of 4 bytes, in either byte order (the first marker decides). gfortran splits a
// record of 2 GiB or more into subrecords whose markers are negative while more follow; they are
// joined here. Records are found as they are asked for, so that a header costs a few small reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "io/byte_order.h"
#include "io/input_file.h"

namespace splotch {

class FortranRecords {
 public:
  // `whole`: read the file into memory at once (for reading all of it), else record by record.
  explicit FortranRecords(const std::string& path, bool whole = false);

  const std::string& path() const { return file_.path(); }
  bool swapped() const { return swap_; }
  std::size_t file_size() const { return file_.size(); }
  // Whether record i (from 0) exists; finds the records up to it.
  bool has(std::size_t i);
  // Its length in bytes; a record past the end of the file is an error naming `what`.
  std::size_t size(std::size_t i, const char* what);
  // Its bytes (subrecords joined).
  std::vector<unsigned char> bytes(std::size_t i, const char* what);

  // The record as values of T (4 or 8 bytes, or 1), byte order mended; its length must be a
  // whole number of them (`count`, when given, exactly that many).
  template <class T>
  std::vector<T> values(std::size_t i, const char* what, std::size_t count = npos) {
    const std::vector<unsigned char> b = bytes(i, what);
    check_length(i, b.size(), sizeof(T), count, what);
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
    if constexpr (sizeof(T) == 4) {
      if (swap_) swap_words<std::uint32_t>(v.data(), v.size());
    } else if constexpr (sizeof(T) == 8) {
      if (swap_) swap_words<std::uint64_t>(v.data(), v.size());
    }
    return v;
  }
  // The first value of a record of at least one T.
  template <class T>
  T value(std::size_t i, const char* what) {
    const std::vector<T> v = values<T>(i, what);
    if (v.empty()) throw_short(i, what);
    return v[0];
  }
  // A record of reals, 4 or 8 bytes each as its length says (`count` of them), as doubles.
  std::vector<double> reals(std::size_t i, std::size_t count, const char* what);
  // A record of integers of 1, 4 or 8 bytes each (`count` of them), as 64-bit integers.
  std::vector<std::int64_t> integers(std::size_t i, std::size_t count, const char* what);

  static constexpr std::size_t npos = ~std::size_t(0);

 private:
  struct Piece {
    std::uint64_t offset, bytes;
  };
  struct Record {
    std::vector<Piece> pieces;
    std::uint64_t bytes = 0;
  };
  void read(void* dest, std::size_t bytes, std::uint64_t offset) const;
  std::int32_t marker(std::uint64_t offset) const;
  bool index_next();
  void check_length(std::size_t i, std::size_t bytes, std::size_t value_bytes, std::size_t count,
                    const char* what) const;
  [[noreturn]] void throw_short(std::size_t i, const char* what) const;

  InputFile file_;
  std::vector<unsigned char> whole_;  // the file, when read at once
  bool swap_ = false;
  std::vector<Record> records_;
  std::uint64_t next_ = 0;  // where the next record's marker is
};

}  // namespace splotch
