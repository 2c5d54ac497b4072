// read_raw: the raw float32 layouts of the original Splotch (simtype 0 "table", 1 "blocks"),
// written byte for byte to a temporary directory in either byte order and read back. Values
// must round-trip exactly; the reading defaults and the errors follow docs/design.md section 3 ("Reading defaults").
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/raw_reader.h"
#include "tests/support/test_support.h"

using splotch::ParticleSet;
using splotch::RawOptions;
using splotch::read_raw;
using splotch::UserError;
using Layout = splotch::RawOptions::Layout;

using splotch::testing::TempDir;

namespace {

// The floats as 4-byte words in the given byte order.
std::string encode(const std::vector<float>& values, bool big_endian) {
  std::string bytes(4 * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t w;
    std::memcpy(&w, &values[i], 4);
    for (int b = 0; b < 4; ++b) {
      const int shift = big_endian ? 8 * (3 - b) : 8 * b;
      bytes[4 * i + std::size_t(b)] = char((w >> shift) & 0xffu);
    }
  }
  return bytes;
}

using Rows = std::vector<std::vector<float>>;  // [particle][field]

// The file contents of `rows` in either layout.
std::vector<float> flatten(const Rows& rows, Layout layout) {
  std::vector<float> out;
  const std::size_t nf = rows[0].size();
  if (layout == Layout::table) {
    for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
  } else {
    for (std::size_t f = 0; f < nf; ++f)
      for (const auto& row : rows) out.push_back(row[f]);
  }
  return out;
}

// The first `count` fields of every row.
Rows column_subset(const Rows& rows, std::size_t count) {
  Rows out;
  for (const auto& row : rows) out.emplace_back(row.begin(), row.begin() + long(count));
  return out;
}

std::vector<float> column(const Rows& rows, int field, float scale = 1.0f) {
  std::vector<float> out;
  for (const auto& row : rows) out.push_back(row[std::size_t(field)] * scale);
  return out;
}

// Fields: x y z r I C1 C2 C3; values with full mantissas, and plausible positions.
const Rows kRows = {
    {12.345678f, -0.001234f, 98.7654f, 0.3f, 7.0e-5f, 0.123f, 0.456f, 0.789f},
    {1.0e4f, 2.5f, -3.75f, 1.1f, 12.5f, 1.0e-3f, 5.5f, 6.25f},
    {-55.5f, 33.333f, 0.0f, 2.0f, 0.5f, 3.0e5f, -1.0f, 100.0f},
};

RawOptions options(Layout layout, int num_fields, bool swap_endian) {
  RawOptions o;
  o.layout = layout;
  o.num_fields = num_fields;
  o.swap_endian = swap_endian;
  return o;
}

// All eight columns present and used.
RawOptions all_columns(Layout layout, bool swap_endian) {
  RawOptions o = options(layout, 8, swap_endian);
  o.hsml = 3;
  o.intensity = 4;
  o.colour[0] = 5;
  o.colour[1] = 6;
  o.colour[2] = 7;
  o.vector_colour = true;
  o.smooth_factor = 2.5f;
  return o;
}

std::string write_rows(const TempDir& dir, const Rows& rows, Layout layout, bool big_endian) {
  return dir.write("p.bin", encode(flatten(rows, layout), big_endian));
}

void check_all_columns(const ParticleSet& p) {
  CHECK(p.size() == 3);
  CHECK(p.x == column(kRows, 0));
  CHECK(p.y == column(kRows, 1));
  CHECK(p.z == column(kRows, 2));
  CHECK(p.hsml == column(kRows, 3, 2.5f));
  CHECK(p.intensity == column(kRows, 4));
  CHECK(p.colour[0] == column(kRows, 5));
  CHECK(p.colour[1] == column(kRows, 6));
  CHECK(p.colour[2] == column(kRows, 7));
  CHECK(p.type.empty());
  CHECK(p.box_size == 0.0);
}

void check_layout(Layout layout) {
  const TempDir dir;
  SUBCASE("big-endian file, swap_endian = TRUE") {
    check_all_columns(read_raw(write_rows(dir, kRows, layout, true), all_columns(layout, true)));
  }
  SUBCASE("little-endian file, swap_endian = FALSE") {
    check_all_columns(read_raw(write_rows(dir, kRows, layout, false), all_columns(layout, false)));
  }
  SUBCASE("columns in any order") {
    // The file's field f holds quantity perm[f].
    const int perm[8] = {7, 3, 0, 6, 1, 5, 2, 4};
    Rows shuffled(kRows.size(), std::vector<float>(8));
    for (std::size_t i = 0; i < kRows.size(); ++i)
      for (int f = 0; f < 8; ++f) shuffled[i][std::size_t(f)] = kRows[i][std::size_t(perm[f])];
    RawOptions o = options(layout, 8, true);
    int* targets[8] = {&o.x, &o.y, &o.z, &o.hsml, &o.intensity, &o.colour[0], &o.colour[1], &o.colour[2]};
    for (int f = 0; f < 8; ++f) *targets[perm[f]] = f;
    o.vector_colour = true;
    o.smooth_factor = 2.5f;
    check_all_columns(read_raw(write_rows(dir, shuffled, layout, true), o));
  }
  SUBCASE("absent r, I and C1 take the original's defaults") {
    RawOptions o = options(layout, 3, true);
    o.smooth_factor = 1.5f;
    const ParticleSet p = read_raw(write_rows(dir, column_subset(kRows, 3), layout, true), o);
    CHECK(p.x == column(kRows, 0));
    CHECK(p.z == column(kRows, 2));
    CHECK(p.hsml == std::vector<float>{1.5f, 1.5f, 1.5f});
    CHECK(p.intensity == std::vector<float>{0.5f, 0.5f, 0.5f});
    CHECK(p.colour[0] == std::vector<float>{1.0f, 1.0f, 1.0f});
    CHECK(p.colour[1].empty());
    CHECK(p.colour[2].empty());
  }
  SUBCASE("present r is multiplied by smooth_factor; the default factor is 1") {
    RawOptions o = options(layout, 8, true);
    o.hsml = 3;
    const ParticleSet p = read_raw(write_rows(dir, kRows, layout, true), o);
    CHECK(p.hsml == column(kRows, 3));
  }
  SUBCASE("without vector colours C2 and C3 are not read") {
    RawOptions o = all_columns(layout, true);
    o.vector_colour = false;
    const ParticleSet p = read_raw(write_rows(dir, kRows, layout, true), o);
    CHECK(p.colour[0] == column(kRows, 5));
    CHECK(p.colour[1].empty());
    CHECK(p.colour[2].empty());
  }
  SUBCASE("vector colours without C2 and C3: green and blue are 0") {
    RawOptions o = all_columns(layout, true);
    o.colour[1] = o.colour[2] = -1;
    const ParticleSet p = read_raw(write_rows(dir, kRows, layout, true), o);
    CHECK(p.colour[0] == column(kRows, 5));
    CHECK(p.colour[1] == std::vector<float>{0, 0, 0});
    CHECK(p.colour[2] == std::vector<float>{0, 0, 0});
  }
}

}  // namespace

