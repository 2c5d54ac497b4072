// Untagged dumps (io/phantom_untagged.h, io/phantom_reader.cc): sphNG's full and small dumps and an
// early Phantom dump, written by the test in the fixed order of those formats (as SPLASH's and
// Phantom's readers take them): no tag records, the header's values and the arrays by place.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/phantom_reader.h"
#include "io/phantom_untagged.h"
#include "io/read_snapshot.h"
#include "tests/support/column_test_support.h"
#include "tests/support/fortran_test_file.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::column;
using testing::FortranWriter;
using testing::TempDir;
using I = std::int32_t;

// An array block's length record: its length, then the number of arrays of each of the 8 kinds.
void lengths(FortranWriter& w, std::int64_t n, const std::vector<I>& nums) {
  std::vector<unsigned char> head;
  w.append<std::int64_t>(head, n);
  for (I k : nums) w.append<I>(head, k);
  w.raw(head);
}

// sphNG, full dump, 64-bit reals, the first record of format version 0 (no version number):
// 5 particles, iphase 0 gas, 0 gas, 1 a point mass, -1 dead, 10 a star.
std::string write_sphng_full(const TempDir& dir, bool big) {
  const std::string path = dir.path("cloud_001");
  FortranWriter w(path, big);
  std::vector<unsigned char> check;
  w.append<I>(check, 690706), w.append<double>(check, 780806.0), w.append<I>(check, 780806);
  w.append<I>(check, 690706), w.append<I>(check, 690706);
  w.raw(check);
  w.text("FHydroRK2: sphNG", 100);
  w.one<I>(10);  // ints: npart, n1, n2, nreassign, naccrete, nkill, nblocks, iyr, idum, iv1
  w.record(std::vector<I>{5, 5, 0, 0, 1, 0, 1, 2024, -7, 3});
  for (int k = 0; k < 4; ++k) w.one<I>(0);  // int1, int2, int4, int8
  w.one<I>(20);                             // reals: gt, dtmax, gamma, rhozero, RK2, ...
  std::vector<double> reals(20, 0.0);
  reals[0] = 1.5, reals[1] = 0.1, reals[2] = 1.4, reals[3] = 2.0, reals[4] = 0.3;
  w.record(reals);
  w.one<I>(0);  // real4
  w.one<I>(4);  // real8: udist, umass, utime, umagfd
  w.record(std::vector<double>{3.086e18, 1.989e33, 3.15e13, 1.0});
  w.one<I>(2);  // array lengths: the particles, the point-mass list
  lengths(w, 5, {1, 1, 0, 0, 0, 9, 2, 0});
  lengths(w, 1, {1, 0, 0, 0, 0, 3, 0, 0});
  w.record(std::vector<I>{1, 1, 1, 1, 1});                         // isteps
  w.record(std::vector<std::int8_t>{0, 0, 1, -1, 10});             // iphase
  w.record(std::vector<double>{1, 2, 3, 4, 5});                    // x
  w.record(std::vector<double>{0, 0, 7, 0, 0});                    // y
  w.record(std::vector<double>{0, 0, 0, 0, 9});                    // z
  w.record(std::vector<double>{0.01, 0.01, 0.5, 0.01, 0.2});       // m
  w.record(std::vector<double>{0.1, 0.2, 0.05, 0.3, 0.4});         // h
  w.record(std::vector<double>{-1, -2, -3, -4, -5});               // vx
  w.record(std::vector<double>{0, 0, 0, 0, 0});                    // vy
  w.record(std::vector<double>{0, 0, 0, 0, 0});                    // vz
  w.record(std::vector<double>{10, 20, 0, 40, 0});                 // u
  w.record(std::vector<float>{100, 200, 300, 400, 500});           // rho
  w.record(std::vector<float>{1, 1, 1, 1, 1});                     // gradh
  w.record(std::vector<I>{3});                                     // listpm
  for (int k = 0; k < 3; ++k) w.record(std::vector<double>{0.5});  // spin of the point mass
  return path;
}

