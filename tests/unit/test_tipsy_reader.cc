// The Tipsy reader (io/tipsy_reader.h, io/tipsy_file.h, io/tipsy_aux_array.h) on files the tests
// write in every variant (both byte orders, 28- and 32-byte headers, float and double positions,
// every type, auxiliary arrays in ASCII and binary), on bad files, and on the real snapshots of
// ../shared/data.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/tipsy_aux_array.h"
#include "io/tipsy_file.h"
#include "io/tipsy_reader.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

namespace splotch {
namespace {

using testing::TempDir;
using testing::TipsyTestFile;

// Value k of the record of particle i of type t: all different, and exact in float.
double value(int t, int i, int k) { return 1000.0 * t + 16.0 * i + k + 0.5; }

// The record indexes of the fields the tests take.
enum GasValue { gas_rho = 7, gas_temp = 8, gas_hsmooth = 9, gas_metals = 10 };
enum DarkValue { dark_eps = 7 };
enum StarValue { star_metals = 7, star_tform = 8, star_eps = 9 };

TipsyTestFile snapshot(bool big_endian, bool padded, int gas, int dark, int star) {
  TipsyTestFile f;
  f.big_endian = big_endian;
  f.padded = padded;
  const int counts[3] = {gas, dark, star};
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < counts[t]; ++i) {
      std::vector<double> r;
      for (int k = 0; k < testing::tipsy_record_values[t]; ++k) r.push_back(value(t, i, k));
      f.records[t].push_back(r);
    }
  return f;
}

RenderTypeRequest request(int file_type, float size_fix, const std::string& size, const QuantityRequest& colour,
                          const QuantityRequest& intensity) {
  RenderTypeRequest r;
  r.file_type = file_type;
  r.size_fix = size_fix;
  r.size.label = size;
  r.colour = colour;
  r.intensity = intensity;
  return r;
}

QuantityRequest q(const std::string& label, float factor = 1.0f) { return {label, factor, std::nullopt}; }

// Render types 0 gas, 1 dark, 2 star, each taking its quantities by another kind of name: a
// Gadget label, an HDF5 name, a Tipsy field name.
TypedSnapshotRequest all_types(const std::string& path) {
  TypedSnapshotRequest o;
  o.files = {path};
  o.types = {request(0, 0, "HSML", q("Temperature", 2), q("Density")), request(1, 0.5f, "", q("eps"), q("MASS")),
             request(2, 0, "Softening", q("tform"), q("Metallicity", 3))};
  return o;
}

// What all_types() must give for `gas`, `dark`, `star` particles.
void check_all_types(const ParticleSet& p, int gas, int dark, int star) {
  REQUIRE(p.size() == std::size_t(gas + dark + star));
  CHECK(p.box_size == 0.0);
  std::size_t k = 0;
  const int counts[3] = {gas, dark, star};
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < counts[t]; ++i, ++k) {
      CHECK(p.x[k] == float(value(t, i, 1)));
      CHECK(p.y[k] == float(value(t, i, 2)));
      CHECK(p.z[k] == float(value(t, i, 3)));
      CHECK(p.type[k] == t);
      if (t == 0) {
        CHECK(p.hsml[k] == float(value(t, i, gas_hsmooth)));
        CHECK(p.colour[0][k] == float(value(t, i, gas_temp)) * 2.0f);
        CHECK(p.intensity[k] == float(value(t, i, gas_rho)));
      } else if (t == 1) {
        CHECK(p.hsml[k] == 0.5f);
        CHECK(p.colour[0][k] == float(value(t, i, dark_eps)));
        CHECK(p.intensity[k] == float(value(t, i, 0)));
      } else {
        CHECK(p.hsml[k] == float(value(t, i, star_eps)));
        CHECK(p.colour[0][k] == float(value(t, i, star_tform)));
        CHECK(p.intensity[k] == float(value(t, i, star_metals)) * 3.0f);
      }
    }
}

