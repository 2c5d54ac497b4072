// Writes Tipsy snapshots and their auxiliary arrays for the reader tests: either byte order, the
// 32-byte (padded) or 28-byte header, float or double positions and velocities, any header
// values (wrong ones too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace splotch::testing {

// The values of each record, in record order: gas 12 (mass, pos 3, vel 3, rho, temp, hsmooth,
// metals, phi), dark 9 (mass, pos 3, vel 3, eps, phi), star 11 (mass, pos 3, vel 3, metals, tform,
// eps, phi).
constexpr int tipsy_record_values[3] = {12, 9, 11};

inline void append_value(std::string& out, double v, int bytes, bool big_endian) {
  std::string b;
  if (bytes == 8) {
    b.assign(reinterpret_cast<const char*>(&v), 8);
  } else {
    const float f = float(v);
    b.assign(reinterpret_cast<const char*>(&f), 4);
  }
  if (big_endian) std::reverse(b.begin(), b.end());  // this machine is little-endian
  out += b;
}

inline void append_int(std::string& out, std::int32_t v, bool big_endian) {
  std::string b(reinterpret_cast<const char*>(&v), 4);
  if (big_endian) std::reverse(b.begin(), b.end());
  out += b;
}

struct TipsyTestFile {
  bool big_endian = true;
  bool padded = true;  // the 4 bytes after the header (a 32-byte header)
  std::int32_t pad = 0;
  double time = 0.25;
  std::int32_t ndim = 3;
  std::optional<std::int32_t> nbodies;  // unset: the sum of the counts
  int position_bytes = 4, velocity_bytes = 4;
  std::vector<std::vector<double>> records[3];  // gas, dark, star

  std::string bytes() const {
    std::string out;
    append_value(out, time, 8, big_endian);
    const auto n = [&](int t) { return std::int32_t(records[t].size()); };
    append_int(out, nbodies ? *nbodies : n(0) + n(1) + n(2), big_endian);
    append_int(out, ndim, big_endian);
    for (int t = 0; t < 3; ++t) append_int(out, n(t), big_endian);
    if (padded) append_int(out, pad, big_endian);
    for (int t = 0; t < 3; ++t)
      for (const std::vector<double>& r : records[t]) {
        if (int(r.size()) != tipsy_record_values[t]) throw std::logic_error("TipsyTestFile: record of a wrong size");
        for (int k = 0; k < int(r.size()); ++k)
          append_value(out, r[std::size_t(k)],
                       k >= 1 && k <= 3   ? position_bytes
                       : k >= 4 && k <= 6 ? velocity_bytes
                                          : 4,
                       big_endian);
      }
    return out;
  }

  void write(const std::string& path) const { write_file(path, bytes()); }
};

// An ASCII auxiliary array: the count, then one value per line.
inline std::string tipsy_ascii_array(const std::vector<double>& values) {
  std::string out = std::to_string(values.size()) + "\n";
  char line[64];
  for (double v : values) {
    std::snprintf(line, sizeof line, "%.9g\n", v);
    out += line;
  }
  return out;
}

// A binary auxiliary array: a 4-byte count, then the values (float or double).
inline std::string tipsy_binary_array(const std::vector<double>& values, bool big_endian, int value_bytes = 4) {
  std::string out;
  append_int(out, std::int32_t(values.size()), big_endian);
  for (double v : values) append_value(out, v, value_bytes, big_endian);
  return out;
}

}  // namespace splotch::testing