// sphNG, small dump, 32-bit reals, a versioned first record: 3 gas particles, their mass the
// header's pmassinitial (the 15th of 15 reals); x, y, z, then rho and h of 4 bytes.
std::string write_sphng_small(const TempDir& dir) {
  const std::string path = dir.path("cloud_002");
  FortranWriter w(path, false);
  std::vector<unsigned char> check;
  w.append<I>(check, 60769), w.append<float>(check, 60878.0f), w.append<I>(check, 60878);
  w.append<I>(check, 1), w.append<I>(check, 690706);
  w.raw(check);
  w.text("SHydroRK2: sphNG", 100);
  w.one<I>(3);
  w.record(std::vector<I>{3, 3, 0});
  for (int k = 0; k < 4; ++k) w.one<I>(0);
  w.one<I>(15);
  std::vector<float> reals(15, 0.0f);
  reals[0] = 0.25f, reals[14] = 0.02f;
  w.record(reals);
  w.one<I>(0);
  w.one<I>(3);
  w.record(std::vector<double>{1.496e13, 1.989e33, 5.0e6});
  w.one<I>(1);
  lengths(w, 3, {0, 0, 0, 0, 0, 3, 2, 0});
  w.record(std::vector<float>{1, 2, 3});
  w.record(std::vector<float>{4, 5, 6});
  w.record(std::vector<float>{7, 8, 9});
  w.record(std::vector<float>{11, 12, 13});        // rho
  w.record(std::vector<float>{0.5f, 0.6f, 0.7f});  // h
  return path;
}

// Phantom before its tags: 7 ints (nparttot, npartoftype x 5, nblocks), 19 reals (time first,
// hfact the 6th, massoftype the 15th to 19th), the units; 3 particles (itype 1, 1, 4) with x, y,
// z, vx, vy, vz, u and h, alpha of 4 bytes; a sink's 12 reals; the magnetic field in block 4.
std::string write_early_phantom(const TempDir& dir, bool big) {
  const std::string path = dir.path("disc_00000");
  FortranWriter w(path, big);
  std::vector<unsigned char> check;
  w.append<I>(check, 60769), w.append<double>(check, 60878.0), w.append<I>(check, 60878);
  w.append<I>(check, 1), w.append<I>(check, 690706);
  w.raw(check);
  w.text("FHydro: Phantom dump", 100);
  w.one<I>(7);
  w.record(std::vector<I>{3, 2, 0, 0, 1, 0, 1});
  for (int k = 0; k < 4; ++k) w.one<I>(0);
  w.one<I>(19);
  std::vector<double> reals(19, 0.0);
  reals[0] = 6.5, reals[5] = 1.2, reals[14] = 0.001, reals[17] = 0.05;
  w.record(reals);
  w.one<I>(0);
  w.one<I>(3);
  w.record(std::vector<double>{1.496e13, 1.989e33, 5.0226e6});
  w.one<I>(4);
  lengths(w, 3, {0, 1, 0, 0, 0, 7, 2, 0});
  lengths(w, 1, {0, 0, 0, 0, 0, 12, 0, 0});
  lengths(w, 0, {0, 0, 0, 0, 0, 0, 0, 0});
  lengths(w, 3, {0, 0, 0, 0, 0, 0, 3, 0});
  w.record(std::vector<std::int8_t>{1, 1, 4});
  w.record(std::vector<double>{1, 2, 3});          // x
  w.record(std::vector<double>{0, 0, 0});          // y
  w.record(std::vector<double>{0, 0, 1});          // z
  w.record(std::vector<double>{5, 6, 7});          // vx
  w.record(std::vector<double>{0, 0, 0});          // vy
  w.record(std::vector<double>{0, 0, 0});          // vz
  w.record(std::vector<double>{1, 2, 0});          // u
  w.record(std::vector<float>{0.1f, 0.2f, 0.3f});  // h
  w.record(std::vector<float>{1, 1, 1});           // alpha
  for (double v : {9.0, 8.0, 7.0, 2.0, 0.05, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0}) w.one<double>(v);
  w.record(std::vector<float>{0.1f, 0.2f, 0.3f});  // Bx
  w.record(std::vector<float>{0, 0, 0});           // By
  w.record(std::vector<float>{0, 0, 0});           // Bz
  return path;
}

