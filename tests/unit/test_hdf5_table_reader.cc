// The simtype-7 table reader (io/hdf5_table_reader.h) on tables written here with the library:
// one dataset per field (float, double, integer, in a group, one column of a 2-D dataset) and a
// compound dataset whose rows are selected by a snapshot member; defaults, thresh, shares of an
// MPI run, the messages for what a file lacks, and which HDF5 files have the Gadget layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/hdf5_file.h"
#include "io/hdf5_table_reader.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

#ifdef SPLOTCH_HDF5
#include "tests/support/hdf5_test_file.h"
#endif

namespace splotch {
namespace {

using testing::message_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

#ifndef SPLOTCH_HDF5

TEST_CASE("hdf5 table: this build has no HDF5, and says so") {
  MESSAGE("HDF5 table reader tests skipped: built without HDF5 (make HDF5=0 or no /usr/include/hdf5/serial)");
  testing::TempDir dir;
  testing::write_file(dir.path("t.h5"), "\x89HDF\r\n\x1a\n");
  Hdf5TableOptions o;
  o.path = dir.path("t.h5");
  o.x = o.y = o.z = "x";
  CHECK(contains(message_of([&] { read_hdf5_table(o); }), "built without HDF5"));
  CHECK(contains(message_of([&] { hdf5_table_snapshot_ids(o); }), "built without HDF5"));
  CHECK(!is_gadget_layout_hdf5(o.path));
}

#else

namespace {

using testing::TempDir;

// `values` stored as `file_type` under `name` of `location`: 1-D, or 2-D of one column.
void write_dataset(hid_t location, const std::string& name, hid_t file_type, const std::vector<double>& values,
                   bool one_column = false) {
  const hsize_t dims[2] = {hsize_t(values.size()), 1};
  hid_t space = H5Screate_simple(one_column ? 2 : 1, dims, nullptr);
  hid_t d = H5Dcreate2(location, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(d);
  H5Sclose(space);
}

hid_t create_file(const std::string& path) {
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  return file;
}

std::vector<double> sequence(std::size_t n, double start, double step) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + step * double(i);
  return v;
}

// Row i: PosX float i + 0.5, PosY double 1/3 + i, /grp/PosZ int32 -2i, Hsml double 0.01 (i + 1),
// Mass a 2-D column of floats 2i, Temp uint16 1000 + i, Pos3 n x 3 and Short n - 1 rows.
void write_columns(const std::string& path, std::size_t n) {
  hid_t file = create_file(path);
  write_dataset(file, "PosX", H5T_IEEE_F32LE, sequence(n, 0.5, 1));
  write_dataset(file, "PosY", H5T_IEEE_F64LE, sequence(n, 1.0 / 3.0, 1));
  hid_t group = H5Gcreate2(file, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(group, "PosZ", H5T_STD_I32LE, sequence(n, 0, -2));
  H5Gclose(group);
  write_dataset(file, "Hsml", H5T_IEEE_F64BE, sequence(n, 0.01, 0.01));
  write_dataset(file, "Mass", H5T_IEEE_F32LE, sequence(n, 0, 2), true);
  write_dataset(file, "Temp", H5T_STD_U16LE, sequence(n, 1000, 1));
  write_dataset(file, "Short", H5T_IEEE_F32LE, sequence(n - 1, 0, 1));
  const hsize_t dims[2] = {hsize_t(n), 3};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  H5Dclose(H5Dcreate2(file, "Pos3", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Sclose(space);
  H5Fclose(file);
}

Hdf5TableOptions column_options(const std::string& path) {
  Hdf5TableOptions o;
  o.path = path;
  o.x = "PosX";
  o.y = "PosY";
  o.z = "/grp/PosZ";
  return o;
}

// A semi-analytic catalogue's rows, members of mixed types as such files have them.
struct Galaxy {
  double position_x;
  float position_y;
  double position_z;
  float velocity_x;
  int snapshot;
};

// Row i: (0.5 + i, 10 + i, -i / 4), velocity 100 + i, snapshot 12, 11, 13 for i mod 3 = 0, 1, 2.
Galaxy galaxy(std::size_t i) {
  static const int snapshots[3] = {12, 11, 13};
  const double d = double(i);
  return {0.5 + d, float(10 + d), -d / 4, float(100 + d), snapshots[i % 3]};
}

void write_galaxies(const std::string& path, const std::vector<Galaxy>& rows) {
  testing::write_compound_table(path, "galaxies", rows,
                                {{"position_x", HOFFSET(Galaxy, position_x), H5T_NATIVE_DOUBLE},
                                 {"position_y", HOFFSET(Galaxy, position_y), H5T_NATIVE_FLOAT},
                                 {"position_z", HOFFSET(Galaxy, position_z), H5T_NATIVE_DOUBLE},
                                 {"velocity_x", HOFFSET(Galaxy, velocity_x), H5T_NATIVE_FLOAT},
                                 {"snapshot", HOFFSET(Galaxy, snapshot), H5T_NATIVE_INT}});
}

std::vector<Galaxy> galaxies(std::size_t n) {
  std::vector<Galaxy> rows;
  for (std::size_t i = 0; i < n; ++i) rows.push_back(galaxy(i));
  return rows;
}

Hdf5TableOptions galaxy_options(const std::string& path) {
  Hdf5TableOptions o;
  o.path = path;
  o.compound = true;
  o.dataset = "galaxies";
  o.x = "position_x";
  o.y = "position_y";
  o.z = "position_z";
  return o;
}

// Every field of `p`, one after another, to compare sets whole.
std::vector<float> all_values(const ParticleSet& p) {
  std::vector<float> v;
  for (const ParticleArray<float>* a :
       {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0], &p.colour[1], &p.colour[2]}) {
    v.push_back(float(a->size()));
    v.insert(v.end(), a->begin(), a->end());
  }
  return v;
}

// Parts 0 .. parts-1 of an MPI run's shares, appended field by field.
ParticleSet shares_joined(Hdf5TableOptions o, int parts) {
  ParticleSet all;
  for (int part = 0; part < parts; ++part) {
    o.share = ReadShare(part, parts);
    const ParticleSet p = read_hdf5_table(o);
    using Field = std::pair<ParticleArray<float>*, const ParticleArray<float>*>;
    const Field fields[] = {{&all.x, &p.x},
                            {&all.y, &p.y},
                            {&all.z, &p.z},
                            {&all.hsml, &p.hsml},
                            {&all.intensity, &p.intensity},
                            {&all.colour[0], &p.colour[0]},
                            {&all.colour[1], &p.colour[1]},
                            {&all.colour[2], &p.colour[2]}};
    for (const auto& [to, from] : fields) to->insert(to->end(), from->begin(), from->end());
  }
  return all;
}

}  // namespace

TEST_CASE("hdf5 table: one dataset per field, any number type, gives the values written") {
  TempDir dir;
  const std::string path = dir.path("table.h5");
  write_columns(path, 10);
  Hdf5TableOptions o = column_options(path);
  o.hsml = "Hsml";
  o.intensity = "Mass";
  o.colour[0] = "Temp";
  o.colour_offset = 0.25f;
  std::vector<double> fractions;
  const ParticleSet p = read_hdf5_table(o, [&](double f) { fractions.push_back(f); });
  REQUIRE(p.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) {
    const double d = double(i);
    CHECK(p.x[i] == float(0.5 + d));
    CHECK(p.y[i] == float(1.0 / 3.0 + d));             // double, rounded to float
    CHECK(p.z[i] == float(-2 * d));                    // int32
    CHECK(p.hsml[i] == float(0.01 + 0.01 * d));        // big-endian double
    CHECK(p.intensity[i] == float(2 * d));             // a 2-D dataset of one column
    CHECK(p.colour[0][i] == float(1000 + d) + 0.25f);  // uint16, plus thresh
  }
  CHECK(p.colour[1].empty());
  CHECK(p.colour[2].empty());
  CHECK(p.type.empty());
  CHECK(p.box_size == 0.0);
  REQUIRE(!fractions.empty());
  CHECK(fractions.back() == 1.0);
  CHECK(std::is_sorted(fractions.begin(), fractions.end()));
}

TEST_CASE("hdf5 table: fields no key names take the defaults, thresh only on colours read") {
  TempDir dir;
  const std::string path = dir.path("table.h5");
  write_columns(path, 4);
  Hdf5TableOptions o = column_options(path);
  o.hsml_absent = 0.3f;
  o.colour_offset = 5.0f;
  o.colour[1] = "Temp";  // a scalar colour reads no green
  const ParticleSet p = read_hdf5_table(o);
  REQUIRE(p.size() == 4);
  CHECK(p.hsml == std::vector<float>(4, 0.3f));
  CHECK(p.intensity == std::vector<float>(4, 0.5f));
  CHECK(p.colour[0] == std::vector<float>(4, 1.0f));
  CHECK(p.colour[1].empty());
  CHECK(p.colour[2].empty());

  o.vector_colour = true;
  const ParticleSet v = read_hdf5_table(o);
  CHECK(v.colour[0] == std::vector<float>(4, 1.0f));
  CHECK(v.colour[1] == std::vector<float>{1005, 1006, 1007, 1008});
  CHECK(v.colour[2] == std::vector<float>(4, 0.0f));
}

TEST_CASE("hdf5 table: what a table of datasets lacks is named with what it holds") {
  TempDir dir;
  const std::string path = dir.path("table.h5");
  write_columns(path, 5);
  Hdf5TableOptions o = column_options(path);
  o.intensity = "Mas";
  const std::string missing = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(missing, path));
  CHECK(contains(missing, "'Mas' (I = Mas)"));
  CHECK(contains(missing, "its datasets: Hsml, Mass, Pos3, PosX, PosY, Short, Temp, grp/PosZ"));

  o.intensity = "Short";
  const std::string rows = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(rows, "'Short' (I = Short)"));
  CHECK(contains(rows, "has 4 rows, but 'PosX' (x) has 5"));

