// The ASCII table reader (io/ascii_reader.h) and its keys (simtype 15): tables the test writes
// (space and comma separated, names in a header line or a comment, Fortran exponents, the
// original's 39-column catalogue), bad rows named by line, and the real table of ../shared/data.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/ascii_reader.h"
#include "io/read_snapshot.h"
#include "params/param_file.h"
#include "splotch/load/knn_hsml.h"
#include "splotch/settings/settings.h"
#include "tests/support/column_test_support.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::TempDir;

using testing::column;

ColumnSnapshot all_of(const std::string& path, const AsciiLayout& layout) {
  ColumnWanted all;
  all.all = true;
  return load_ascii(path, layout, all);
}

// A 39-column row of the original's catalogue: positions in 16-18, g r i z in 29, 31, 33, 35.
std::string catalogue_row(double x, double g, double r) {
  std::string row;
  for (int c = 1; c <= 39; ++c) {
    double v = c;
    if (c >= 16 && c <= 18) v = x + (c - 16);
    if (c == 29) v = g;
    if (c == 31) v = r;
    row += (c > 1 ? " " : "") + std::to_string(v);
  }
  return row + "\n";
}

}  // namespace

TEST_CASE("ascii: names from a header line or a comment, commas or spaces, D exponents; columns by number or name") {
  const TempDir dir;
  const std::string named = dir.write("named.txt", "# a table\nx y z mass h\n1 2 3 0.5 0.1\n4 5 6 0.25 0.2\n");
  const ColumnSnapshot a = all_of(named, {"x", "y", "z", ""});
  const ColumnType& t = a.types[0];
  REQUIRE(t.count == 2);
  CHECK(t.find("POS", 3)[1]->values[1] == 5.0f);
  CHECK(column(t, "MASS").values[1] == 0.25f);                 // (the name mass is the MASS label's)
  CHECK(column(t, "HSML").values[0] == doctest::Approx(0.1));  // (and h the smoothing lengths')
  const std::string csv = dir.write("t.csv", "% px, py, pz, rho\n1.0D+01, 2, 3, 7\n\n-1.5E0, 0, 0, 8\n");
  const ColumnSnapshot b = all_of(csv, {"1", "2", "3", "4"});
  REQUIRE(b.types[0].count == 2);
  CHECK(b.types[0].find("POS", 3)[0]->values[0] == 10.0f);
  CHECK(b.types[0].find("POS", 3)[0]->values[1] == -1.5f);
  CHECK(column(b.types[0], "HSML").name == "rho");  // r = 4: that column is the smoothing lengths
  CHECK(column(b.types[0], "RHO").values[1] == 8.0f);
  const std::string plain = dir.write("plain.txt", "1 2 3\n4 5 6\n");
  CHECK(all_of(plain, {"1", "2", "3", ""}).types[0].all_fields == std::vector<std::string>{"col1", "col2", "col3"});
  // Named columns that do not exist, and column numbers out of range.
  CHECK_THROWS_WITH_AS(all_of(named, {"x", "y", "w", ""}),
                       doctest::Contains("no column of that name (it has: x, y, z, mass, h"), UserError);
  CHECK_THROWS_WITH_AS(all_of(plain, {"1", "2", "4", ""}), doctest::Contains("has columns 1 to 3"), UserError);
}

TEST_CASE("ascii: a row of other columns, or a value that is no number, is an error naming its line") {
  const TempDir dir;
  const std::string short_row = dir.write("a.txt", "1 2 3\n# note\n4 5\n");
  CHECK_THROWS_WITH_AS(all_of(short_row, {"1", "2", "3", ""}),
                       doctest::Contains("a.txt' line 3: 2 values where the table has 3 columns"), UserError);
  const std::string word = dir.write("b.txt", "1 2 3\n4 five 6\n");
  CHECK_THROWS_WITH_AS(all_of(word, {"1", "2", "3", ""}),
                       doctest::Contains("b.txt' line 2, column 2 (col2): 'five' is not a number"), UserError);
  const std::string empty = dir.write("c.txt", "# nothing\n\n");
  CHECK_THROWS_WITH_AS(all_of(empty, {"1", "2", "3", ""}), doctest::Contains("holds no row of numbers"), UserError);
}

