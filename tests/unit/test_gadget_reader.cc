// The Gadget binary reader (io/gadget_reader.h) on files the tests write in every variant
// (format 1 and 2, both byte orders, float and double, 32- and 64-bit IDs, one file and several,
// blocks of some types) and on the real snapshots of ../shared/data.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "params/param_file.h"
#include "splotch/settings/settings_keys.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::check_particles;
using testing::GadgetTestBlock;
using testing::GadgetTestFile;
using testing::gas_and_dm;
using testing::message_of;
using testing::real_data_dir;
using testing::snapshot;
using testing::TempDir;
using testing::Variant;

}  // namespace

TEST_CASE("gadget: every format variant gives the same particles") {
  TempDir dir;
  for (int format : {1, 2})
    for (bool big : {false, true})
      for (int value_bytes : {4, 8})
        for (int id_bytes : {4, 8}) {
          const Variant v{format, big, value_bytes, id_bytes};
          const std::string variant = "format " + std::to_string(format) +
                                      (big ? ", big-endian, " : ", little-endian, ") + std::to_string(value_bytes) +
                                      "-byte values, " + std::to_string(id_bytes) + "-byte IDs";
          INFO(variant);
          const std::string path = dir.path("snap");
          snapshot(v, 5, 3).write(path);
          const GadgetFile file(path);
          CHECK(file.format() == format);
          CHECK(file.swapped() == big);  // this machine is little-endian
          CHECK(file.header().box_size == 250.0);
          CHECK(file.labels() == "POS, VEL, ID, MASS, U, RHO, HSML");
          const ParticleSet p = read_gadget(gas_and_dm({path}));
          CHECK(p.box_size == 250.0);
          check_particles(p, {{0, 5}}, {{0, 3}});
        }
}

TEST_CASE("gadget: IDs (4 or 8 bytes, beside float or double positions) and velocities for a movie") {
  TempDir dir;
  // Equal gas and DM counts: with double positions and 4-byte IDs, the ID block's size also fits
  // "8 bytes, gas only", which must not be taken: IDs belong to every type.
  for (const Variant& v : {Variant{2, false, 8, 4}, Variant{2, true, 4, 8}, Variant{1, false, 8, 8}}) {
    INFO("positions " << v.value_bytes << " bytes, IDs " << v.id_bytes << " bytes, format " << v.format);
    const std::string path = dir.path("snap");
    snapshot(v, 3, 3).write(path);
    TypedSnapshotRequest o = gas_and_dm({path});
    for (RenderTypeRequest& r : o.types) r.motion = 2;
    const ParticleSet p = read_gadget(o);
    REQUIRE(p.size() == 6);
    REQUIRE(p.id.size() == 6);
    for (int i = 0; i < 3; ++i) {
      CHECK(p.id[std::size_t(i)] == std::uint64_t(1 + i));
      CHECK(p.id[std::size_t(3 + i)] == std::uint64_t(1000 + i));
      CHECK(p.vx[std::size_t(i)] == float(1.0 + i));
      CHECK(p.vz[std::size_t(3 + i)] == float(-3.0 - i));
    }
  }
}

TEST_CASE("gadget: vector colours, aliases of HDF5 names, a single type") {
  TempDir dir;
  const std::string path = dir.path("snap");
  snapshot({2, false, 4, 4}, 4, 2).write(path);
  TypedSnapshotRequest o;
  o.files = {path};
  RenderTypeRequest r;
  r.file_type = 1;  // dark matter: VEL for colour, HSML absent (size_fix)
  r.size_fix = 2.0f;
  r.colour.label = "Velocities";
  r.vector_colour = true;
  r.intensity = {"masses", 4.0f, std::nullopt};  // the mass table, by its HDF5 name
  o.types = {r};
  const ParticleSet p = read_gadget(o);
  REQUIRE(p.size() == 2);
  CHECK(p.type.empty());
  CHECK(p.colour[0][1] == -2.0f);
  CHECK(p.colour[1][1] == -3.0f);
  CHECK(p.colour[2][1] == -4.0f);
  CHECK(p.intensity[0] == 2.0f);
  CHECK(p.hsml[1] == 2.0f);
  o.types[0].file_type = 0;
  o.types[0].colour = {"InternalEnergy", 1.0f, std::nullopt};
  o.types[0].vector_colour = false;
  o.types[0].intensity = {"SmoothingLengths", 1.0f, std::nullopt};
  const ParticleSet gas = read_gadget(o);
  REQUIRE(gas.size() == 4);
  CHECK(gas.colour[0][3] == 103.0f);
  CHECK(gas.intensity[3] == 2.0f);
}