  o.intensity.clear();
  o.colour[0] = "Pos3";
  const std::string shape = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(shape, "(C1 = Pos3)"));
  CHECK(contains(shape, "3 columns"));

  o.colour[0].clear();
  o.y.clear();
  CHECK(contains(message_of([&] { read_hdf5_table(o); }), "no dataset is named for y"));

  // A compound dataset read as columns says how to read it.
  write_galaxies(dir.path("galaxies.h5"), galaxies(3));
  Hdf5TableOptions c = column_options(dir.path("galaxies.h5"));
  c.x = c.y = c.z = "galaxies";
  const std::string compound = message_of([&] { read_hdf5_table(c); });
  CHECK(contains(compound, "is_compound_data = TRUE"));
  CHECK(contains(compound, "position_x, position_y, position_z, velocity_x, snapshot"));
}

TEST_CASE("hdf5 table: a compound dataset's rows of one snapshot") {
  TempDir dir;
  const std::string path = dir.path("galaxies.h5");
  write_galaxies(path, galaxies(20));
  Hdf5TableOptions o = galaxy_options(path);
  o.colour[0] = "velocity_x";
  o.intensity = "snapshot";  // the selecting member may be read as a field too
  o.snapshot_field = "snapshot";
  o.snapshot_id = 12;
  o.colour_offset = 0.5f;
  const ParticleSet p = read_hdf5_table(o);
  const std::vector<std::size_t> kept = {0, 3, 6, 9, 12, 15, 18};
  REQUIRE(p.size() == kept.size());
  for (std::size_t j = 0; j < kept.size(); ++j) {
    const Galaxy g = galaxy(kept[j]);
    CHECK(p.x[j] == float(g.position_x));
    CHECK(p.y[j] == g.position_y);
    CHECK(p.z[j] == float(g.position_z));
    CHECK(p.colour[0][j] == g.velocity_x + 0.5f);
    CHECK(p.intensity[j] == 12.0f);
  }
  CHECK(p.hsml == std::vector<float>(kept.size(), 1.0f));
  CHECK(p.type.empty());

  // Without a snapshot member every row is read.
  // One member may fill two fields.
  o.snapshot_field.clear();
  o.intensity.clear();
  o.colour[0] = "position_x";
  const ParticleSet all = read_hdf5_table(o);
  REQUIRE(all.size() == 20);
  CHECK(all.x[19] == 19.5f);
  CHECK(all.colour[0][19] == 20.0f);
  CHECK(all.intensity == std::vector<float>(20, 0.5f));
}

TEST_CASE("hdf5 table: what a compound table lacks is named with what it holds") {
  TempDir dir;
  const std::string path = dir.path("galaxies.h5");
  write_galaxies(path, galaxies(6));
  Hdf5TableOptions o = galaxy_options(path);
  o.hsml = "radius";
  const std::string member = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(member, path));
  CHECK(contains(member, "no member 'radius' (r = radius)"));
  CHECK(contains(member, "its members: position_x, position_y, position_z, velocity_x, snapshot"));