// Every component of every field of every type, through TipsyFile::read_field.
void check_read_field(const TipsyFile& f, int gas, int dark, int star) {
  const int counts[3] = {gas, dark, star};
  for (int t = 0; t < 3; ++t) {
    int k = 0;
    for (const TipsyField& field : f.fields(t))
      for (int c = 0; c < field.components; ++c, ++k) {
        INFO(tipsy_type_name(t) << " " << field.name << "[" << c << "]");
        const ParticleArray<float> v = f.read_field(t, field.name, c);
        REQUIRE(v.size() == std::size_t(counts[t]));
        for (int i = 0; i < counts[t]; ++i) CHECK(v[std::size_t(i)] == float(value(t, i, k)));
      }
    CHECK(k == testing::tipsy_record_values[t]);
  }
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) { return e.what(); }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("tipsy: both byte orders, both header sizes, every type and field") {
  TempDir dir;
  for (bool big : {true, false})
    for (bool padded : {true, false}) {
      INFO((big ? "big-endian, " : "little-endian, ") << (padded ? "32-byte header" : "28-byte header"));
      const std::string path = dir.path("snap");
      TipsyTestFile t = snapshot(big, padded, 5, 3, 4);
      t.time = 0.375;
      t.pad = 1;  // ChaNGa's files hold 1 there
      t.write(path);
      const TipsyFile f(path);
      CHECK(f.swapped() == big);  // this machine is little-endian
      CHECK(f.big_endian() == big);
      CHECK(f.header_bytes() == (padded ? 32u : 28u));
      CHECK(f.time() == 0.375);
      CHECK(f.header().ndim == 3);
      CHECK(f.total() == 12);
      CHECK(f.count(0) == 5);
      CHECK(f.count(1) == 3);
      CHECK(f.count(2) == 4);
      CHECK(f.first_index(2) == 8);
      CHECK(f.position_bytes() == 4);
      CHECK(f.field_names(0) == "mass, pos, vel, rho, temp, hsmooth, metals, phi");
      CHECK(f.field_names(1) == "mass, pos, vel, eps, phi");
      CHECK(f.field_names(2) == "mass, pos, vel, metals, tform, eps, phi");
      CHECK(f.record_bytes(0) == 48);
      CHECK(f.record_bytes(1) == 36);
      CHECK(f.record_bytes(2) == 44);
      check_read_field(f, 5, 3, 4);
      check_all_types(read_tipsy(all_types(path)), 5, 3, 4);
      // The byte order given, right or wrong: the same (the file decides, as the original's Gadget
      // reader does).
      for (bool guess : {big, !big}) {
        TypedSnapshotRequest guessed = all_types(path);
        guessed.swap_endian = guess;
        check_all_types(read_tipsy(guessed), 5, 3, 4);
      }
    }
}

TEST_CASE("tipsy: positions and velocities written in double") {
  TempDir dir;
  for (auto [pos_bytes, vel_bytes] : {std::pair{8, 4}, std::pair{8, 8}})
    for (bool padded : {true, false}) {
      INFO("pos " << pos_bytes << " bytes, vel " << vel_bytes << (padded ? ", 32-byte header" : ", 28-byte header"));
      TipsyTestFile t = snapshot(true, padded, 3, 2, 1);
      t.position_bytes = pos_bytes;
      t.velocity_bytes = vel_bytes;
      const std::string path = dir.write("snap", t.bytes());
      const TipsyFile f(path);
      CHECK(f.position_bytes() == pos_bytes);
      CHECK(f.velocity_bytes() == vel_bytes);
      CHECK(f.header_bytes() == (padded ? 32u : 28u));
      CHECK(f.record_bytes(0) == 48u + 3u * std::size_t(pos_bytes - 4 + vel_bytes - 4));
      check_read_field(f, 3, 2, 1);
      check_all_types(read_tipsy(all_types(path)), 3, 2, 1);
    }
}