TEST_CASE("read_raw::table") { check_layout(Layout::table); }

TEST_CASE("read_raw::blocks") { check_layout(Layout::blocks); }

TEST_CASE("read_raw::table vector colours need both C2 and C3 (the original's rule)") {
  const TempDir dir;
  const std::string file = write_rows(dir, kRows, Layout::table, true);
  RawOptions o = all_columns(Layout::table, true);
  SUBCASE("only C2") { o.colour[2] = -1; }
  SUBCASE("only C3") { o.colour[1] = -1; }
  const ParticleSet p = read_raw(file, o);
  CHECK(p.colour[0] == column(kRows, 5));
  CHECK(p.colour[1] == std::vector<float>{0, 0, 0});
  CHECK(p.colour[2] == std::vector<float>{0, 0, 0});
}

TEST_CASE("read_raw::blocks vector colours read C2 and C3 each when given") {
  const TempDir dir;
  const std::string file = write_rows(dir, kRows, Layout::blocks, true);
  RawOptions o = all_columns(Layout::blocks, true);
  SUBCASE("only C2") {
    o.colour[2] = -1;
    const ParticleSet p = read_raw(file, o);
    CHECK(p.colour[1] == column(kRows, 6));
    CHECK(p.colour[2] == std::vector<float>{0, 0, 0});
  }
  SUBCASE("only C3") {
    o.colour[1] = -1;
    const ParticleSet p = read_raw(file, o);
    CHECK(p.colour[1] == std::vector<float>{0, 0, 0});
    CHECK(p.colour[2] == column(kRows, 7));
  }
}