  o.hsml.clear();
  o.snapshot_field = "snap";
  CHECK(contains(message_of([&] { read_hdf5_table(o); }), "no member 'snap' (snapshot = snap)"));

  o.snapshot_field = "snapshot";
  o.snapshot_id = 7;
  const std::string none = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(none, "snapshotID = 7"));
  CHECK(contains(none, "11 (2 rows), 12 (2 rows), 13 (2 rows)"));

  o.dataset = "galaxy";
  const std::string dataset = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(dataset, "(dataset_name = galaxy)"));
  CHECK(contains(dataset, "its datasets: galaxies"));

  write_columns(dir.path("table.h5"), 3);
  o.path = dir.path("table.h5");
  o.dataset = "PosX";
  CHECK(contains(message_of([&] { read_hdf5_table(o); }), "is not a compound dataset"));
}

TEST_CASE("hdf5 table: the snapshot IDs a compound table holds, with their rows") {
  TempDir dir;
  const std::string path = dir.path("galaxies.h5");
  write_galaxies(path, galaxies(20));
  Hdf5TableOptions o = galaxy_options(path);
  o.snapshot_field = "snapshot";
  using Ids = std::vector<std::pair<std::int64_t, std::size_t> >;
  CHECK(hdf5_table_snapshot_ids(o) == Ids{{11, 7}, {12, 7}, {13, 6}});
  o.snapshot_field = "velocity_x";  // any number member, converted
  CHECK(hdf5_table_snapshot_ids(o).size() == 20);
  o.snapshot_field.clear();
  CHECK(contains(message_of([&] { hdf5_table_snapshot_ids(o); }), "snapshot"));
  o.snapshot_field = "snapshot";
  o.compound = false;
  CHECK(contains(message_of([&] { hdf5_table_snapshot_ids(o); }), "is_compound_data = TRUE"));
}

