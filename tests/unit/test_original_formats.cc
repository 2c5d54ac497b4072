// The original's other simtypes: 4, the Millennium run's format-1 Gadget files (HSML, DENS and
// VELDISP after the IDs, no MASS block), 5 (raw blocks, read as 1) and 6, the mesh of float32
// blocks (io/mesh_reader.h), on files the test writes from the original readers' layouts.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/gadget_file.h"
#include "io/mesh_reader.h"
#include "io/read_snapshot.h"
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