TEST_CASE("tipsy: labels in any case and the aliases of other codes") {
  CHECK(tipsy_field_name("rho") == "rho");
  CHECK(tipsy_field_name("RHO") == "rho");
  CHECK(tipsy_field_name("Density") == "rho");
  CHECK(tipsy_field_name("Densities") == "rho");
  CHECK(tipsy_field_name("HSML") == "hsmooth");
  CHECK(tipsy_field_name("SmoothingLength") == "hsmooth");
  CHECK(tipsy_field_name("SmoothingLengths") == "hsmooth");
  CHECK(tipsy_field_name("Masses") == "mass");
  CHECK(tipsy_field_name("Coordinates") == "pos");
  CHECK(tipsy_field_name("Velocities") == "vel");
  CHECK(tipsy_field_name("VEL") == "vel");
  CHECK(tipsy_field_name("Temperature") == "temp");
  CHECK(tipsy_field_name("Metallicity") == "metals");
  CHECK(tipsy_field_name("Potential") == "phi");
  CHECK(tipsy_field_name("POT") == "phi");
  CHECK(tipsy_field_name("Softening") == "eps");
  CHECK(tipsy_field_name("StellarFormationTime") == "tform");
  CHECK(tipsy_field_name("TForm") == "tform");
  CHECK(tipsy_field_name("smoothlength") == "");  // an auxiliary array's name
  CHECK(tipsy_field_name("U") == "");
}

TEST_CASE("tipsy: vector colours from vel and pos, beside a type of scalar colours; one type") {
  TempDir dir;
  const std::string path = dir.write("snap", snapshot(false, true, 2, 3, 1).bytes());
  TypedSnapshotRequest o;
  o.files = {path};
  RenderTypeRequest dark = request(1, 0.25f, "", q("Velocities", 2), q(""));
  dark.vector_colour = true;
  RenderTypeRequest gas = request(0, 1.5f, "", q("rho"), q("phi"));
  RenderTypeRequest star = request(2, 0.75f, "", q("POS"), q("mass"));
  star.vector_colour = true;
  o.types = {dark, gas, star};
  const ParticleSet p = read_tipsy(o);
  REQUIRE(p.size() == 6);
  for (int i = 0; i < 3; ++i) {
    for (int c = 0; c < 3; ++c) CHECK(p.colour[c][std::size_t(i)] == float(value(1, i, 4 + c)) * 2.0f);
    CHECK(p.intensity[std::size_t(i)] == 1.0f);
    CHECK(p.hsml[std::size_t(i)] == 0.25f);
    CHECK(p.type[std::size_t(i)] == 0);
  }
  for (int i = 0; i < 2; ++i) {
    const std::size_t k = 3 + std::size_t(i);
    CHECK(p.x[k] == float(value(0, i, 1)));
    CHECK(p.colour[0][k] == float(value(0, i, gas_rho)));
    CHECK(p.colour[1][k] == 0.0f);
    CHECK(p.colour[2][k] == 0.0f);
    CHECK(p.intensity[k] == float(value(0, i, 11)));
    CHECK(p.type[k] == 1);
  }
  for (int c = 0; c < 3; ++c) CHECK(p.colour[c][5] == float(value(2, 0, 1 + c)));
  CHECK(p.type[5] == 2);

  o.types = {request(2, 0, "eps", q(""), q(""))};
  const ParticleSet one = read_tipsy(o);
  REQUIRE(one.size() == 1);
  CHECK(one.type.empty());
  CHECK(one.colour[1].empty());
  CHECK(one.hsml[0] == float(value(2, 0, star_eps)));
  CHECK(one.colour[0][0] == 1.0f);
  CHECK(one.intensity[0] == 1.0f);
}