ColumnWanted everything() {
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  return all;
}

}  // namespace

TEST_CASE("untagged dumps: the names by place, as the formats order them") {
  DumpDialect sphng{false, false}, phantom{true, false}, small{false, true};
  CHECK(untagged_header_tag(sphng, DumpKind::int_default, 6, 10) == "nblocks");
  CHECK(untagged_header_tag(sphng, DumpKind::int_default, 2, 3) == "n2");
  CHECK(untagged_header_tag(sphng, DumpKind::int_default, 1, 2).empty());
  CHECK(untagged_header_tag(phantom, DumpKind::int_default, 6, 8) == "nblocks");
  CHECK(untagged_header_tag(phantom, DumpKind::int_default, 3, 4) == "npartoftype");
  CHECK(untagged_header_tag(sphng, DumpKind::real, 0, 20) == "gt");
  CHECK(untagged_header_tag(phantom, DumpKind::real, 0, 19) == "time");
  CHECK(untagged_header_tag(phantom, DumpKind::real, 5, 19) == "hfact");
  CHECK(untagged_header_tag(phantom, DumpKind::real, 18, 19) == "massoftype");
  CHECK(untagged_header_tag(phantom, DumpKind::real, 18, 18).empty());
  CHECK(untagged_header_tag(small, DumpKind::real, 14, 15) == "pmassinitial");
  CHECK(untagged_header_tag(small, DumpKind::real, 22, 30) == "pmassinitial");
  CHECK(untagged_header_tag(sphng, DumpKind::real8, 2, 4) == "utime");
  CHECK(untagged_array_name(sphng, 0, DumpKind::real, 4, 9) == "h");
  CHECK(untagged_array_name(small, 0, DumpKind::real4, 1, 2) == "h");
  CHECK(untagged_array_name(phantom, 0, DumpKind::real, 3, 7) == "vx");
  CHECK(untagged_array_name(phantom, 0, DumpKind::real4, 0, 2) == "h");
  CHECK(untagged_array_name(phantom, 1, DumpKind::real, 11, 12) == "vz");
  CHECK(untagged_array_name(phantom, 3, DumpKind::real4, 2, 3) == "Bz");
  CHECK(untagged_array_name(sphng, 0, DumpKind::real4, 5, 6) == "real4_6");
  CHECK(untagged_array_name(sphng, 2, DumpKind::real, 0, 1) == "b3_real_1");
}

TEST_CASE("untagged dumps: sphNG's full dump in either byte order: types by iphase, the dead left out") {
  for (bool big : {false, true}) {
    INFO("big-endian " << big);
    const TempDir dir;
    const std::string path = write_sphng_full(dir, big);
    CHECK(is_phantom_dump(path));
    CHECK(detect_snapshot_format(path) == SnapshotFormat::phantom);
    const ColumnSnapshot s = load_phantom(path, everything());
    CHECK(s.description.find("sphNG dump (binary, untagged, 64-bit reals") == 0);
    CHECK(s.time == doctest::Approx(1.5));
    CHECK(s.units.length_cm == doctest::Approx(3.086e18));
    CHECK(s.units.velocity_cm_s == doctest::Approx(3.086e18 / 3.15e13));
    const ColumnType& gas = *s.type(1);
    REQUIRE(gas.count == 2);
    CHECK(column(gas, "x").values[1] == 2.0f);
    CHECK(column(gas, "MASS").values[0] == doctest::Approx(0.01));
    CHECK(column(gas, "HSML").values[1] == doctest::Approx(0.2));
    CHECK(column(gas, "RHO").values[1] == 200.0f);  // the dump's own rho, not one from h
    CHECK(column(gas, "U").values[1] == 20.0f);
    CHECK(column(gas, "vx").values[0] == -1.0f);
    CHECK(column(gas, "gradh").values[0] == 1.0f);
    CHECK(gas.find("MASS", -1).size() == 1);  // (no second mass from the header)
    const ColumnType& point_masses = *s.type(phantom_sink_type);
    REQUIRE(point_masses.count == 1);
    CHECK(column(point_masses, "y").values[0] == 7.0f);
    CHECK(column(point_masses, "MASS").values[0] == doctest::Approx(0.5));
    REQUIRE(s.type(4));
    REQUIRE(s.type(4)->count == 1);
    CHECK(column(*s.type(4), "z").values[0] == 9.0f);
    bool said = false;
    for (const std::string& note : s.notes) said = said || note.find("1 dead or accreted") == 0;
    CHECK(said);
    const ColumnSnapshot outline = phantom_outline(path);
    CHECK(outline.type(1)->count == 4);
    CHECK(outline.type(phantom_sink_type)->count == 1);
  }
}

