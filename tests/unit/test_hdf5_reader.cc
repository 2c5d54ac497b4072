// The HDF5 reader (io/hdf5_reader.h) on the HDF5 twins of the Gadget test snapshots, written here
// in each way the codes write them (header arrays of any length, 1-element scalars, 3-vector
// BoxSize, float or double, either byte order, contiguous or chunked and compressed, one file or
// several), on bad files, and on the real HDF5 snapshots of ../shared/data; a Gadget snapshot
// and its HDF5 twin render the same picture.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/hdf5_reader.h"
#include "params/param_file.h"
#include "splotch/settings/settings_keys.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/snapshot_test_data.h"

namespace splotch {

#ifndef SPLOTCH_HDF5

TEST_CASE("hdf5: this build has no HDF5, and says so") {
  MESSAGE("HDF5 reader tests skipped: built without HDF5 (make HDF5=0 or no /usr/include/hdf5/serial)");
  CHECK(!hdf5_supported());
  testing::TempDir dir;
  testing::write_file(dir.path("x.hdf5"), "\x89HDF\r\n\x1a\n");
  CHECK(testing::message_of([&] { Hdf5File f(dir.path("x.hdf5")); }).find("built without HDF5") != std::string::npos);
}

#else

namespace {

using testing::check_particles;
using testing::gas_and_dm;
using testing::Hdf5TestOptions;
using testing::Hdf5TestWriter;
using testing::message_of;
using testing::snapshot;
using testing::TempDir;
using testing::Variant;

// A file's NumPart_ThisFile read here with the library itself, so as not to test the reader
// against itself.
std::vector<std::uint64_t> header_counts(const std::string& path) {
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t g = H5Gopen2(f, "Header", H5P_DEFAULT);
  hid_t a = H5Aopen(g, "NumPart_ThisFile", H5P_DEFAULT);
  hid_t space = H5Aget_space(a);
  std::vector<std::uint64_t> n(std::size_t(H5Sget_simple_extent_npoints(space)));
  H5Aread(a, H5T_NATIVE_UINT64, n.data());
  H5Sclose(space);
  H5Aclose(a);
  H5Gclose(g);
  H5Fclose(f);
  return n;
}

std::vector<std::string> files_of(const std::string& par_text) {
  ParamFile p = ParamFile::parse(par_text, "test.par");
  return snapshot_files(p, ".hdf5", [](const std::string& f) { return Hdf5File(f).header().num_files; });
}

}  // namespace

TEST_CASE("hdf5: every way of writing the header and datasets gives the same particles") {
  TempDir dir;
  struct Way {
    const char* name;
    Hdf5TestOptions options;
    int value_bytes;
  };
  // types in the header, SWIFT's scalars / BoxSize / names, chunked, big-endian
  auto options = [](int types, bool swift, bool chunked, bool big_endian) {
    Hdf5TestOptions o;
    o.header_types = types;
    o.scalars_as_arrays = o.box_as_vector = o.plural_names = swift;
    o.chunked = chunked;
    o.big_endian = big_endian;
    return o;
  };
  const Way ways[] = {
      {"Gadget-3 layout, float", options(6, false, false, false), 4},
      {"Gadget-4: header arrays of 2 types, double", options(2, false, false, false), 8},
      {"SWIFT: 1-element scalars, 3-vector BoxSize, plural names", options(6, true, false, false), 4},
      {"chunked and gzip-compressed", options(6, false, true, false), 4},
      {"chunked, double, big-endian", options(6, false, true, true), 8},
      {"contiguous big-endian float", options(6, false, false, true), 4},
  };
  for (const Way& w : ways) {
    INFO(w.name);
    const std::string path = dir.path("snap.hdf5");
    Hdf5TestWriter::write(snapshot(Variant{2, false, w.value_bytes, 8}, 5, 3), path, w.options);
    const Hdf5File file(path);
    CHECK(file.header().types() == w.options.header_types);
    CHECK(file.header().box_size == 250.0);
    CHECK(file.header().time == 0.5);
    CHECK(file.header().count(0) == 5);
    CHECK(file.header().count(1) == 3);
    CHECK(file.header().mass_of(1) == 0.5);
    const std::optional<Hdf5Field> pos = file.find(0, "POS");
    REQUIRE(pos);
    CHECK(pos->name == "Coordinates");
    CHECK(pos->components == 3);
    CHECK(pos->rows == 5);
    CHECK(pos->value_type == (w.value_bytes == 8 ? "float64" : "float32"));
    CHECK(pos->raw == !w.options.chunked);  // contiguous floats are read without the library
    CHECK(file.find(0, "HSML"));
    CHECK(file.find(0, "SmoothingLength"));
    CHECK(file.find(0, "smoothinglengths"));
    CHECK(!file.find(1, "HSML"));
    const ParticleSet p = read_hdf5(gas_and_dm({path}));
    CHECK(p.box_size == 250.0);
    check_particles(p, {{0, 5}}, {{0, 3}});
  }
}

TEST_CASE("hdf5: a row range (hyperslab) of a dataset, through the library") {
  TempDir dir;
  const std::string path = dir.path("snap.hdf5");
  for (bool chunked : {false, true}) {
    Hdf5TestOptions o;
    o.chunked = chunked;
    Hdf5TestWriter::write(snapshot(Variant{2, false, 4, 8}, 20, 0), path, o);
    const Hdf5File f(path);
    const Hdf5Field pos = *f.find(0, "Coordinates");
    std::vector<float> x(6), z(6);
    float* targets[3] = {x.data(), nullptr, z.data()};
    f.read(0, pos, 9, 6, targets, 3, 2.0f);
    for (int i = 0; i < 6; ++i) {
      CHECK(x[std::size_t(i)] == 2.0f * float(testing::gas_x(9 + i)));
      CHECK(z[std::size_t(i)] == 2.0f * float(20.0 + 9 + i));
    }
    // Integers are converted too (IDs as a colour).
    const Hdf5Field id = *f.find(0, "ParticleIDs");
    CHECK(id.value_type == "uint64");
    CHECK(!id.raw);
    std::vector<float> ids(3);
    float* t1[1] = {ids.data()};
    f.read(0, id, 17, 3, t1, 1, 1.0f);
    CHECK(ids == std::vector<float>{18, 19, 20});
  }
}

TEST_CASE("hdf5: vector colours, the mass table, a single type, several files") {
  TempDir dir;
  // Two files: gas [0, 4) and DM [0, 2) in .0, gas [4, 7) and DM [2, 5) in .1.
  for (int k = 0; k < 2; ++k) {
    testing::GadgetTestFile g =
        snapshot(Variant{2, false, 4, 4}, k == 0 ? 4 : 3, k == 0 ? 2 : 3, k == 0 ? 0 : 4, k == 0 ? 0 : 2);
    g.num_files = 2;
    Hdf5TestOptions o;
    o.chunked = k == 1;  // a snapshot may mix them
    Hdf5TestWriter::write(g, dir.path("snap_007." + std::to_string(k) + ".hdf5"), o);
  }
  const std::vector<std::string> expected = {dir.path("snap_007.0.hdf5"), dir.path("snap_007.1.hdf5")};
  CHECK(files_of("infile = " + dir.path("snap_") + "\nfidx = 7\n") == expected);
  CHECK(files_of("infile = " + dir.path("snap_007") + "\n") == expected);
  CHECK(files_of("infile = " + dir.path("snap_007.0.hdf5") + "\n") == expected);
  CHECK(files_of("infile = " + dir.path("snap_007") + "\nnumfiles = 2\n") == expected);
  const ParticleSet p = read_hdf5(gas_and_dm(expected));
  check_particles(p, {{0, 4}, {4, 7}}, {{0, 2}, {2, 5}});

  TypedSnapshotRequest o;
  o.files = expected;
  RenderTypeRequest dm;
  dm.file_type = 1;
  dm.colour.label = "Velocities";
  dm.vector_colour = true;
  dm.intensity = {"Masses", 4.0f, std::nullopt};  // from the mass table, times the factor
  o.types = {dm};
  const ParticleSet d = read_hdf5(o);
  REQUIRE(d.size() == 5);
  CHECK(d.type.empty());
  for (int j = 0; j < 5; ++j) {
    CHECK(d.colour[0][std::size_t(j)] == float(-1.0 - j));
    CHECK(d.colour[2][std::size_t(j)] == float(-3.0 - j));
    CHECK(d.intensity[std::size_t(j)] == 2.0f);
    CHECK(d.hsml[std::size_t(j)] == 1.0f);  // size_fix default
  }
}

TEST_CASE("hdf5: many pieces of parallel reading, contiguous and chunked, against the Gadget twin") {
  // 300 000 gas particles: positions in 4 buffered pieces, 1-value fields in 1 piece of 2^20 ...
  // and the library's pieces of 2^20 rows; every value is checked.
  TempDir dir;
  const testing::GadgetTestFile g = snapshot(Variant{2, false, 4, 4}, 300000, 0);
  g.write(dir.path("big"));
  Hdf5TestOptions chunked;
  chunked.chunked = true;
  Hdf5TestWriter::write(g, dir.path("big.hdf5"));
  Hdf5TestWriter::write(g, dir.path("big_chunked.hdf5"), chunked);
  TypedSnapshotRequest gas = gas_and_dm({dir.path("big")});
  gas.types.pop_back();
  gas.types[0].colour = {"VEL", 1.0f, std::nullopt};
  gas.types[0].vector_colour = true;
  const ParticleSet from_gadget = read_gadget(gas);
  for (const char* name : {"big.hdf5", "big_chunked.hdf5"}) {
    INFO(name);
    gas.files = {dir.path(name)};
    const ParticleSet p = read_hdf5(gas);
    REQUIRE(p.size() == 300000);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double x = testing::gas_x(int(i)), v = 1.0 + double(i);
      wrong += p.x[i] != float(x) || p.y[i] != float(10.0 + double(i)) || p.z[i] != float(20.0 + double(i)) ||
               p.hsml[i] != float(0.5 * double(i + 1)) || p.intensity[i] != float(0.125 * double(i + 1)) ||
               p.colour[0][i] != float(v) || p.colour[2][i] != float(2.0 + v) || p.x[i] != from_gadget.x[i] ||
               p.colour[1][i] != from_gadget.colour[1][i];
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("hdf5: a BoxSize of three different sides is no periodic cube") {
  TempDir dir;
  Hdf5TestOptions o;
  o.box_sides = {2.0, 1.0, 1.0};
  Hdf5TestWriter::write(snapshot(Variant{2, false, 4, 4}, 5, 3), dir.path("box.hdf5"), o);
  const Hdf5File f(dir.path("box.hdf5"));
  CHECK(f.header().box_sides == std::vector<double>{2.0, 1.0, 1.0});
  CHECK(f.header().box_size == 0.0);
  CHECK(read_hdf5(gas_and_dm({dir.path("box.hdf5")})).box_size == 0.0);
}

TEST_CASE("hdf5: bad files and requests are one clear error") {
  TempDir dir;
  const std::string path = dir.path("snap.hdf5");
  Hdf5TestWriter::write(snapshot(Variant{2, false, 4, 4}, 5, 3), path);

  TypedSnapshotRequest o = gas_and_dm({path});
  o.types[0].colour.label = "Temperature";
  o.types[1].intensity.label = "Temperature";
  {  // colours and intensities the file lacks: 1, and one warning each naming the datasets there are
    const ParticleSet p = read_hdf5(o);
    REQUIRE(p.warnings.size() == 2);
    CHECK(p.warnings[0].find("has no dataset 'Temperature' (color_label0)") != std::string::npos);
    CHECK(p.warnings[0].find("its datasets are: Coordinates, Density, InternalEnergy, Masses, ParticleIDs, "
                             "SmoothingLength, Velocities: type 0 is drawn with colour 1") != std::string::npos);
    CHECK(p.warnings[1].find("PartType1 has no dataset 'Temperature' (intensity_label1)") != std::string::npos);
    CHECK(p.warnings[1].find("type 1 is drawn with intensity 1") != std::string::npos);
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.type_of(i) == 1) CHECK(p.intensity[i] == 1.0f);
    o.types[1].size.label = "Temperature";  // smoothing lengths the file lacks stay an error
    o.types[1].size_fix = 0;
    CHECK(message_of([&] { read_hdf5(o); }).find("has no dataset 'Temperature' (size_label1)") != std::string::npos);
  }

  o = gas_and_dm({path});
  o.types[1].file_type = 4;  // none in the file: read as none (the settings warn of it)
  const ParticleSet gas_only = read_hdf5(o);
  CHECK(gas_only.size() == 5);
  CHECK(std::count(gas_only.type.begin(), gas_only.type.end(), 1) == 0);

  o = gas_and_dm({path});
  o.types[0].colour.label = "Velocities";  // a 3-vector as a scalar
  CHECK(message_of([&] { read_hdf5(o); }).find("holds 3 value(s) per particle where 1 are needed") !=
        std::string::npos);

  // The header and the datasets disagree: the header is made to say 6 gas particles.
  Hdf5TestWriter::write(snapshot(Variant{2, false, 4, 4}, 5, 3), dir.path("six.hdf5"));
  {
    hid_t f = H5Fopen(dir.path("six.hdf5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(f, "Header", H5P_DEFAULT);
    hid_t a = H5Aopen(g, "NumPart_ThisFile", H5P_DEFAULT);
    const std::uint64_t counts[6] = {6, 3, 0, 0, 0, 0};
    REQUIRE(H5Awrite(a, H5T_NATIVE_UINT64, counts) >= 0);
    H5Aclose(a);
    H5Gclose(g);
    H5Fclose(f);
  }
  const std::string rows = message_of([&] { read_hdf5(gas_and_dm({dir.path("six.hdf5")})); });
  CHECK(rows.find("PartType0/Coordinates has 5 rows but the header (NumPart_ThisFile) says 6 particles") !=
        std::string::npos);

  // Not HDF5, not a snapshot, a directory, a truncated file.
  snapshot(Variant{2, false, 4, 4}, 5, 3).write(dir.path("gadget"));
  CHECK(message_of([&] { Hdf5File f(dir.path("gadget")); }) ==
        "'" + dir.path("gadget") + "' is not an HDF5 file: it looks like a Gadget binary snapshot (simtype 2)");
  CHECK(message_of([&] { Hdf5File f(dir.path("nothing.hdf5")); }).find("cannot open") != std::string::npos);
  CHECK(message_of([&] { Hdf5File f(dir.path("")); }).find("is a directory") != std::string::npos);
  {
    hid_t f = H5Fcreate(dir.path("empty.hdf5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "Stuff", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Fclose(f);
  }
  CHECK(message_of([&] { Hdf5File f(dir.path("empty.hdf5")); }).find("has no Header group with NumPart_ThisFile") !=
        std::string::npos);
  CHECK(message_of([&] { Hdf5File f(dir.path("empty.hdf5")); }).find("its top-level objects: Stuff") !=
        std::string::npos);
  const std::string whole = testing::read_file(path);
  for (std::size_t keep : {std::size_t(100), whole.size() / 2, whole.size() - 100}) {
    INFO("truncated to " << keep << " of " << whole.size() << " bytes");
    testing::write_file(dir.path("cut.hdf5"), whole.substr(0, keep));
    CHECK(!message_of([&] { read_hdf5(gas_and_dm({dir.path("cut.hdf5")})); }).empty());
  }
}

TEST_CASE("hdf5: the real HDF5 snapshots of ../shared/data, every type, counts as in their headers") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot test skipped: ../shared/data is not beside this checkout");
    return;
  }
  struct Real {
    const char* file;
    std::size_t types;  // entries of the header's per-type arrays
    double box;
    const char* hsml;  // dataset of the gas smoothing lengths
  };
  const Real reals[] = {
      {"gadget4_lcdm_gas_snapshot_000.hdf5", 2, 50000, "SmoothingLength"},
      {"gadget4_lcdm_gas_snapshot_004.hdf5", 2, 50000, "HSML"},
      {"cmacionize_swift_test.hdf5", 6, 1, "SmoothingLengths"},
      {"swift_sodshock3d_glass_002.hdf5", 6, 1, "SmoothingLength"},
  };
  for (const Real& r : reals) {
    INFO(r.file);
    const std::string path = data + "/" + r.file;
    const Hdf5File f(path);
    CHECK(f.header().npart == header_counts(path));
    CHECK(f.header().npart.size() == r.types);
    for (int t = 0; t < f.header().types(); ++t)  // the header against the datasets themselves
      CHECK(f.header().count(t) == (f.header().count(t) ? f.find(t, "Coordinates")->rows : 0));
    CHECK(f.header().box_size == r.box);
    for (int t = 0; t < f.header().types(); ++t) {
      if (f.header().count(t) == 0) continue;
      TypedSnapshotRequest o;
      o.files = {path};
      RenderTypeRequest req;
      req.file_type = t;
      req.intensity.label = "MASS";  // the Masses dataset or the mass table
      if (t == 0) {
        req.size_fix = 0;
        req.size.label = r.hsml;
        req.colour.label = "U";
      }
      o.types = {req};
      const ParticleSet p = read_hdf5(o);
      CHECK(p.size() == f.header().count(t));
      bool finite = true, positive = true;
      for (std::size_t i = 0; i < p.size(); ++i) {
        finite = finite && std::isfinite(p.x[i]) && std::isfinite(p.y[i]) && std::isfinite(p.z[i]) &&
                 std::isfinite(p.colour[0][i]);
        positive = positive && p.hsml[i] > 0 && p.intensity[i] > 0;
      }
      CHECK(finite);
      CHECK(positive);
    }
  }
}

#endif  // SPLOTCH_HDF5

}  // namespace splotch