TEST_CASE("tipsy: many pieces of parallel reading, with progress") {
  TempDir dir;
  // Enough records for several pieces of about 1 MiB each, with counts that end mid-piece.
  const int gas = 100003, dark = 70001;
  const std::string path = dir.write("snap", snapshot(true, true, gas, dark, 0).bytes());
  TypedSnapshotRequest o;
  o.files = {path};
  RenderTypeRequest g = request(0, 0, "hsmooth", q("vel"), q("metals"));
  g.vector_colour = true;
  o.types = {g, request(1, 1.0f, "", q("phi"), q(""))};
  std::vector<double> reports;
  const ParticleSet p = read_tipsy(o, [&](double f) { reports.push_back(f); });
  REQUIRE(p.size() == std::size_t(gas + dark));
  bool all_right = true;
  for (int i = 0; i < gas; ++i) {
    const std::size_t k = std::size_t(i);
    all_right = all_right && p.x[k] == float(value(0, i, 1)) && p.z[k] == float(value(0, i, 3)) &&
                p.hsml[k] == float(value(0, i, gas_hsmooth)) && p.colour[2][k] == float(value(0, i, 6)) &&
                p.intensity[k] == float(value(0, i, gas_metals));
  }
  for (int i = 0; i < dark; ++i) {
    const std::size_t k = std::size_t(gas + i);
    all_right = all_right && p.y[k] == float(value(1, i, 2)) && p.colour[0][k] == float(value(1, i, 8)) &&
                p.colour[1][k] == 0.0f && p.type[k] == 1;
  }
  CHECK(all_right);
  REQUIRE(!reports.empty());  // with any number of threads (thread 0 may take no piece)
  CHECK(reports.back() == 1.0);
  for (double f : reports) CHECK((f > 0 && f <= 1));
}

TEST_CASE("tipsy: auxiliary arrays, ASCII and binary") {
  TempDir dir;
  const std::string path = dir.write("snap.000010", snapshot(true, true, 2, 3, 2).bytes());
  // One value per particle of every type, in file order: gas, dark, star.
  std::vector<double> smooth, den;
  for (int i = 0; i < 7; ++i) {
    smooth.push_back(0.125 * (i + 1));
    den.push_back(100.0 + i);
  }
  TypedSnapshotRequest o;
  o.files = {path};
  o.types = {request(1, 0, "smoothlength", q("den", 2), q("rho")), request(2, 0, "smoothlength", q("den"), q(""))};
  auto check = [&](const ParticleSet& p) {
    REQUIRE(p.size() == 5);
    for (int i = 0; i < 5; ++i) {
      const std::size_t k = std::size_t(i);
      CHECK(p.hsml[k] == float(smooth[2 + k]));
      CHECK(p.colour[0][k] == float(den[2 + k]) * (i < 3 ? 2.0f : 1.0f));
      CHECK(p.intensity[k] == (i < 3 ? 4.0f : 1.0f));  // "rho": no dark field, so the array of that name
    }
  };
  std::vector<double> rho(7, 4.0);

  testing::write_file(path + ".smoothlength", testing::tipsy_ascii_array(smooth));
  testing::write_file(path + ".den", testing::tipsy_ascii_array(den));
  testing::write_file(path + ".rho", "7\n4\n4\n4\n  +4.0\n4e0\n4\n4");  // spaces, a sign, no last newline
  check(read_tipsy(o));
  CHECK(!TipsyAuxArray(path + ".den", 7, true).binary());
  for (bool big : {true, false})
    for (int value_bytes : {4, 8}) {
      INFO("binary, " << (big ? "big" : "little") << "-endian, " << value_bytes << "-byte values");
      testing::write_file(path + ".smoothlength", testing::tipsy_binary_array(smooth, big, value_bytes));
      testing::write_file(path + ".den", testing::tipsy_binary_array(den, big, value_bytes));
      testing::write_file(path + ".rho", testing::tipsy_binary_array(rho, !big));  // either order in one run
      check(read_tipsy(o));
      CHECK(TipsyAuxArray(path + ".den", 7, true).binary());
    }
}