TEST_CASE("hdf5 table: the shares of an MPI run together are the whole table") {
  TempDir dir;
  write_columns(dir.path("table.h5"), 11);
  write_galaxies(dir.path("galaxies.h5"), galaxies(31));
  Hdf5TableOptions columns = column_options(dir.path("table.h5"));
  columns.intensity = "Mass";
  columns.vector_colour = true;
  columns.colour[1] = "Temp";
  Hdf5TableOptions rows = galaxy_options(dir.path("galaxies.h5"));
  rows.colour[0] = "velocity_x";
  Hdf5TableOptions selected = rows;
  selected.snapshot_field = "snapshot";
  selected.snapshot_id = 13;  // 10 rows
  for (const Hdf5TableOptions& o : {columns, rows, selected}) {
    INFO(o.path << " " << o.snapshot_field);
    const ParticleSet whole = read_hdf5_table(o);
    CHECK(whole.size() == (o.compound ? (o.snapshot_field.empty() ? 31u : 10u) : 11u));
    CHECK(all_values(shares_joined(o, 3)) == all_values(whole));
    CHECK(all_values(shares_joined(o, 12)) == all_values(whole));  // some shares empty
  }
}

TEST_CASE("hdf5 table: tables of more than one piece of 2^20 rows") {
  TempDir dir;
  const std::size_t n = (std::size_t(1) << 20) + 5;
  // Compound: x = i, snapshot 12 on even rows only.
  std::vector<Galaxy> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i] = {double(i), 1.0f, 2.0, 3.0f, i % 2 ? 7 : 12};
  write_galaxies(dir.path("big.h5"), rows);
  Hdf5TableOptions o = galaxy_options(dir.path("big.h5"));
  o.snapshot_field = "snapshot";
  o.snapshot_id = 12;
  std::vector<double> fractions;
  const ParticleSet p = read_hdf5_table(o, [&](double f) { fractions.push_back(f); });
  REQUIRE(p.size() == (n + 1) / 2);
  bool exact = true;
  for (std::size_t j = 0; j < p.size(); ++j) exact = exact && p.x[j] == float(2 * j);
  CHECK(exact);
  CHECK(fractions.size() == 2);
  CHECK(fractions.back() == 1.0);
  o.share = ReadShare(1, 2);
  const ParticleSet half = read_hdf5_table(o);
  REQUIRE(half.size() == p.size() - p.size() / 2);
  CHECK(half.x.front() == p.x[p.size() / 2]);
  CHECK(half.x.back() == p.x.back());

  // Columns: the second share starts in the first piece and ends in the second.
  hid_t file = create_file(dir.path("big_columns.h5"));
  write_dataset(file, "PosX", H5T_IEEE_F32LE, sequence(n, 0, 1));
  write_dataset(file, "PosY", H5T_IEEE_F64LE, sequence(n, 0, -1));
  write_dataset(file, "PosZ", H5T_STD_I32LE, sequence(n, 3, 0));
  H5Fclose(file);
  Hdf5TableOptions c = column_options(dir.path("big_columns.h5"));
  c.z = "PosZ";
  c.share = ReadShare(1, 2);
  const ParticleSet q = read_hdf5_table(c);
  const std::size_t first = n / 2;
  REQUIRE(q.size() == n - first);
  exact = true;
  for (std::size_t j = 0; j < q.size(); ++j)
    exact = exact && q.x[j] == float(first + j) && q.y[j] == -float(first + j) && q.z[j] == 3.0f;
  CHECK(exact);
}