TEST_CASE("read_raw::particle count is the size over 4 * num_fields") {
  const TempDir dir;
  std::vector<float> values(4 * 5);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i + 1);
  const std::string file = dir.write("p.bin", encode(values, true));

  SUBCASE("4 fields: 5 particles") {
    const ParticleSet p = read_raw(file, options(Layout::table, 4, true));
    CHECK(p.size() == 5);
    CHECK(p.x == std::vector<float>{1, 5, 9, 13, 17});
    CHECK(p.z == std::vector<float>{3, 7, 11, 15, 19});
  }
  SUBCASE("2 fields: 10 particles") {
    RawOptions o = options(Layout::blocks, 2, true);
    o.x = 1;
    o.y = 0;
    o.z = 1;
    const ParticleSet p = read_raw(file, o);
    CHECK(p.size() == 10);
    CHECK(p.x == std::vector<float>{11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
    CHECK(p.y == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    CHECK(p.hsml.size() == 10);
    CHECK(p.intensity.size() == 10);
    CHECK(p.colour[0].size() == 10);
  }
  SUBCASE("1 field: 20 particles at x = y = z") {
    RawOptions o = options(Layout::table, 1, true);
    o.x = o.y = o.z = 0;
    const ParticleSet p = read_raw(file, o);
    CHECK(p.size() == 20);
    CHECK(p.x == values);
    CHECK(p.y == values);
  }
}

TEST_CASE("read_raw::errors") {
  const TempDir dir;
  const Layout layouts[] = {Layout::table, Layout::blocks};
  SUBCASE("a truncated file names the file and the sizes") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      std::vector<float> values(4 * 3, 1.0f);
      std::string bytes = encode(values, true) + std::string(8, '\0');  // 56 bytes
      const std::string file = dir.write("short.bin", bytes);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 4, true)), doctest::Contains(("'" + file + "'").c_str()),
                           UserError);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 4, true)), doctest::Contains("56 bytes"), UserError);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 4, true)), doctest::Contains("16 bytes"), UserError);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 4, true)), doctest::Contains("num_blocks"), UserError);
    }
  }
  SUBCASE("a file shorter than one record") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = dir.write("tiny.bin", encode({1.0f, 2.0f}, true));
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, true)),
                           doctest::Contains("its size, 8 bytes, is not a multiple of"), UserError);
    }
  }
  SUBCASE("an empty file") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = dir.write("empty.bin", "");
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, true)),
                           doctest::Contains(("'" + file + "' is empty").c_str()), UserError);
    }
  }
  SUBCASE("a missing file names the path") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = dir.path("nope.bin");
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, true)),
                           doctest::Contains(("cannot open '" + file + "': No such file or directory").c_str()),
                           UserError);
    }
  }
  SUBCASE("a directory instead of a file") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      CHECK_THROWS_WITH_AS(read_raw(dir.path(), options(layout, 3, true)),
                           doctest::Contains(("'" + dir.path() + "' is a directory").c_str()), UserError);
    }
  }
  SUBCASE("a column beyond num_fields") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = write_rows(dir, column_subset(kRows, 3), layout, true);
      RawOptions o = options(layout, 3, true);
      o.colour[0] = 3;
      CHECK_THROWS_WITH_AS(read_raw(file, o), doctest::Contains("column C1 = 4 exceeds num_blocks = 3"), UserError);
      o.colour[0] = -1;
      o.z = 5;
      CHECK_THROWS_WITH_AS(read_raw(file, o), doctest::Contains("column z = 6 exceeds num_blocks = 3"), UserError);
      CHECK_THROWS_WITH_AS(read_raw(file, o), doctest::Contains(("'" + file + "'").c_str()), UserError);
    }
  }
  SUBCASE("a missing position column") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      RawOptions o = options(layout, 3, true);
      o.y = -1;
      CHECK_THROWS_WITH_AS(read_raw(dir.path("any.bin"), o), doctest::Contains("the column of y must be given"),
                           UserError);
    }
  }
  SUBCASE("num_fields 0") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      CHECK_THROWS_WITH_AS(read_raw(dir.path("any.bin"), options(layout, 0, true)), doctest::Contains("num_blocks = 0"),
                           UserError);
    }
  }
}

