// The Phantom reader (io/phantom_reader.h, io/phantom_hdf5.cc): binary dumps the test writes as
// Phantom's readwrite_dumps does (either byte order, 32-bit reals, two blocks; gas, stars, dust, a
// particle accreted onto a sink, a sink), a damaged one, and the real binary and HDF5 dumps of
// ../shared/data.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/hdf5_file.h"
#include "io/phantom_reader.h"
#include "io/read_snapshot.h"
#include "tests/support/column_test_support.h"
#include "tests/support/fortran_test_file.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::FortranWriter;
using testing::TempDir;

std::string tags(const std::vector<std::string>& names) {
  std::string s;
  for (std::string n : names) {
    n.resize(16, ' ');
    s += n;
  }
  return s;
}

// One block's particles: iphase, iorig, x, y, z, u (reals), h (real4).
struct Block {
  std::vector<std::int8_t> iphase;
  std::vector<std::int64_t> iorig;
  std::vector<float> x, y, z, u, h;
};

// 6 particles in 2 blocks (types 1 gas, 4 star, 7 dust; one accreted: iphase -1, h < 0) and 1 sink.
std::string write_dump(const TempDir& dir, bool big_endian) {
  const std::string path = dir.path("disc_00004");
  FortranWriter w(path, big_endian);
  using I = std::int32_t;
  std::vector<unsigned char> check;
  w.append<I>(check, 60769), w.append<float>(check, 60878.0f), w.append<I>(check, 60878), w.append<I>(check, 1);
  w.append<I>(check, 690706);
  w.raw(check);
  w.text("FT:Phantom:2024.0.0:test (hydro)", 100);
  // int: nparttot, ntypes, npartoftype x 7, nblocks, nptmass, idust
  w.one<I>(12);
  w.text(tags({"nparttot", "ntypes", "npartoftype", "npartoftype", "npartoftype", "npartoftype", "npartoftype",
               "npartoftype", "npartoftype", "nblocks", "nptmass", "idust"}),
         12 * 16);
  w.record(std::vector<I>{6, 7, 4, 0, 0, 1, 0, 0, 1, 2, 1, 7});
  for (int k = 0; k < 4; ++k) w.one<I>(0);  // int1, int2, int4, int8
  // real (32-bit): time, hfact, massoftype x 7
  w.one<I>(9);
  w.text(tags({"time", "hfact", "massoftype", "massoftype", "massoftype", "massoftype", "massoftype", "massoftype",
               "massoftype"}),
         9 * 16);
  w.record(std::vector<float>{2.5f, 1.2f, 0.1f, 0, 0, 0.5f, 0, 0, 0.01f});
  w.one<I>(0);  // real4
  w.one<I>(3);  // real8
  w.text(tags({"udist", "umass", "utime"}), 48);
  w.record(std::vector<double>{1.496e13, 1.989e33, 5.0226e6});
  w.one<I>(4);  // 2 blocks x 2 array lengths
  const Block blocks[2] = {{{1, 1, 4}, {1, 2, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, 1}, {1, 1, 0}, {0.1f, 0.2f, 0.3f}},
                           {{1, -1, 7}, {4, 5, 6}, {4, 5, 6}, {1, 1, 1}, {0, 0, 0}, {2, 2, 0}, {0.4f, -0.5f, 0.6f}}};
  for (int b = 0; b < 2; ++b) {
    const Block& k = blocks[b];
    for (int j = 0; j < 2; ++j) {  // the array lengths: int8 count, then arrays per data type
      std::vector<unsigned char> head;
      const bool sinks = j == 1;
      w.append<std::int64_t>(head, sinks ? (b == 0 ? 1 : 0) : 3);
      const std::vector<I> nums =
          sinks ? std::vector<I>{0, 0, 0, 0, 0, b == 0 ? 4 : 0, 0, 0} : std::vector<I>{0, 1, 0, 0, 1, 4, 1, 0};
      for (I n : nums) w.append<I>(head, n);
      w.raw(head);
    }
    w.text("iphase", 16), w.record(k.iphase);
    w.text("iorig", 16), w.record(k.iorig);
    w.text("x", 16), w.record(k.x);
    w.text("y", 16), w.record(k.y);
    w.text("z", 16), w.record(k.z);
    w.text("u", 16), w.record(k.u);
    w.text("h", 16), w.record(k.h);
    if (b == 0) {
      w.text("x", 16), w.one<float>(9.0f);
      w.text("y", 16), w.one<float>(8.0f);
      w.text("z", 16), w.one<float>(7.0f);
      w.text("m", 16), w.one<float>(3.0f);
    }
  }
  return path;
}

using testing::column;

}  // namespace

