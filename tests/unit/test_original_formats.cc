// The original's other simtypes: 4, the Millennium run's format-1 Gadget files (HSML, DENS and
// VELDISP after the IDs, no MASS block), 5 (raw blocks, read as 1), 6, the mesh of float32
// blocks (io/mesh_reader.h), and 10, VisIVO Binary Tables (io/visivo_reader.h), on files the test
// writes from the original readers' layouts and VisIVO's description of its tables.
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/bonsai_reader.h"
#include "io/byte_order.h"
#include "io/gadget_file.h"
#include "io/mesh_reader.h"
#include "io/read_snapshot.h"
#include "io/snapshot_survey.h"
#include "io/visivo_reader.h"
#include "params/param_file.h"
#include "splotch/settings/settings.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::TempDir;

// nx x ny x nz cells, `blocks` blocks: block b of cell i holds 1000 b + i; big-endian when `big`.
std::string write_mesh(const TempDir& dir, int nx, int ny, int nz, int blocks, bool big) {
  std::string bytes;
  for (int b = 1; b <= blocks; ++b)
    for (int i = 0; i < nx * ny * nz; ++i) {
      float v = float(1000 * b + i);
      std::uint32_t w;
      std::memcpy(&w, &v, 4);
      if (big != host_is_big_endian) w = byte_swapped(w);
      bytes.append(reinterpret_cast<const char*>(&w), 4);
    }
  return dir.write("mesh.bin", bytes);
}

}  // namespace