TEST_CASE("gadget: smoothing lengths from (mass / density)^(1/3), from the MASS block or the mass table") {
  TempDir dir;
  // Two files, so that the densities of the second land where its particles do (3 + 4 gas).
  std::vector<std::string> files;
  for (int k = 0; k < 2; ++k) {
    GadgetTestFile g = snapshot(Variant{2, false, 4, 4}, 3 + k, 2, 3 * k, 2 * k);
    g.write(dir.path("v." + std::to_string(k)));
    files.push_back(dir.path("v." + std::to_string(k)));
  }
  TypedSnapshotRequest o;
  o.files = files;
  RenderTypeRequest gas;
  gas.file_type = 0;
  gas.size_fix = 0;
  gas.size_estimate = SizeEstimate::volume;
  gas.size.factor = 2.0f;
  o.types = {gas};
  const ParticleSet p = read_gadget(o);
  REQUIRE(p.size() == 7);
  // Gas particle i: MASS 0.25 (i + 1), RHO 0.125 (i + 1), so hsml = 2 * 2^(1/3).
  for (std::size_t i = 0; i < 7; ++i) CHECK(p.hsml[i] == doctest::Approx(2.0 * std::cbrt(2.0)).epsilon(1e-6));

  // Gas of one mass (the table's 0.5, no MASS block): hsml = (0.5 / RHO)^(1/3).
  GadgetTestFile table = snapshot(Variant{2, false, 4, 4}, 4, 2);
  table.mass[0] = 0.5;
  table.blocks.erase(std::find_if(table.blocks.begin(), table.blocks.end(),
                                  [](const GadgetTestBlock& b) { return b.label == "MASS"; }));
  table.write(dir.path("table"));
  o.files = {dir.path("table")};
  o.types[0].size.factor = 1.0f;
  const ParticleSet t = read_gadget(o);
  REQUIRE(t.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(t.hsml[i] == doctest::Approx(std::cbrt(0.5 / (0.125 * double(i + 1)))));
}

TEST_CASE("gadget: a snapshot in several files, found from infile, fidx, snapdir and the header") {
  TempDir dir;
  for (int format : {1, 2}) {
    INFO("format " << format);
    const Variant v{format, format == 1, 4, 4};
    ::mkdir(dir.path("snapdir_007").c_str(), 0755);
    GadgetTestFile a = snapshot(v, 2, 1, 0, 0), b = snapshot(v, 3, 2, 2, 1), c = snapshot(v, 0, 1, 5, 3);
    for (GadgetTestFile* f : {&a, &b, &c}) {
      f->num_files = 3;
      f->npart_total = {5, 4, 0, 0, 0, 0};
    }
    a.write(dir.path("snapdir_007/snap_007.0"));
    b.write(dir.path("snapdir_007/snap_007.1"));
    c.write(dir.path("snapdir_007/snap_007.2"));  // no gas here: no gas blocks either
    auto files_of = [&](const std::string& text) {
      ParamFile p = ParamFile::parse(text, dir.path("x.par"));
      return snapshot_files(p, "", [](const std::string& f) { return GadgetFile(f).header().num_files; });
    };
    const std::vector<std::string> expected = {dir.path("snapdir_007/snap_007.0"), dir.path("snapdir_007/snap_007.1"),
                                               dir.path("snapdir_007/snap_007.2")};
    // The original's pattern, the count from the header.
    CHECK(files_of("infile = snap_\nsnapdir = snapdir_\nfidx = 7\ndatadir = " + dir.path()) == expected);
    // The same with numfiles.
    CHECK(files_of("infile = snap_\nsnapdir = snapdir_\nfidx = 7\nnumfiles = 3\ndatadir = " + dir.path()) == expected);
    // The first file's exact name, and the name without .0.
    CHECK(files_of("infile = " + dir.path("snapdir_007/snap_007.0")) == expected);
    CHECK(files_of("infile = " + dir.path("snapdir_007/snap_007")) == expected);
    // One file only when numfiles = 1 says so.
    CHECK(files_of("infile = " + dir.path("snapdir_007/snap_007.1") + "\nnumfiles = 1") ==
          std::vector<std::string>{dir.path("snapdir_007/snap_007.1")});
    const std::string missing = message_of([&] { files_of("infile = snap_\nfidx = 8\ndatadir = " + dir.path()); });
    CHECK(missing.find("cannot find the snapshot of infile = snap_") != std::string::npos);
    CHECK(missing.find(dir.path("snap_008")) != std::string::npos);

    const ParticleSet p = read_gadget(gas_and_dm(expected));
    check_particles(p, {{0, 2}, {2, 5}}, {{0, 1}, {1, 3}, {3, 4}});
  }
}

TEST_CASE("gadget: blocks of some types, from their size or from the *_present mask") {
  TempDir dir;
  const std::string path = dir.path("snap");
  // 2 gas and 2 stars, with an AGE block for the stars alone: by its size it could be the gas's.
  GadgetTestFile f = snapshot({2, false, 4, 4}, 2, 0);
  f.npart = {2, 0, 0, 0, 2, 0};
  f.mass = {0, 0, 0, 0, 0, 0};
  f.blocks[0].values.insert(f.blocks[0].values.end(), {7, 8, 9, 10, 11, 12});  // POS of the stars
  f.blocks[1].values.insert(f.blocks[1].values.end(), {0, 0, 0, 0, 0, 0});     // VEL
  f.blocks[2].values.insert(f.blocks[2].values.end(), {50, 51});               // ID
  f.blocks[3].values.insert(f.blocks[3].values.end(), {3.0, 4.0});             // MASS: gas and stars
  f.blocks.push_back({"AGE", {0.75, 0.875}});
  f.write(path);
  TypedSnapshotRequest o;
  o.files = {path};
  RenderTypeRequest stars;
  stars.file_type = 4;
  stars.colour.label = "AGE";
  stars.intensity.label = "MASS";
  o.types = {stars};
  const std::string wrong = message_of([&] { read_gadget(o); });
  CHECK(wrong.find("block AGE (color_label0) holds particle types 0 but not type 4") != std::string::npos);
  o.types[0].colour.present = 16u;
  const ParticleSet p = read_gadget(o);
  REQUIRE(p.size() == 2);
  CHECK(p.x[0] == 7.0f);
  CHECK(p.z[1] == 12.0f);
  CHECK(p.colour[0][0] == 0.75f);
  CHECK(p.colour[0][1] == 0.875f);
  CHECK(p.intensity[1] == 4.0f);   // MASS of gas and stars: the stars' come after the gas's
  o.types[0].colour.present = 3u;  // gas and DM: 2 particles, but not the stars
  CHECK(message_of([&] { read_gadget(o); }).find("holds particle types 0 but not type 4") != std::string::npos);
  o.types[0].colour.present = 17u;  // gas and stars: 4 values, but the block has 2
  CHECK(message_of([&] {
          read_gadget(o);
        }).find("is 8 bytes, which is not 1 value(s) of 4 or 8 bytes for each of the 4 particles of types 0, 4") !=
        std::string::npos);
}

TEST_CASE("gadget: bad files are one clear error") {
  TempDir dir;
  const std::string good = snapshot({2, false, 4, 4}, 3, 2).bytes();
  auto error_for = [&](const std::string& bytes, std::optional<bool> swap = std::nullopt) {
    const std::string path = dir.write("bad", bytes);
    TypedSnapshotRequest o = gas_and_dm({path});
    o.swap_endian = swap;
    return message_of([&] { read_gadget(o); });
  };
  CHECK(error_for(good).empty());
  CHECK(error_for(good.substr(0, good.size() - 10)).find("truncated") != std::string::npos);
  std::string bad_marker = good;
  bad_marker[bad_marker.size() - 1] = 'x';  // the last record's end marker
  CHECK(error_for(bad_marker).find("corrupted: the record at byte") != std::string::npos);
  std::string bad_label = good;
  bad_label[280 + 12] = 9;  // the POS label record's closing length (after HEAD: 16 + 264 bytes)
  CHECK(error_for(bad_label).find("the block label record at byte 280 has lengths 8 and") != std::string::npos);
  CHECK(error_for(std::string("\x89HDF\r\n\x1a\n", 8) + std::string(100, '\0')).find("looks like an HDF5 file") !=
        std::string::npos);
  CHECK(error_for("simtype = 2\n").find("does not start like a Gadget snapshot") != std::string::npos);
  CHECK(error_for("").find("too short") != std::string::npos);
  // swap_endian is only the first guess, as in the original: the record markers decide.
  CHECK(error_for(good, true).empty());
  CHECK(error_for(good, false).empty());
  CHECK(message_of([&] { read_gadget(gas_and_dm({dir.path()})); }).find("is a directory") != std::string::npos);
  // A header claiming two billion dark-matter particles (found by fuzzing: the arrays were sized
  // from it before any block was checked) is an error before anything is allocated.
  std::string huge = good;
  const std::uint32_t two_billion = 2000000000u;
  std::memcpy(&huge[16 + 4 + 4], &two_billion, 4);  // npart[1], after HEAD's label record and the marker
  CHECK(error_for(huge).find("the POS block is 60 bytes, which is neither 4- nor 8-byte x, y, z for the 2000000003 "
                             "particles of the header") != std::string::npos);

  TypedSnapshotRequest no_label = gas_and_dm({dir.write("snap", good)});
  no_label.types[0].colour.label = "TEMP";
  {  // a colour the file lacks: drawn with colour 1 and said once, as the original does
    const ParticleSet p = read_gadget(no_label);
    REQUIRE(p.warnings.size() == 1);
    CHECK(
        p.warnings[0] ==
        "Gadget file '" + dir.path("snap") +
            "' has no block 'TEMP' (color_label0) for its 3 particles of type 0; "
            "its blocks are: POS, VEL, ID, MASS, U, RHO, HSML: type 0 is drawn with colour 1, as when color_label0 is "
            "left out (name a field the file has, or XXXX for none)");
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.type_of(i) == 0) CHECK(p.colour[0][i] == 1.0f);
    no_label.types[0].colour.label = "";
    no_label.types[0].size.label = "TEMP";  // a smoothing length the file lacks stays an error
    no_label.types[0].size_fix = 0;
    CHECK(message_of([&] { read_gadget(no_label); }).find("has no block 'TEMP' (size_label0)") != std::string::npos);
  }
  // A type the file holds none of is read as none (the settings warn of it: a movie's stars
  // before the first forms), the others as ever.
  TypedSnapshotRequest no_stars = gas_and_dm({dir.path("snap")});
  no_stars.types[1].file_type = 4;
  const ParticleSet gas_only = read_gadget(no_stars);
  CHECK(gas_only.size() == 3);
  CHECK(std::count(gas_only.type.begin(), gas_only.type.end(), 1) == 0);
}

}  // namespace splotch