TEST_CASE("phantom: a binary dump of two blocks in either byte order: types by iphase, the accreted left out, sinks") {
  for (bool big : {false, true}) {
    INFO("big-endian " << big);
    const TempDir dir;
    const std::string path = write_dump(dir, big);
    CHECK(is_phantom_dump(path));
    CHECK(detect_snapshot_format(path) == SnapshotFormat::phantom);
    ColumnWanted all;
    all.all = true;
    all.ids = true;
    const ColumnSnapshot s = load_phantom(path, all);
    const ColumnType& gas = *s.type(1);
    REQUIRE(gas.count == 3);
    CHECK(gas.ids == std::vector<std::uint64_t>{1, 2, 4});
    CHECK(column(gas, "x").values[2] == 4.0f);
    CHECK(column(gas, "HSML").values[2] == doctest::Approx(0.4));
    CHECK(column(gas, "MASS").values[0] == doctest::Approx(0.1));
    // density = massoftype (hfact / h)^3
    CHECK(column(gas, "RHO").values[1] == doctest::Approx(0.1 * std::pow(1.2 / 0.2, 3)));
    CHECK(column(gas, "U").values[2] == 2.0f);
    REQUIRE(s.type(4)->count == 1);
    CHECK(column(*s.type(4), "MASS").values[0] == doctest::Approx(0.5));
    CHECK(s.type(4)->ids == std::vector<std::uint64_t>{3});
    REQUIRE(s.type(7)->count == 1);
    CHECK(s.type(7)->name == "dust");
    CHECK(column(*s.type(7), "z").values[0] == 0.0f);
    const ColumnType& sinks = *s.type(phantom_sink_type);
    REQUIRE(sinks.count == 1);
    CHECK(sinks.find("POS", 3)[0]->values[0] == 9.0f);
    CHECK(column(sinks, "MASS").values[0] == 3.0f);
    CHECK(s.time == doctest::Approx(2.5));
    CHECK(s.units.length_cm == doctest::Approx(1.496e13));
    CHECK(s.units.mass_g == doctest::Approx(1.989e33));
    CHECK(s.units.velocity_cm_s == doctest::Approx(1.496e13 / 5.0226e6));
    CHECK(s.units.code == "Phantom");
    // The outline: counts from npartoftype, without reading an array.
    const ColumnSnapshot outline = phantom_outline(path);
    CHECK(outline.type(1)->count == 4);  // (the header counts the accreted one)
    CHECK(outline.type(4)->count == 1);
    // Through the common request.
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
    CHECK(p.hsml[0] == doctest::Approx(0.1));
    CHECK(p.colour[0][2] == doctest::Approx(0.1 * std::pow(1.2 / 0.4, 3)));
  }
}

TEST_CASE("phantom: a damaged dump, and a file of another kind, are errors naming the file") {
  const TempDir dir;
  const std::string path = write_dump(dir, false);
  REQUIRE(::truncate(path.c_str(), 900) == 0);
  ColumnWanted all;
  all.all = true;
  CHECK_THROWS_WITH_AS(load_phantom(path, all), doctest::Contains("disc_00004"), UserError);
  const std::string other = dir.write("notes", std::string(64, 'x'));
  CHECK_FALSE(is_phantom_dump(other));
  CHECK_THROWS_WITH_AS(load_phantom(other, all), doctest::Contains("is not a Phantom or sphNG dump"), UserError);
}

TEST_CASE("phantom: the real dumps of ../shared/data, binary (2023) and HDF5") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-dump test skipped: ../shared/data is not beside this checkout");
    return;
  }
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  {
    const std::string path = data + "/phantom_blast_00010";
    const ColumnSnapshot s = load_phantom(path, all);
    const ColumnType& gas = *s.type(1);
    REQUIRE(gas.count == 576);
    // Values an independent reading of the records gives: x of the first and last, h of the first.
    CHECK(column(gas, "x").values[0] == doctest::Approx(-0.46875444157231605));
    CHECK(column(gas, "x").values[575] == doctest::Approx(0.46875444157231605));
    CHECK(column(gas, "h").values[0] == doctest::Approx(0.14392796158790588));
    CHECK(column(gas, "RHO").values[0] ==
          doctest::Approx(0.001726334915006219 * std::pow(1.2 / 0.14392796158790588, 3)));
    CHECK(std::set<std::uint64_t>(gas.ids.begin(), gas.ids.end()).size() == 576);
    CHECK(s.time == doctest::Approx(0.05));
    CHECK(s.type(0)->count == 0);  // no sinks
    // npartoftype is written as int and again as int8: one type, not two.
    const ColumnSnapshot outline = phantom_outline(path);
    std::size_t types_with_particles = 0;
    for (const ColumnType& t : outline.types) types_with_particles += t.count > 0;
    CHECK(types_with_particles == 1);
    CHECK(outline.type(1)->count == 576);
    // Cut short within its last array (divv, which a render does not read): still an error.
    const TempDir dir;
    const std::string whole = testing::read_file(path);
    const std::string cut = dir.write("cut", whole.substr(0, whole.size() - 100));
    ColumnWanted little;
    little.want("h", 1);
    CHECK_THROWS_WITH_AS(load_phantom(cut, little), doctest::Contains("the file is truncated"), UserError);
  }
  if (!hdf5_supported()) {
    MESSAGE("Phantom HDF5 test skipped: built without HDF5");
    return;
  }
  {
    const std::string path = data + "/phantom_adiabatic_00000.h5";
    CHECK(detect_snapshot_format(path) == SnapshotFormat::phantom);
    const ColumnSnapshot s = load_phantom(path, all);
    CHECK(s.type(1)->count == 16416);
    CHECK(s.type(3)->count == 4320);
    CHECK(s.type(3)->name == "boundary");
    CHECK(column(*s.type(1), "MASS").values[0] == doctest::Approx(2.6973983e-06));
    CHECK(phantom_outline(path).type(1)->count == 16416);
  }
}

}  // namespace splotch