TEST_CASE("tipsy: bad auxiliary arrays are one clear error") {
  TempDir dir;
  const std::string path = dir.write("snap", snapshot(true, true, 2, 3, 2).bytes());
  const std::vector<double> seven = {1, 2, 3, 4, 5, 6, 7};
  TypedSnapshotRequest one;
  one.files = {path};
  one.types = {request(1, 1.0f, "", q("aux"), q(""))};
  auto error_for = [&](const std::string& bytes) {
    testing::write_file(path + ".aux", bytes);
    return message_of([&] { read_tipsy(one); });
  };
  CHECK(error_for(testing::tipsy_ascii_array(seven)).empty());
  CHECK(error_for(testing::tipsy_ascii_array({1, 2, 3})) ==
        "auxiliary array '" + path + ".aux': its first line gives the count 3, but the snapshot has 7 particles");
  CHECK(error_for("7\n1\n2\n3\n4\n") == "auxiliary array '" + path + ".aux' ends after 4 values, but its count is 7");
  CHECK(error_for("7\n1\n2\n3\nfour\n5\n6\n7\n") ==
        "auxiliary array '" + path + ".aux' line 5: 'four' is not a number");
  CHECK(contains(error_for(testing::tipsy_binary_array(seven, true).substr(0, 20)),
                 "it starts with the count 7 of a binary array but is 20 bytes, not 4 + 4 x 7 (float)"));
  std::vector<double> vectors(21, 1.0);
  CHECK(contains(error_for(testing::tipsy_binary_array(vectors, true)),
                 "a binary array of 3 values per particle (a vector)"));
  CHECK(contains(error_for(std::string(40, '\x7f')),
                 "neither an ASCII array (the particle count, 7, on the first "
                 "line, then a value per line) nor a binary one"));
  CHECK(contains(error_for(""), "the file is empty"));
  CHECK(error_for("7\n1\n2\n" + std::string(5000, 'x')) ==
        "auxiliary array '" + path + ".aux' line 4: '" + std::string(40, 'x') + "' is not a number");
  // A word longer than a piece of reading (1 MiB).
  CHECK(contains(error_for("7\n" + std::string(1200000, 'x')), "line 2: more than 4096 characters without a space"));
}

TEST_CASE("tipsy: a label the records do not have: an error for sizes, a warning and 1 for colours and intensities") {
  TempDir dir;
  const std::string path = dir.write("snap", snapshot(true, true, 2, 3, 0).bytes());
  TypedSnapshotRequest o;
  o.files = {path};
  o.types = {request(0, 1.0f, "", q(""), q("")), request(1, 0, "HSML", q(""), q(""))};
  CHECK(message_of([&] { read_tipsy(o); }) ==
        "Tipsy file '" + path +
            "' has no field 'HSML' (hsmooth) (size_label1) for its 3 dark particles: dark records "
            "hold mass, pos, vel, eps, phi, and there is no auxiliary array '" +
            path +
            ".HSML'; give type 1 one smoothing "
            "length with size_fix1 > 0, or estimate them with size_estimate1 = knn");
  o.types[1] = request(1, 1.0f, "", q("rho"), q(""));
  ParticleSet p = read_tipsy(o);
  CHECK(p.warnings == std::vector<std::string>{
                          "Tipsy file '" + path +
                          "' has no field 'rho' (color_label1) for its 3 dark particles: dark "
                          "records hold mass, pos, vel, eps, phi, and there is no auxiliary array '" +
                          path +
                          ".rho': "
                          "type 1 is drawn with colour 1, as when color_label1 is left out (name a field the file has, "
                          "or XXXX for none)"});
  CHECK(p.colour[0][4] == 1.0f);
  o.types[1] = request(1, 1.0f, "", q(""), q("U"));
  p = read_tipsy(o);
  REQUIRE(p.warnings.size() == 1);
  CHECK(contains(p.warnings[0], "no field 'U' (intensity_label1)"));
  o.types[1] = request(1, 1.0f, "", q("vel"), q(""));
  CHECK(message_of([&] { read_tipsy(o); }) ==
        "color_label1 = vel: vel has 3 values per particle where one is needed; for vector colours give "
        "color_is_vector1 = TRUE");
  o.types[1] = request(1, 0, "pos", q(""), q(""));
  CHECK(message_of([&] { read_tipsy(o); }) == "size_label1 = pos: pos has 3 values per particle where one is needed");
  o.types[1] = request(1, 1.0f, "", q("eps"), q(""));
  o.types[1].vector_colour = true;
  CHECK(message_of([&] { read_tipsy(o); }) ==
        "color_label1 = eps: vector colours need a field of 3 values per particle (pos, vel), but eps has one");
  o.types[1].colour.label = "smoothlength";
  testing::write_file(path + ".smoothlength", "5\n1\n2\n3\n4\n5\n");  // a vector cannot come from an array
  p = read_tipsy(o);
  REQUIRE(p.warnings.size() == 1);
  CHECK(contains(p.warnings[0],
                 "for its 3 dark particles: dark records hold mass, pos, vel, eps, phi; vector colours "
                 "need pos or vel: type 1 is drawn with colour 1"));
  CHECK(p.colour[2][4] == 1.0f);
  const TipsyFile f(path);
  CHECK(message_of([&] { f.read_field(1, "temp"); }) ==
        "Tipsy file '" + path +
            "' has no field 'temp' for its dark particles; dark records hold mass, pos, vel, eps, phi");
}