namespace splotch {
namespace {

// The particle counts of a file's header, read here byte by byte so as not to test the reader
// against itself: the first record's 6 ints, after format 2's 16-byte label record.
std::array<std::uint32_t, 6> header_counts(const std::string& path) {
  const std::string b = testing::read_file(path);
  std::uint32_t first;
  std::memcpy(&first, b.data(), 4);
  const bool swap = first != 256 && first != 8;
  const std::size_t start = (first == 8 || first == 0x08000000u ? 16 : 0) + 4;
  std::array<std::uint32_t, 6> n{};
  for (int t = 0; t < 6; ++t) {
    std::memcpy(&n[std::size_t(t)], b.data() + start + 4 * std::size_t(t), 4);
    if (swap) n[std::size_t(t)] = __builtin_bswap32(n[std::size_t(t)]);
  }
  return n;
}

}  // namespace

TEST_CASE("gadget: the real snapshots of ../shared/data, every type, counts as in their headers") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot test skipped: ../shared/data is not beside this checkout");
    return;
  }
  struct Real {
    std::string infile;
    std::vector<std::string> files;
    std::string hsml;  // a block to read for the gas, or "" for none
  };
  const Real reals[] = {
      {"gadgetreader_test_g2_snap.0", {"gadgetreader_test_g2_snap.0", "gadgetreader_test_g2_snap.1"}, "HSML"},
      {"pop3_gadget2_fmt2_gassphere_snapshot_004", {"pop3_gadget2_fmt2_gassphere_snapshot_004"}, "HSML"},
      {"vaex_gassphere_littleendian.dat", {"vaex_gassphere_littleendian.dat"}, ""},
      {"vaex_gassphere_bigendian.dat", {"vaex_gassphere_bigendian.dat"}, ""},
      {"genetic_gadget3_fmt1_gas_dm_test10g", {"genetic_gadget3_fmt1_gas_dm_test10g"}, ""},
      {"iccpy_gadget_binary_snapshot_000", {"iccpy_gadget_binary_snapshot_000"}, ""},
  };
  for (const Real& r : reals) {
    INFO(r.infile);
    ParamFile params = ParamFile::parse("infile = " + data + "/" + r.infile + "\n", "real.par");
    std::vector<std::string> expected;
    std::array<std::uint64_t, 6> counts{};
    for (const std::string& f : r.files) {
      expected.push_back(data + "/" + f);
      const auto n = header_counts(data + "/" + f);
      for (int t = 0; t < 6; ++t) counts[std::size_t(t)] += n[std::size_t(t)];
    }
    const std::vector<std::string> files =
        snapshot_files(params, "", [](const std::string& f) { return GadgetFile(f).header().num_files; });
    CHECK(files == expected);
    for (int t = 0; t < 6; ++t) {
      if (counts[std::size_t(t)] == 0) continue;
      TypedSnapshotRequest o;
      o.files = files;
      RenderTypeRequest req;
      req.file_type = t;
      req.intensity.label = "MASS";  // the MASS block or the mass table
      req.colour.label = "VEL";
      req.vector_colour = true;
      if (t == 0 && !r.hsml.empty()) {
        req.size_fix = 0;
        req.size.label = r.hsml;
      }
      o.types = {req};
      const ParticleSet p = read_gadget(o);
      CHECK(p.size() == counts[std::size_t(t)]);
      bool finite = true, positive = true;
      for (std::size_t i = 0; i < p.size(); ++i) {
        finite = finite && std::isfinite(p.x[i]) && std::isfinite(p.y[i]) && std::isfinite(p.z[i]) &&
                 std::isfinite(p.colour[2][i]);
        positive = positive && p.hsml[i] > 0 && p.intensity[i] > 0;
      }
      CHECK(finite);
      CHECK(positive);  // smoothing lengths and masses
    }
  }
}

}  // namespace splotch