namespace {

// `n` particles of 3 fields with positions uniform in [10, 100), as a simulation in Mpc or kpc.
Rows realistic_positions(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(10.0f, 100.0f);
  Rows rows(n, std::vector<float>(3));
  for (auto& row : rows)
    for (float& v : row) v = uniform(rng);
  return rows;
}

// Positions 10, 20, ..., 100: round numbers whose low mantissa bytes are zero.
Rows round_positions() {
  Rows rows;
  for (int i = 1; i <= 10; ++i) rows.push_back({10.0f * float(i), 5.0f * float(i), 100.0f});
  return rows;
}

}  // namespace

TEST_CASE("read_raw::wrong byte order is reported") {
  const TempDir dir;
  const Layout layouts[] = {Layout::table, Layout::blocks};
  SUBCASE("control: the right byte order reads realistic positions exactly") {
    const Rows rows = realistic_positions(1000, 1);
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      ParticleSet p = read_raw(write_rows(dir, rows, layout, true), options(layout, 3, true));
      CHECK(p.x == column(rows, 0));
      p = read_raw(write_rows(dir, rows, layout, false), options(layout, 3, false));
      CHECK(p.y == column(rows, 1));
    }
  }
  SUBCASE("round positions, big-endian file read with swap_endian = FALSE") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = write_rows(dir, round_positions(), layout, true);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, false)), doctest::Contains("set swap_endian = TRUE"),
                           UserError);
    }
  }
  SUBCASE("realistic positions, big-endian file read with swap_endian = FALSE") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = write_rows(dir, realistic_positions(1000, 2), layout, true);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, false)), doctest::Contains("set swap_endian = TRUE"),
                           UserError);
    }
  }
  SUBCASE("realistic positions, little-endian file read with swap_endian = TRUE") {
    for (Layout layout : layouts) {
      CAPTURE(int(layout));
      const std::string file = write_rows(dir, realistic_positions(1000, 3), layout, false);
      CHECK_THROWS_WITH_AS(read_raw(file, options(layout, 3, true)), doctest::Contains("set swap_endian = FALSE"),
                           UserError);
    }
  }
}

namespace {

// Field c of particle i in the large file: distinct per field, exact in float.
float large_value(std::size_t i, int c) { return float(i) * 0.5f + float(c) * 1000.0f + 1.0f; }

// A big-endian file of n particles x 6 fields in the given layout, written without building
// a vector of floats first.
std::string write_large(const TempDir& dir, std::size_t n, Layout layout) {
  const int nf = 6;
  std::string bytes(4 * n * nf, '\0');
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < nf; ++c) {
      const std::size_t slot = layout == Layout::table ? i * nf + std::size_t(c) : std::size_t(c) * n + i;
      std::uint32_t w;
      const float v = large_value(i, c);
      std::memcpy(&w, &v, 4);
      w = __builtin_bswap32(w);
      std::memcpy(&bytes[4 * slot], &w, 4);
    }
  return dir.write("large.bin", bytes);
}

}  // namespace

TEST_CASE("read_raw::large file read in parallel pieces") {
  // 3 million particles: several pieces of 2^20 particles per field (blocks) or of
  // 2^20 / 6 records (table), the last one partial.
  const std::size_t n = 3000000;
  const TempDir dir;
  for (Layout layout : {Layout::table, Layout::blocks}) {
    CAPTURE(int(layout));
    const std::string file = write_large(dir, n, layout);
    RawOptions o = options(layout, 6, true);
    o.hsml = 3;
    o.intensity = 4;
    o.colour[0] = 5;
    o.smooth_factor = 2.0f;
    std::vector<double> reports;
    const ParticleSet p = read_raw(file, o, [&](double f) { reports.push_back(f); });
    REQUIRE(p.size() == n);
    REQUIRE(p.hsml.size() == n);
    REQUIRE(p.intensity.size() == n);
    REQUIRE(p.colour[0].size() == n);
    CHECK(p.colour[1].empty());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      wrong += p.x[i] != large_value(i, 0);
      wrong += p.y[i] != large_value(i, 1);
      wrong += p.z[i] != large_value(i, 2);
      wrong += p.hsml[i] != large_value(i, 3) * 2.0f;
      wrong += p.intensity[i] != large_value(i, 4);
      wrong += p.colour[0][i] != large_value(i, 5);
    }
    CHECK(wrong == 0);
    // Progress, when reported, goes forward within (0, 1].
    for (std::size_t k = 0; k < reports.size(); ++k) {
      CHECK(reports[k] > 0.0);
      CHECK(reports[k] <= 1.0);
      if (k > 0) CHECK(reports[k] >= reports[k - 1]);
    }
    std::filesystem::remove(file);
  }
}