TEST_CASE("untagged dumps: sphNG's small dump, 32-bit, the particles' mass from the header") {
  const TempDir dir;
  const std::string path = write_sphng_small(dir);
  const ColumnSnapshot s = load_phantom(path, everything());
  CHECK(s.description.find("32-bit reals, 1 block, a small dump") != std::string::npos);
  CHECK(s.time == doctest::Approx(0.25));
  const ColumnType& gas = *s.type(1);
  REQUIRE(gas.count == 3);
  CHECK(column(gas, "z").values[2] == 9.0f);
  CHECK(column(gas, "HSML").values[2] == doctest::Approx(0.7));
  CHECK(column(gas, "RHO").values[0] == 11.0f);
  CHECK(column(gas, "MASS").values[1] == doctest::Approx(0.02));
  // Through the common request: the picture's h and density.
  SnapshotRequest in;
  in.format = SnapshotFormat::phantom;
  in.typed.files = {path};
  RenderTypeRequest r;
  r.file_type = 1;
  r.size_fix = 0;
  r.size.label = "SmoothingLength";
  r.colour.label = "Density";
  in.typed.types = {r};
  const ParticleSet p = read_snapshot(in);
  REQUIRE(p.size() == 3);
  CHECK(p.hsml[1] == doctest::Approx(0.6));
  CHECK(p.colour[0][1] == doctest::Approx(12.0));
}

TEST_CASE("untagged dumps: an early Phantom dump: types by itype, mass and density from the header, sinks, B") {
  for (bool big : {false, true}) {
    INFO("big-endian " << big);
    const TempDir dir;
    const std::string path = write_early_phantom(dir, big);
    const ColumnSnapshot s = load_phantom(path, everything());
    CHECK(s.description.find("Phantom dump (binary, untagged") == 0);
    CHECK(s.time == doctest::Approx(6.5));
    const ColumnType& gas = *s.type(1);
    REQUIRE(gas.count == 2);
    CHECK(column(gas, "MASS").values[0] == doctest::Approx(0.001));
    CHECK(column(gas, "RHO").values[1] == doctest::Approx(0.001 * std::pow(1.2 / 0.2, 3)));
    CHECK(column(gas, "vx").values[1] == 6.0f);
    CHECK(column(gas, "Bx").values[1] == doctest::Approx(0.2));
    REQUIRE(s.type(4)->count == 1);
    CHECK(column(*s.type(4), "MASS").values[0] == doctest::Approx(0.05));
    const ColumnType& sinks = *s.type(phantom_sink_type);
    REQUIRE(sinks.count == 1);
    CHECK(column(sinks, "x").values[0] == 9.0f);
    CHECK(column(sinks, "MASS").values[0] == 2.0f);
    CHECK(column(sinks, "vx").values[0] == -1.0f);
    const ColumnSnapshot outline = phantom_outline(path);
    CHECK(outline.type(1)->count == 2);
    CHECK(outline.type(4)->count == 1);
  }
}

}  // namespace splotch