TEST_CASE("mesh (simtype 6): a point per cell at its indices, C and Fortran order, C1 and I by block") {
  const TempDir dir;
  const std::string path = write_mesh(dir, 4, 3, 2, 2, true);
  ParamFile p = ParamFile::parse(
      "simtype = 6\ninfile = " + path + "\nx = 4\ny = 3\nz = 2\nnum_blocks = 2\nC1 = 2\nI = 1\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  CHECK(in.format == SnapshotFormat::mesh);
  const ParticleSet s = read_snapshot(in);
  REQUIRE(s.size() == 24);
  CHECK(s.x[5] == 1.0f);  // cell 5: x = 5 % 4, y = 5 / 4, z = 0
  CHECK(s.y[5] == 1.0f);
  CHECK(s.z[13] == 1.0f);
  CHECK(s.colour[0][13] == 2013.0f);
  CHECK(s.intensity[13] == 1013.0f);
  CHECK(s.hsml[0] == 1.0f);  // one cell
  // Fortran order: the original swaps the first and last axes' sizes, x then runs over nz.
  MeshLayout f;
  f.nx = 4, f.ny = 3, f.nz = 2, f.blocks = 2, f.fortran_order = true;
  ColumnWanted all;
  all.all = true;
  const ColumnSnapshot fortran = load_mesh(path, f, all);
  CHECK(fortran.types[0].find("POS", 3)[0]->values[3] == 1.0f);  // 3 % 2
  CHECK(fortran.types[0].find("POS", 3)[1]->values[3] == 1.0f);  // 3 / 2
  // A size that does not fit, and a block beyond num_blocks.
  f.nx = 5;
  CHECK_THROWS_WITH_AS(load_mesh(path, f, all), doctest::Contains("check x, y, z and num_blocks"), UserError);
  ParamFile beyond =
      ParamFile::parse("simtype = 6\ninfile = " + path + "\nx = 4\ny = 3\nz = 2\nnum_blocks = 2\nC1 = 3\n", "t.par");
  CHECK_THROWS_WITH_AS(read_snapshot_request(beyond), doctest::Contains("C1 = 3: the blocks are 1 to num_blocks = 2"),
                       UserError);
}

// A VisIVO table of `rows` rows: column c of row i holds 100 c + i (floats or doubles, in the
// header's byte order), the columns after one another; its header as VisIVO's importers write it.
std::string write_visivo(const TempDir& dir, const std::string& name, const std::string& head, int columns, int rows,
                         bool doubles, bool big) {
  std::string bytes;
  for (int c = 0; c < columns; ++c)
    for (int i = 0; i < rows; ++i) {
      const double v = 100.0 * c + i;
      if (doubles) {
        std::uint64_t w;
        std::memcpy(&w, &v, 8);
        if (big != host_is_big_endian) w = byte_swapped(w);
        bytes.append(reinterpret_cast<const char*>(&w), 8);
      } else {
        const float f = float(v);
        std::uint32_t w;
        std::memcpy(&w, &f, 4);
        if (big != host_is_big_endian) w = byte_swapped(w);
        bytes.append(reinterpret_cast<const char*>(&w), 4);
      }
    }
  dir.write(name + ".head", head);
  return dir.write(name, bytes);
}

TEST_CASE("visivo (simtype 10): a table's columns by name or number, either byte order, floats or doubles; a volume") {
  const TempDir dir;
  for (const bool big : {false, true})
    for (const bool doubles : {false, true}) {
      CAPTURE(big);
      CAPTURE(doubles);
      const std::string path = write_visivo(
          dir, "t.bin",
          std::string(doubles ? "double" : "float") + "\n4\n5\n" + (big ? "big" : "little") + "\nX\nY\nZ\nmass\n", 4, 5,
          doubles, big);
      CHECK(is_visivo_table(path));
      CHECK(is_visivo_table(path + ".head"));
      CHECK(detect_snapshot_format(path) == SnapshotFormat::visivo);
      ColumnWanted all;
      all.all = true;
      const ColumnSnapshot s = load_visivo(path + ".head", AsciiLayout{}, all);
      REQUIRE(s.types.size() == 1);
      CHECK(s.types[0].count == 5);
      const std::vector<const Column*> pos = s.types[0].find("POS", 3);
      REQUIRE(pos.size() == 3);
      CHECK(pos[1]->values[3] == 103.0f);  // column 1 (Y), row 3
      CHECK(s.types[0].find("MASS", 1)[0]->values[4] == 304.0f);
    }
  // Through a parameter file: the positions by name and number, the colour and intensity by name and number.
  const std::string path = write_visivo(dir, "p.bin", "float\n5\n3\nlittle\nid\npx\npy\npz\nrho\n", 5, 3, false, false);
  ParamFile p = ParamFile::parse("simtype = 10\ninfile = " + path +
                                     "\nx = px\ny = 3\nz = pz\nC1 = rho\nI = 1\n"
                                     "size_fix0 = 0.5\n",
                                 "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  CHECK(in.format == SnapshotFormat::visivo);
  const ParticleSet s = read_snapshot(in);
  REQUIRE(s.size() == 3);
  CHECK(s.x[2] == 102.0f);
  CHECK(s.y[2] == 202.0f);
  CHECK(s.z[1] == 301.0f);
  CHECK(s.colour[0][1] == 401.0f);
  CHECK(s.intensity[2] == 2.0f);
  ParamFile wrong = ParamFile::parse("simtype = 10\ninfile = " + path + "\nx = q\ny = 3\nz = 9\n", "t.par");
  CHECK_THROWS_WITH_AS(read_snapshot_request(wrong), doctest::Contains("x = q: the table has no column of that name"),
                       UserError);
  // Without x, y, z keys a table needs columns named x, y, z.
  ColumnWanted all;
  all.all = true;
  CHECK_THROWS_WITH_AS(load_visivo(path, AsciiLayout{}, all), doctest::Contains("names no column x"), UserError);
  // A volume: its cells at their centres (x fastest), the cell's size as smoothing length.
  const std::string volume =
      write_visivo(dir, "v.bin", "float\n1\n24 4 3 2 0.5 0.5 0.5\nlittle\nrho\n", 1, 24, false, false);
  const ColumnSnapshot v = load_visivo(volume, AsciiLayout{}, all);
  CHECK(v.types[0].name == "cells");
  CHECK(v.types[0].count == 24);
  const std::vector<const Column*> cells = v.types[0].find("POS", 3);
  CHECK(cells[0]->values[5] == doctest::Approx(0.75));   // cell 5: x index 1
  CHECK(cells[1]->values[5] == doctest::Approx(0.75));   // y index 1
  CHECK(cells[1]->values[3] == doctest::Approx(0.25));   // cell 3: y index 0
  CHECK(cells[2]->values[13] == doctest::Approx(0.75));  // z index 1
  CHECK(v.types[0].find("HSML", 1)[0]->values[0] == doctest::Approx(0.5));
  CHECK(v.types[0].find("rho", 1)[0]->values[13] == 13.0f);
  // A first picture of a volume lights its cells by their value, as a FITS cube's voxels.
  const SnapshotSurvey survey = survey_columns(SnapshotFormat::visivo, visivo_outline(volume, AsciiLayout{}));
  CHECK(survey.types[0].brightness == "rho");
  CHECK(survey.types[0].cell_sizes);
  // Damaged: a short binary, a header of other counts, a header that ends early.
  dir.write("v.bin.head", "float\n2\n24 4 3 2 0.5 0.5 0.5\nlittle\nrho\nT\n");
  CHECK_THROWS_WITH_AS(load_visivo(volume, AsciiLayout{}, all), doctest::Contains("the file is truncated"), UserError);
  dir.write("v.bin.head", "float\n1\n24 4 3 3 0.5 0.5 0.5\nlittle\nrho\n");
  CHECK_THROWS_WITH_AS(load_visivo(volume, AsciiLayout{}, all), doctest::Contains("line 3"), UserError);
  dir.write("v.bin.head", "float\n3\n24\nlittle\nrho\n");
  CHECK_THROWS_WITH_AS(load_visivo(volume, AsciiLayout{}, all), doctest::Contains("names 1 of its 3 columns"),
                       UserError);
  dir.write("v.bin.head", "int\n3\n24\nlittle\nrho\n");
  CHECK_FALSE(is_visivo_table(volume));
  CHECK_THROWS_WITH_AS(load_visivo(volume, AsciiLayout{}, all), doctest::Contains("line 1 ('int'): not a type"),
                       UserError);
}

TEST_CASE("millennium (simtype 4): format 1 with HSML, DENS and VELDISP after the IDs, big-endian") {
  const TempDir dir;
  testing::GadgetTestFile g;
  g.format = 1;
  g.big_endian = true;
  g.npart = {0, 3, 0, 0, 0, 0};
  g.mass = {0, 0.5, 0, 0, 0, 0};
  g.blocks = {{"", {1, 2, 3, 4, 5, 6, 7, 8, 9}, 4, false},
              {"", {0, 0, 0, 0, 0, 0, 0, 0, 0}, 4, false},
              {"", {10, 11, 12}, 4, true},
              {"", {0.1, 0.2, 0.3}, 4, false},
              {"", {5, 6, 7}, 4, false},
              {"", {100, 200, 300}, 4, false}};
  const std::string path = dir.path("snap_063");
  g.write(path);
  const GadgetFile f(path);
  CHECK(f.labels() == "POS, VEL, ID, HSML, RHO, VELDISP");
  ParamFile p = ParamFile::parse("simtype = 4\ninfile = " + path + "\nptype0 = 1\ncolor_label0 = VELDISP\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  CHECK(in.format == SnapshotFormat::gadget);
  const ParticleSet s = read_snapshot(in);
  REQUIRE(s.size() == 3);
  CHECK(s.hsml[2] == doctest::Approx(0.3));  // the file's HSML (no size key: auto)
  CHECK(s.colour[0][1] == 200.0f);
  CHECK(s.x[1] == 4.0f);
}

TEST_CASE("simtype 5: raw blocks, read as simtype 1") {
  ParamFile p = ParamFile::parse("simtype = 5\ninfile = x.bin\nnum_blocks = 3\nx = 1\ny = 2\nz = 3\n", "t.par");
  const SnapshotRequest in = read_snapshot_request(p);
  CHECK(in.format == SnapshotFormat::raw_blocks);
  CHECK(in.raw.layout == RawOptions::Layout::blocks);
}

}  // namespace splotch

namespace splotch {
namespace {

// A BonsaiIO file as its Core::write and close lay it out: offset of the header; per dataset the
// ranks' counts then the elements; the header (V1, the datasets' 280-byte descriptions, the time's
// first 4 bytes). Two ranks: 2 and 1 stars; 2 dark matter particles on rank 0.
std::string write_bonsai(const testing::TempDir& dir) {
  std::string body(8, '\0');
  struct Info {
    std::string name;
    std::uint64_t element;
    std::int64_t offset;
    std::int32_t ranks;
  };
  std::vector<Info> infos;
  auto add = [&](const std::string& name, std::uint64_t element, const std::vector<std::int64_t>& per_rank,
                 const std::string& bytes) {
    infos.push_back({name, element, std::int64_t(body.size()), std::int32_t(per_rank.size())});
    body.append(reinterpret_cast<const char*>(per_rank.data()), per_rank.size() * 8);
    body += bytes;
  };
  auto floats = [](std::initializer_list<float> v) {
    return std::string(reinterpret_cast<const char*>(std::data(v)), v.size() * 4);
  };
  auto ids = [](std::initializer_list<std::uint64_t> v) {
    return std::string(reinterpret_cast<const char*>(std::data(v)), v.size() * 8);
  };
  add("Stars:IDType", 8, {2, 1}, ids({(1ULL << 48) | 11, (1ULL << 48) | 12, (1ULL << 48) | 13}));
  add("Stars:POS:real4", 16, {2, 1}, floats({1, 2, 3, 0.5f, 4, 5, 6, 0.5f, 7, 8, 9, 0.25f}));
  add("Stars:RHOH:float[2]", 8, {2, 1}, floats({10, 0.1f, 20, 0.2f, 30, 0.3f}));
  add("DM:IDType", 8, {2, 0}, ids({1, 2}));
  add("DM:POS:real4", 16, {2, 0}, floats({-1, -2, -3, 2, -4, -5, -6, 2}));
  add("DM:VEL:float[3]", 12, {2, 0}, floats({1, 0, 0, 0, 1, 0}));
  const std::int64_t header = std::int64_t(body.size());
  std::memcpy(&body[0], &header, 8);
  std::string version(16, '\0');
  version[0] = 'V', version[1] = '1';
  body += version;
  const std::int32_t n = std::int32_t(infos.size());
  body.append(reinterpret_cast<const char*>(&n), 4);
  for (const Info& i : infos) {
    std::string d(280, '\0');
    std::memcpy(&d[0], i.name.data(), i.name.size());
    std::memcpy(&d[256], &i.element, 8);
    std::memcpy(&d[264], &i.offset, 8);
    std::memcpy(&d[272], &i.ranks, 4);
    body += d;
  }
  const double time = 1.5;
  body.append(reinterpret_cast<const char*>(&time), 4);  // (as BonsaiIO writes it: sizeof(float) of a double)
  return dir.write("bonsai.snap", body);
}

}  // namespace

TEST_CASE("bonsai (simtype 14): datasets by name over ranks, IDs without their type bits, RHOH as density and h") {
  const testing::TempDir dir;
  const std::string path = write_bonsai(dir);
  CHECK(is_bonsai_file(path));
  CHECK(detect_snapshot_format(path) == SnapshotFormat::bonsai);
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  const ColumnSnapshot s = load_bonsai(path, all);
  const ColumnType& stars = *s.type(1);
  REQUIRE(stars.count == 3);
  CHECK(stars.ids == std::vector<std::uint64_t>{11, 12, 13});
  CHECK(stars.find("POS", 3)[1]->values[2] == 8.0f);
  CHECK(stars.find("MASS", 1)[0]->values[2] == 0.25f);
  CHECK(stars.find("HSML", 1)[0]->values[1] == doctest::Approx(0.2));
  CHECK(stars.find("RHO", 1)[0]->values[0] == 10.0f);
  const ColumnType& dm = *s.type(0);
  REQUIRE(dm.count == 2);
  CHECK(dm.find("VEL", 3)[1]->values[1] == 1.0f);
  ParamFile p = ParamFile::parse("simtype = 14\ninfile = " + path + "\nptype0 = 1\ncolor_label0 = RHO\n", "t.par");
  const ParticleSet particles = read_snapshot(read_snapshot_request(p));
  REQUIRE(particles.size() == 3);
  CHECK(particles.hsml[2] == doctest::Approx(0.3));
  CHECK(particles.colour[0][1] == 20.0f);
  // Truncated: a dataset running past the end.
  const std::string whole = testing::read_file(path);
  const std::string cut = dir.write("cut.snap", whole.substr(0, 100) + std::string(whole.size() - 100, '\0'));
  CHECK_FALSE(is_bonsai_file(cut));
}

}  // namespace splotch