TEST_CASE("tipsy: bad files are one clear error") {
  TempDir dir;
  const TipsyTestFile good_file = snapshot(true, true, 3, 2, 1);
  const std::string good = good_file.bytes();
  auto error_for = [&](const std::string& bytes, std::optional<bool> swap = std::nullopt) {
    const std::string path = dir.write("bad", bytes);
    TypedSnapshotRequest o;
    o.files = {path};
    o.swap_endian = swap;
    o.types = {request(0, 1.0f, "", q(""), q(""))};
    return message_of([&] { read_tipsy(o); });
  };
  const std::string bad = "Tipsy file '" + dir.path("bad") + "': ";
  CHECK(error_for(good).empty());
  CHECK(error_for(good, true).empty());
  CHECK(error_for("") == bad + "too short for a Tipsy header (0 bytes, where the header alone is 28 or 32)");
  CHECK(error_for(good.substr(0, 20)) ==
        bad + "too short for a Tipsy header (20 bytes, where the header alone is 28 or 32)");
  // 32 + 3 x 48 + 2 x 36 + 44 = 292 bytes.
  CHECK(error_for(good.substr(0, good.size() - 10)) ==
        bad +
            "the header's counts (3 gas, 2 dark, 1 star; big-endian) need a file of 292 bytes (288 with a 28-byte "
            "header), but it is 282 bytes: truncated, or not a Tipsy snapshot");
  CHECK(contains(error_for(good + "xyz"), "need a file of 292 bytes (288 with a 28-byte header), but it is 295 bytes"));
  TipsyTestFile wrong_total = good_file;
  wrong_total.nbodies = 7;
  CHECK(error_for(wrong_total.bytes()) ==
        bad +
            "does not look like a Tipsy snapshot: its header reads nbodies 7, ndim 3, 3 gas + 2 dark + 1 star "
            "big-endian (nbodies 117440512, ndim 50331648, 50331648 gas + 33554432 dark + 16777216 star "
            "little-endian), where nbodies is the sum and ndim 3");
  TipsyTestFile two_d = good_file;
  two_d.ndim = 2;
  CHECK(error_for(two_d.bytes()) ==
        bad + "the header says ndim = 2; only three-dimensional Tipsy snapshots (ndim = 3) can be read");
  CHECK(error_for(good, false).empty());  // the given byte order is only the first guess: the file decides
  CHECK(error_for(std::string("\x89HDF\r\n\x1a\n", 8) + std::string(100, '\0')) ==
        bad + "is not a Tipsy snapshot: it looks like an HDF5 file (read those with simtype 8, or 7)");
  testing::GadgetTestFile gadget;
  gadget.npart = {2, 0, 0, 0, 0, 0};
  gadget.blocks = {{"POS", {1, 2, 3, 4, 5, 6}}};
  for (int format : {1, 2})
    for (bool big : {false, true}) {
      gadget.format = format;
      gadget.big_endian = big;
      CHECK(error_for(gadget.bytes()) ==
            bad +
                "is not a Tipsy snapshot: it starts like a Gadget snapshot (a record length of 256 or 8 in its "
                "first 4 bytes; read those with simtype 2)");
    }
  CHECK(contains(error_for("simtype = 11\ninfile = snap.000010\n"), "does not look like a Tipsy snapshot"));
  CHECK(contains(error_for("simtype = 11\ninfile = snap.000010\n"), "; it looks like a text file"));
  TypedSnapshotRequest directory;
  directory.files = {dir.path()};
  directory.types = {RenderTypeRequest{}};
  CHECK(contains(message_of([&] { read_tipsy(directory); }), "is a directory"));
  CHECK(!is_tipsy_file(dir.path()));
  CHECK(!is_tipsy_file(dir.path("bad")));
  CHECK(is_tipsy_file(dir.write("good", good)));

  // The request: an empty type, a type out of range, more than one file.
  const std::string path = dir.path("good");
  TypedSnapshotRequest o;
  o.files = {path};
  o.types = {request(0, 1.0f, "", q(""), q("")), request(2, 1.0f, "", q(""), q(""))};
  CHECK(message_of([&] { read_tipsy(o); }).empty());
  const std::string only_gas = dir.write("gas", snapshot(false, false, 3, 0, 0).bytes());
  o.files = {only_gas};
  CHECK(read_tipsy(o).size() == 3);  // no stars: none read (the settings warn of it)
  o.files = {path};
  o.types[1].file_type = 3;
  CHECK(message_of([&] { read_tipsy(o); }) == "ptype1 = 3: Tipsy particle types are 0 (gas), 1 (dark) and 2 (star)");
  o.types[1].file_type = -1;
  CHECK(message_of([&] { read_tipsy(o); }) == "ptype1 = -1: Tipsy particle types are 0 (gas), 1 (dark) and 2 (star)");
  o.types.pop_back();
  o.files = {path, only_gas};
  CHECK(message_of([&] { read_tipsy(o); }) == "a Tipsy snapshot is one file, but 2 were given ('" + path + "', '" +
                                                  only_gas + "'): name the one file with infile and numfiles = 1");
  // An empty snapshot is a snapshot; it holds no particles of any type.
  const std::string empty = dir.write("empty", snapshot(true, true, 0, 0, 0).bytes());
  CHECK(TipsyFile(empty).total() == 0);
  o.files = {empty};
  CHECK(read_tipsy(o).size() == 0);  // (the load says there is nothing to draw)
}

}  // namespace splotch

