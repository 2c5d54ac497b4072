// Writes Gadget binary snapshots for the reader tests: format 1 or 2, either byte order, 4- or
// 8-byte values, any blocks (each holding the particles of some types).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace splotch::testing {

struct GadgetTestBlock {
  std::string label;           // format 2's label; format 1 writes none
  std::vector<double> values;  // for the types the block holds, in type order, `components` per particle
  int value_bytes = 4;         // 4: float, 8: double (integers: int32 / int64 when `integer`)
  bool integer = false;        // IDs
};

struct GadgetTestFile {
  int format = 2;
  bool big_endian = false;
  std::array<std::uint32_t, 6> npart{};
  std::array<double, 6> mass{};
  double time = 0.5, redshift = 1.0, box_size = 0.0;
  std::array<std::uint32_t, 6> npart_total{};
  int num_files = 1;
  int flag_double = 0;
  std::vector<GadgetTestBlock> blocks;

  std::string bytes() const {
    std::string out;
    auto raw = [&](const void* p, std::size_t n) {
      std::string b(static_cast<const char*>(p), n);
      if (big_endian) std::reverse(b.begin(), b.end());
      out += b;
    };
    auto u32 = [&](std::uint32_t v) { raw(&v, 4); };
    auto i32 = [&](std::int32_t v) { raw(&v, 4); };
    auto f64 = [&](double v) { raw(&v, 8); };
    auto label_record = [&](const std::string& label, std::uint32_t next) {
      if (format != 2) return;
      u32(8);
      std::string l = label;
      l.resize(4, ' ');
      out += l;
      u32(next + 8);
      u32(8);
    };
    label_record("HEAD", 256);
    u32(256);
    const std::size_t header_start = out.size();
    for (auto n : npart) u32(n);
    for (auto m : mass) f64(m);
    f64(time);
    f64(redshift);
    i32(1);  // flag_sfr
    i32(0);  // flag_feedback
    for (auto n : npart_total) u32(n);
    i32(1);  // flag_cooling
    i32(num_files);
    f64(box_size);
    f64(0.3);
    f64(0.7);
    f64(0.7);
    i32(0);
    i32(0);
    for (int t = 0; t < 6; ++t) u32(0);  // npartTotalHighWord
    i32(0);
    i32(flag_double);
    out.resize(header_start + 256, '\0');
    u32(256);
    for (const GadgetTestBlock& b : blocks) {
      const std::uint32_t size = std::uint32_t(b.values.size() * std::size_t(b.value_bytes));
      label_record(b.label, size);
      u32(size);
      for (double v : b.values) {
        if (b.integer && b.value_bytes == 8) {
          const std::int64_t x = std::int64_t(v);
          raw(&x, 8);
        } else if (b.integer) {
          i32(std::int32_t(v));
        } else if (b.value_bytes == 8) {
          f64(v);
        } else {
          const float x = float(v);
          raw(&x, 4);
        }
      }
      u32(size);
    }
    return out;
  }

  void write(const std::string& path) const {
    std::ofstream f(path, std::ios::binary);
    const std::string b = bytes();
    f.write(b.data(), std::streamsize(b.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
  }
};

}  // namespace splotch::testing
