// An auxiliary array of a Tipsy snapshot: one more value per particle in a file of its own, named
// after the snapshot and the quantity (`snap.000010.smoothlength`, `snap.den`), as PKDGRAV,
// Gasoline and ChaNGa write the quantities their records have no room for. Two kinds exist:
// ASCII (the particle count on the first line, then one value per line) and binary (a 4-byte
// count, then float32 values, or float64 where the size says so; XDR writers make it
// big-endian), both holding every particle of the snapshot in its order: gas, dark, star.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/input_file.h"
#include "io/tipsy_file.h"

namespace splotch {

class TipsyAuxArray {
 public:
  // `particles`: the snapshot's nbodies, which the array's count must equal; a binary count is
  // read in the snapshot's byte order (`swapped`) first. A file of neither kind, or of another
  // count: UserError.
  TipsyAuxArray(const std::string& path, std::uint64_t particles, bool swapped);

  const std::string& path() const { return file_.path(); }
  bool binary() const { return binary_; }

  // Binary: the values from particle `from` (in file order) on, as records of one value each,
  // for reading in parallel pieces.
  TipsyRecords records(std::uint64_t from) const;
  // ASCII: values [first, first + count) times `factor` into out[0, count). The file is read
  // from its start each time (text cannot be entered in the middle).
  void read_text(std::uint64_t first, std::size_t count, float* out, float factor) const;

 private:
  InputFile file_;
  std::uint64_t particles_ = 0;
  bool binary_ = false, swapped_ = false;
  int value_bytes_ = 4;
};

}  // namespace splotch