namespace splotch {
namespace {

// A header read here byte by byte, so as not to test the reader against itself: the byte order
// in which ndim is 3 and the counts add up.
struct RealHeader {
  bool big_endian = false;
  std::array<std::uint32_t, 3> count{};
};

RealHeader real_header(const std::string& path) {
  const std::string b = testing::read_file(path);
  REQUIRE(b.size() >= 28);
  for (bool big : {true, false}) {
    auto int_at = [&](std::size_t at) {
      std::uint32_t v;
      std::memcpy(&v, b.data() + at, 4);
      return big ? __builtin_bswap32(v) : v;
    };
    RealHeader h{big, {int_at(16), int_at(20), int_at(24)}};
    if (int_at(12) == 3 && int_at(8) == h.count[0] + h.count[1] + h.count[2]) return h;
  }
  FAIL("no consistent Tipsy header in " << path);
  return {};
}

}  // namespace

TEST_CASE("tipsy: the real snapshots of ../shared/data, every type, counts as in their headers") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot test skipped: ../shared/data is not beside this checkout");
    return;
  }
  for (const char* name :
       {"changa_pgtest_ms.000010", "changa_testonestar_onestar.tbin", "genetic_tipsy_littleendian_gas_test04d"}) {
    const std::string path = data + "/" + name;
    INFO(path);
    const RealHeader h = real_header(path);
    const TipsyFile f(path);
    CHECK(f.big_endian() == h.big_endian);
    CHECK(f.header_bytes() == 32);
    CHECK(f.position_bytes() == 4);
    for (int t = 0; t < 3; ++t) {
      CHECK(f.count(t) == h.count[std::size_t(t)]);
      if (h.count[std::size_t(t)] == 0) continue;
      TypedSnapshotRequest o;
      o.files = {path};
      RenderTypeRequest r = request(t, 0.1f, "", q("vel"), q("mass"));
      r.vector_colour = true;
      o.types = {r};
      const ParticleSet p = read_tipsy(o);
      CHECK(p.size() == h.count[std::size_t(t)]);
      bool finite = true, positive = true;
      for (std::size_t i = 0; i < p.size(); ++i) {
        finite = finite && std::isfinite(p.x[i]) && std::isfinite(p.y[i]) && std::isfinite(p.z[i]) &&
                 std::isfinite(p.colour[2][i]);
        positive = positive && p.intensity[i] > 0;
      }
      CHECK(finite);
      CHECK(positive);  // masses
    }
  }
  // The ChaNGa gas: a real spread of density and temperature.
  const TipsyFile onestar(data + "/changa_testonestar_onestar.tbin");
  REQUIRE(onestar.count(0) == 1088);
  REQUIRE(onestar.count(2) == 1);
  for (auto [field, spread] : {std::pair<std::string, float>{"rho", 50}, {"temp", 5}}) {
    ParticleArray<float> v = onestar.read_field(0, field);
    std::sort(v.begin(), v.end());
    INFO(field << ": " << v.front() << " " << v[v.size() / 2] << " " << v.back());
    CHECK(v.front() > 0);
    CHECK(v.back() > spread * v.front());
  }
  const TipsyFile pgtest(data + "/changa_pgtest_ms.000010");
  CHECK(pgtest.time() == doctest::Approx(1.0));
  CHECK(pgtest.count(1) == 36000);
}

}  // namespace splotch

namespace splotch {

TEST_CASE("tipsy: for a movie between snapshots, each particle's place in the file as its ID, and its velocity") {
  testing::TempDir dir;
  const std::string path = dir.path("movie.bin");
  snapshot(false, true, 5, 3, 4).write(path);
  TypedSnapshotRequest o = all_types(path);
  for (RenderTypeRequest& r : o.types) r.motion = 2;
  const ParticleSet p = read_tipsy(o);
  REQUIRE(p.size() == 12);
  REQUIRE(p.id.size() == 12);
  // gas 0-4, dark 5-7, star 8-11: render types in order, each from its place among all records.
  for (std::size_t i = 0; i < 12; ++i) CHECK(p.id[i] == i);
  CHECK(p.vx[0] == float(value(0, 0, 4)));  // record values: mass, pos 3, vel 3
  CHECK(p.vz[6] == float(value(1, 1, 6)));
  // A share of the dark particles keeps their places.
  TypedSnapshotRequest dark = o;
  dark.types = {o.types[1]};
  dark.share = ReadShare{1, 2};
  const ParticleSet half = read_tipsy(dark);
  REQUIRE(half.size() >= 1);
  CHECK(half.id[0] == 5 + 3 - half.size());
}

}  // namespace splotch
