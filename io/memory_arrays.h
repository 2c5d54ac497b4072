// The particles a caller holds in memory (the Python module's NumPy arrays) as a snapshot of
// columns (io/column_snapshot.h), read by the render as a file's columns are, by name or by the
// Gadget label of the name (x, y, z the positions; h, hsml or SmoothingLength the smoothing
// lengths; mass, rho, u, temperature, ...). Each column uses the caller's memory in place
// (io/particle_array.h: lend_array), and so do the render's positions and smoothing lengths where
// one type is drawn whole (io/column_reader.h); the picture's intensities and colours, which the
// render normalises, are arrays of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/column_snapshot.h"

namespace splotch {

// One named array of float32 values: the caller's memory, kept alive by `keeper`.
struct MemoryField {
  std::string name;
  const float* values = nullptr;
  std::size_t count = 0;
  std::shared_ptr<const void> keeper;
  std::string held_as = "float32";  // what the caller gave (float64: converted to float32 by it), for --info
};

struct MemoryType {
  int file_type = 0;
  std::string name;  // "gas", "stars", ... (default "particles")
  std::vector<MemoryField> fields;
};

// The label (POS, VEL, HSML, MASS, RHO, U, ...) and component (x, y, z: 0, 1, 2; else -1) a field
// of this name is read as.
void memory_field_label(const std::string& name, std::string& label, int& component);

// The caller's types as a snapshot named `name` (the render's messages and its cache know it so).
// A UserError for a type without x, y and z, fields of unequal lengths, two of one name, or two
// types of one number.
ColumnSnapshot memory_snapshot(const std::string& name, std::vector<MemoryType> types);

}  // namespace splotch
