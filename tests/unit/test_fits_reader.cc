// The FITS reader (io/fits_reader.h): an image cube the test writes with cfitsio (a point per
// voxel, NaN as 0, a range of slices), a binary table (columns by name, a vector column), and the
// real radio cube of ../shared/data.
#include <doctest/doctest.h>
#include <fitsio.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/fits_reader.h"
#include "io/read_snapshot.h"
#include "params/param_file.h"
#include "splotch/settings/settings.h"
#include "tests/support/column_test_support.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::TempDir;

using testing::column;

ColumnSnapshot all_of(const std::string& path, const FitsLayout& layout = {}) {
  ColumnWanted all;
  all.all = true;
  return load_fits(path, layout, all);
}

// A 4 x 3 x 2 cube of value 100 z + 10 y + x, one voxel NaN.
std::string write_cube(const TempDir& dir) {
  const std::string path = dir.path("cube.fits");
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, ("!" + path).c_str(), &status);
  long dims[3] = {4, 3, 2};
  fits_create_img(f, FLOAT_IMG, 3, dims, &status);
  std::vector<float> v;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) v.push_back(float(100 * z + 10 * y + x));
  v[5] = std::numeric_limits<float>::quiet_NaN();
  long first[3] = {1, 1, 1};
  fits_write_pix(f, TFLOAT, first, long(v.size()), v.data(), &status);
  fits_close_file(f, &status);
  REQUIRE(status == 0);
  return path;
}

std::string write_table(const TempDir& dir) {
  const std::string path = dir.path("table.fits");
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, ("!" + path).c_str(), &status);
  char* names[] = {const_cast<char*>("ID"),   const_cast<char*>("POSX"), const_cast<char*>("POSY"),
                   const_cast<char*>("POSZ"), const_cast<char*>("Mass"), const_cast<char*>("VEL")};
  char* forms[] = {const_cast<char*>("1J"), const_cast<char*>("1E"), const_cast<char*>("1E"),
                   const_cast<char*>("1D"), const_cast<char*>("1E"), const_cast<char*>("3E")};
  fits_create_tbl(f, BINARY_TBL, 2, 6, names, forms, nullptr, "PARTICLES", &status);
  int id[2] = {7, 8};
  float px[2] = {1, 2}, py[2] = {3, 4}, mass[2] = {0.5f, 0.25f}, vel[6] = {1, 2, 3, 4, 5, 6};
  double pz[2] = {5, 6};
  fits_write_col(f, TINT, 1, 1, 1, 2, id, &status);
  fits_write_col(f, TFLOAT, 2, 1, 1, 2, px, &status);
  fits_write_col(f, TFLOAT, 3, 1, 1, 2, py, &status);
  fits_write_col(f, TDOUBLE, 4, 1, 1, 2, pz, &status);
  fits_write_col(f, TFLOAT, 5, 1, 1, 2, mass, &status);
  fits_write_col(f, TFLOAT, 6, 1, 1, 6, vel, &status);
  fits_close_file(f, &status);
  REQUIRE(status == 0);
  return path;
}

}  // namespace

TEST_CASE("fits: an image cube is a point per voxel at its indices, NaN as 0; cube_begin and cube_end choose slices") {
  const TempDir dir;
  const std::string path = write_cube(dir);
  CHECK(is_fits_file(path));
  CHECK(detect_snapshot_format(path) == SnapshotFormat::fits);
  const ColumnSnapshot s = all_of(path);
  const ColumnType& t = s.types[0];
  REQUIRE(t.count == 24);
  const std::vector<const Column*> pos = t.find("POS", 3);
  const Column& value = column(t, "value");
  CHECK(pos[0]->values[7] == 3.0f);  // x of voxel 7: 7 % 4
  CHECK(pos[1]->values[7] == 1.0f);
  CHECK(pos[2]->values[13] == 1.0f);
  CHECK(value.values[13] == 101.0f);
  CHECK(value.values[5] == 0.0f);  // the NaN
  CHECK(s.notes.size() == 1);
  FitsLayout slices;
  slices.cube_begin = 1;
  slices.cube_end = 2;
  const ColumnSnapshot one = all_of(path, slices);
  REQUIRE(one.types[0].count == 12);
  CHECK(column(one.types[0], "value").values[0] == 100.0f);
  slices.cube_end = 3;
  CHECK_THROWS_WITH_AS(all_of(path, slices), doctest::Contains("has slices 0 to 2"), UserError);
  // The original's keys: the voxels coloured by their value, r every voxel's radius.
  ParamFile p = ParamFile::parse("simtype = 16\ninfile = " + path + "\nr = 0.5\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  CHECK(in.typed.types[0].colour.label == "value");
  const ParticleSet particles = read_snapshot(in);
  REQUIRE(particles.size() == 24);
  CHECK(particles.hsml[3] == 0.5f);
  CHECK(particles.colour[0][13] == 101.0f);
}

TEST_CASE("fits: a binary table is a point per row, its columns by name, a vector column by component") {
  const TempDir dir;
  const std::string path = write_table(dir);
  FitsLayout l;
  l.x = "POSX", l.y = "posy", l.z = "4";
  const ColumnSnapshot s = all_of(path, l);
  const ColumnType& t = s.types[0];
  REQUIRE(t.count == 2);
  CHECK(t.find("POS", 3)[2]->values[1] == 6.0f);
  CHECK(column(t, "MASS").values[1] == 0.25f);
  CHECK(column(t, "VEL_3").values[1] == 6.0f);
  CHECK(column(t, "ID").values[0] == 7.0f);
  FitsLayout missing;
  CHECK_THROWS_WITH_AS(all_of(path, missing), doctest::Contains("has no such numeric column (it has: ID, POSX"),
                       UserError);
}

TEST_CASE("fits: the real cube of ../shared/data (a GILDAS spectral cube, 4 axes)") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-cube test skipped: ../shared/data is not beside this checkout");
    return;
  }
  const ColumnSnapshot s = all_of(data + "/fits_example_cube.fits");
  REQUIRE(s.types[0].count == 3 * 4 * 7);  // NAXIS1-3 of its header; NAXIS4 = 1
  CHECK(s.header.size() == 1);
  CHECK(s.header[0].second == "Jy/beam");
  const Column& value = column(s.types[0], "value");
  CHECK(value.values.size() == 84);
  CHECK(std::all_of(value.values.begin(), value.values.end(), [](float v) { return std::isfinite(v); }));
}

}  // namespace splotch