TEST_CASE("hdf5 table: files that are not HDF5") {
  TempDir dir;
  Hdf5TableOptions o = column_options(dir.write("text.h5", "x y z\n1 2 3\n"));
  const std::string text = message_of([&] { read_hdf5_table(o); });
  CHECK(contains(text, o.path));
  CHECK(contains(text, "not an HDF5 file"));
  o.path = dir.path("missing.h5");
  CHECK(contains(message_of([&] { read_hdf5_table(o); }), o.path));
}

TEST_CASE("hdf5 table: which HDF5 files have the Gadget layout") {
  TempDir dir;
  write_columns(dir.path("table.h5"), 3);
  CHECK(!is_gadget_layout_hdf5(dir.path("table.h5")));
  CHECK(!is_gadget_layout_hdf5(dir.write("text.h5", "not HDF5")));
  CHECK(!is_gadget_layout_hdf5(dir.path("missing.h5")));
  CHECK(!is_gadget_layout_hdf5(dir.path()));  // a directory

  hid_t file = create_file(dir.path("header_only.h5"));
  H5Gclose(H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Fclose(file);
  CHECK(!is_gadget_layout_hdf5(dir.path("header_only.h5")));
  file = H5Fopen(dir.path("header_only.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  H5Gclose(H5Gcreate2(file, "PartType1", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Fclose(file);
  CHECK(is_gadget_layout_hdf5(dir.path("header_only.h5")));

  const std::string data = testing::real_data_dir();
  const std::string gadget4 = data + "/gadget4_lcdm_gas_snapshot_000.hdf5";
  if (data.empty() || !testing::file_exists(gadget4)) {
    MESSAGE("skipped: no " << gadget4);
    return;
  }
  CHECK(is_gadget_layout_hdf5(gadget4));
}

#endif  // SPLOTCH_HDF5

}  // namespace splotch