TEST_CASE("ascii: the original's catalogue of 39 columns, and its keys C1 and r") {
  const TempDir dir;
  const std::string path = dir.write("cat.txt", catalogue_row(10, 20.5, 19.0) + catalogue_row(11, 21.0, 20.5));
  const ColumnSnapshot s = all_of(path, {});
  const ColumnType& t = s.types[0];
  REQUIRE(t.count == 2);
  CHECK(t.find("POS", 3)[0]->values[1] == 11.0f);
  CHECK(t.find("POS", 3)[2]->values[0] == 12.0f);
  CHECK(column(t, "gDES").values[0] == 20.5f);
  CHECK(column(t, "gDES-rDES").values[1] == doctest::Approx(0.5));
  // Through the parameter file: C1 = 5 colours by g - r, r = 2 is every point's radius.
  ParamFile p = ParamFile::parse("simtype = 15\ninfile = " + path + "\nC1 = 5\nr = 2\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  REQUIRE(in.typed.types.size() == 1);
  CHECK(in.typed.types[0].colour.label == "gDES-rDES");
  CHECK(in.typed.types[0].size_fix == 2.0f);
  const ParticleSet particles = read_snapshot(in);
  REQUIRE(particles.size() == 2);
  CHECK(particles.colour[0][0] == doctest::Approx(1.5));
  CHECK(particles.hsml[1] == 2.0f);
  ParamFile bad = ParamFile::parse("simtype = 15\ninfile = " + path + "\nC1 = 4\n", "t.par");
  CHECK_THROWS_WITH_AS(read_snapshot_request(bad), doctest::Contains("C1 = 4: the original's catalogue has"),
                       UserError);
}

TEST_CASE("ascii: the real table of ../shared/data (MAGALIE, cgs)") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-table test skipped: ../shared/data is not beside this checkout");
    return;
  }
  const std::string path = data + "/ascii_magalie_bulge_asciifile_B";
  ParamFile p =
      ParamFile::parse("simtype = 15\ninfile = " + path + "\nx = 1\ny = 2\nz = 3\nr = 8\nI = 4\nC1 = 5\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  const ParticleSet s = read_snapshot(in);
  REQUIRE(s.size() == 1000);
  // The first row: -1.48879902738e+20 3.44698764165e+20 -8.2441418325e+18 3.23868065967e+37 218887.6 ...
  CHECK(s.x[0] == doctest::Approx(-1.48879902738e+20));
  CHECK(s.y[0] == doctest::Approx(3.44698764165e+20));
  CHECK(s.intensity[0] == doctest::Approx(3.23868065967e+37));
  CHECK(s.colour[0][0] == doctest::Approx(218887.6));
  // r names its h (10 cm for all): kept as given, no estimate replaces it.
  CHECK_FALSE(in.typed.types[0].estimate_if_constant);
  CHECK(s.hsml[0] == 10.0f);
  // Without r, the column named by no field: the smoothing lengths estimated (auto).
  ParamFile bare = ParamFile::parse("simtype = 15\ninfile = " + path + "\nx = 1\ny = 2\nz = 3\n", "t.par");
  CHECK(read_snapshot_request(bare).typed.types[0].size_estimate == SizeEstimate::knn);
  // Columns beyond the table: each key's problem with its line, all at once.
  ParamFile wrong = ParamFile::parse("simtype = 15\ninfile = " + path + "\nx = 1\ny = 11\nz = w\n", "t.par");
  try {
    read_snapshot_request(wrong);
    FAIL("no error");
  } catch (const UserError& e) {
    const std::string m = e.what();
    CHECK(m.find("t.par:4: y = 11: the table has columns 1 to 8") != std::string::npos);
  }
}

TEST_CASE("knn smoothing lengths of positions in cm (1e20 and more) are those of the same points at unit scale") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0, 1);
  const std::size_t n = 500;
  std::vector<float> x(n), y(n), z(n), big[3];
  for (std::size_t i = 0; i < n; ++i) x[i] = u(rng), y[i] = u(rng), z[i] = u(rng);
  const float scale = 3.0e20f;
  for (int a = 0; a < 3; ++a)
    for (std::size_t i = 0; i < n; ++i) big[a].push_back((a == 0 ? x : a == 1 ? y : z)[i] * scale);
  std::vector<float> h(n), hb(n);
  knn_hsml(x.data(), y.data(), z.data(), n, 32, 0, h.data());
  knn_hsml(big[0].data(), big[1].data(), big[2].data(), n, 32, 0, hb.data());
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(std::isfinite(hb[i]));
    CHECK(double(hb[i]) / scale == doctest::Approx(double(h[i])).epsilon(1e-5));
  }
}

}  // namespace splotch
