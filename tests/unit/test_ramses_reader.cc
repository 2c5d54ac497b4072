// The RAMSES reader (io/ramses_reader.h, io/ramses_output.h, io/fortran_records.h): outputs the
// test writes as RAMSES does (two CPU files each holding a copy of the other's grids, both byte
// orders, double and single precision hydro, old- and new-style particles), damaged ones, and the
// real outputs of ../shared/data.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/ramses_output.h"
#include "io/ramses_reader.h"
#include "io/read_snapshot.h"
#include "io/snapshot_survey.h"
#include "tests/support/column_test_support.h"
#include "tests/support/fortran_test_file.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::FortranWriter;
using testing::TempDir;

struct Variant {
  bool big_endian = false;
  bool single_hydro = false;  // 4-byte reals in the hydro file
  bool new_style = false;     // descriptors, families, int64 identities
};

// 3-D, 2 CPUs, box 10, levels 1-2: CPU 1 owns the level-1 grid (8 cells, the last refined), CPU 2
// the level-2 grid in that cell; each file also holds a copy of the other's grid (density 999),
// which is not the file's to give. 15 leaf cells, volumes 7 x 125 + 8 x 15.625 = 1000.
std::string write_output(const TempDir& dir, const Variant& v) {
  const std::string out = dir.path("output_00003");
  ::mkdir(out.c_str(), 0755);
  testing::write_file(out + "/info_00003.txt",
                      "ncpu        =          2\nndim        =          3\nlevelmin    =          1\n"
                      "levelmax    =          2\nngridmax    =     100000\nnstep_coarse=          0\n\n"
                      "boxlen      =  0.100000000000000E+02\ntime        =  0.500000000000000E+00\n"
                      "aexp        =  0.100000000000000E+01\nH0          =  0.100000000000000E+01\n"
                      "omega_m     =  0.100000000000000E+01\nomega_l     =  0.000000000000000E+00\n"
                      "omega_k     =  0.000000000000000E+00\nomega_b     =  0.000000000000000E+00\n"
                      "unit_l      =  0.308567758128200E+22\nunit_d      =  0.100000000000000E-23\n"
                      "unit_t      =  0.315360000000000E+14\n\nordering type=hilbert\n");
  if (v.new_style) {
    testing::write_file(out + "/hydro_file_descriptor.txt",
                        "# version:  1\n# ivar, variable_name, variable_type\n 1, density, d\n 2, velocity_x, d\n"
                        " 3, velocity_y, d\n 4, velocity_z, d\n 5, thermal_pressure, d\n");
    testing::write_file(out + "/part_file_descriptor.txt",
                        "# version:  1\n# ivar, variable_name, variable_type\n 1, position_x, d\n 2, position_y, d\n"
                        " 3, position_z, d\n 4, velocity_x, d\n 5, velocity_y, d\n 6, velocity_z, d\n 7, mass, d\n"
                        " 8, identity, l\n 9, levelp, i\n10, family, b\n11, tag, b\n12, birth_time, d\n");
  }
  using I = std::int32_t;
  using D = std::vector<double>;
  for (int cpu = 1; cpu <= 2; ++cpu) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, ".out%05d", cpu);
    // numbl(icpu, ilevel): level 1 has CPU 1's grid, level 2 CPU 2's; both files hold both.
    const std::vector<I> numbl{1, 0, 0, 1};
    {
      FortranWriter a(out + "/amr_00003" + suffix, v.big_endian);
      a.one<I>(2), a.one<I>(3), a.record(std::vector<I>{1, 1, 1}), a.one<I>(2), a.one<I>(100000), a.one<I>(0);
      a.one<I>(2), a.one<double>(10.0), a.record(std::vector<I>{1, 1, 1}), a.record(D{0.5}), a.record(D{1.0});
      a.one<double>(0.5), a.record(D{0, 0}), a.record(D{0, 0}), a.record(std::vector<I>{0, 0}), a.record(D{0, 0, 0});
      a.record(D{1, 0, 0, 0, 1, 1, 10}), a.record(D{1, 0, 1, 0, 0}), a.one<double>(0);
      a.record(std::vector<I>{1, 0, 0, 2}), a.record(std::vector<I>{1, 0, 0, 2}), a.record(numbl);
      std::vector<I> numbtot(20, 0);
      numbtot[0] = 1, numbtot[10] = 1;
      a.record(numbtot), a.record(std::vector<I>{0, 0, 0, 0, 0});
      a.text("hilbert", 128), a.record(D{0, 4, 8});
      a.record(std::vector<I>{1}), a.record(std::vector<I>{0}), a.record(std::vector<I>{1});
      for (int lev = 1; lev <= 2; ++lev) {
        const bool own = lev == cpu;
        const double centre = lev == 1 ? 0.5 : 0.75;
        a.one<I>(lev), a.one<I>(0), a.one<I>(0);  // ind_grid, next, prev
        for (int d = 0; d < 3; ++d) a.one<double>(centre);
        a.one<I>(lev == 1 ? 1 : 8);  // father
        for (int k = 0; k < 6; ++k) a.one<I>(0);
        for (int c = 0; c < 8; ++c) a.one<I>(lev == 1 && c == 7 ? 2 : (!own && lev == 2 ? 5 : 0));  // son
        for (int c = 0; c < 8; ++c) a.one<I>(lev);                                                  // cpu_map
        for (int c = 0; c < 8; ++c) a.one<I>(0);                                                    // flag1
      }
    }
    {
      FortranWriter h(out + "/hydro_00003" + suffix, v.big_endian);
      h.one<I>(2), h.one<I>(5), h.one<I>(3), h.one<I>(2), h.one<I>(0), h.one<double>(1.4);
      for (int lev = 1; lev <= 2; ++lev)
        for (int ib = 1; ib <= 2; ++ib) {
          h.one<I>(lev);
          const int ncache = ib == lev ? 1 : 0;
          h.one<I>(ncache);
          if (!ncache) continue;
          const bool own = lev == cpu;
          for (int c = 0; c < 8; ++c) {
            const double base = lev == 1 ? 1 : 10;
            const double values[5] = {own ? base + c : 999, double(c), -double(c), 0.5, own ? 2 * base + c : 999};
            for (double x : values) {
              if (v.single_hydro)
                h.one<float>(float(x));
              else
                h.one<double>(x);
            }
          }
        }
    }
    {
      FortranWriter p(out + "/part_00003" + suffix, v.big_endian);
      const int n = cpu == 1 ? 3 : 1;
      p.one<I>(2), p.one<I>(3), p.one<I>(n), p.record(std::vector<I>{1, 2, 3, 4}), p.one<I>(1), p.one<double>(0.2);
      p.one<double>(0), p.one<I>(0);
      const D x = cpu == 1 ? D{1, 4, 7} : D{9}, mass = cpu == 1 ? D{0.1, 0.2, 0.3} : D{0.4};
      const D tp = cpu == 1 ? D{0, -1.5, 0} : D{0};
      for (int d = 0; d < 3; ++d) {
        D c = x;
        for (double& value : c) value += d;
        p.record(c);
      }
      for (int d = 0; d < 3; ++d) p.record(D(std::size_t(n), 0.5 * d));
      p.record(mass);
      const std::vector<std::int64_t> ids =
          cpu == 1 ? std::vector<std::int64_t>{1, 2, 3} : std::vector<std::int64_t>{4};
      if (v.new_style) {
        std::vector<std::int64_t> big = ids;
        for (auto& id : big) id += std::int64_t(1) << 40;  // beyond 32 bits
        p.record(big);
      } else {
        p.record(std::vector<I>(ids.begin(), ids.end()));
      }
      p.record(std::vector<I>(std::size_t(n), 2));
      if (v.new_style) {
        std::vector<std::int8_t> family;
        for (double t : tp) family.push_back(t != 0 ? 2 : 1);
        p.record(family), p.record(std::vector<std::int8_t>(std::size_t(n), 0));
        p.record(tp);
      } else {
        p.record(tp), p.record(D(std::size_t(n), 0.02));
      }
    }
  }
  return out;
}

using testing::column;

double sum(const ParticleArray<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST_CASE("ramses: a 3-D output of two CPU files, every variant: the leaf cells of each file's own grids") {
  for (const Variant v : {Variant{false, false, false}, Variant{true, true, true}, Variant{true, false, false}}) {
    INFO("big-endian " << v.big_endian << ", single hydro " << v.single_hydro << ", new style " << v.new_style);
    const TempDir dir;
    const std::string out = write_output(dir, v);
    CHECK(is_ramses_output(out));
    CHECK(is_ramses_output(out + "/info_00003.txt"));
    CHECK(detect_snapshot_format(out) == SnapshotFormat::ramses);
    ColumnWanted all;
    all.all = true;
    all.ids = true;
    const ColumnSnapshot s = load_ramses(out + "/", all);
    const ColumnType& gas = *s.type(0);
    REQUIRE(gas.count == 15);
    CHECK(ramses_outline(out).types[0].count == 15);  // from the header's grid counts alone
    const Column& rho = column(gas, "RHO");
    CHECK(std::none_of(rho.values.begin(), rho.values.end(), [](float r) { return r == 999; }));
    const Column& side = column(gas, "cell_size");
    // The smoothing lengths: twice the side, the support over which a lattice of cells sums flat.
    CHECK(column(gas, "HSML").name == "smoothing_length");
    CHECK(column(gas, "HSML").values[7] == doctest::Approx(2 * side.values[7]));
    double volume = 0, mass_expected = 0;
    for (std::size_t i = 0; i < gas.count; ++i) {
      volume += std::pow(double(side.values[i]), 3);
      mass_expected += double(rho.values[i]) * std::pow(double(side.values[i]), 3);
    }
    CHECK(volume == doctest::Approx(1000.0));
    CHECK(sum(column(gas, "MASS").values) == doctest::Approx(5187.5));
    CHECK(mass_expected == doctest::Approx(5187.5));
    // The first cell (level 1, the corner x-, y-, z-) and the first of level 2.
    const std::vector<const Column*> pos = gas.find("POS", 3);
    REQUIRE(pos.size() == 3);
    CHECK(pos[0]->values[0] == doctest::Approx(2.5));
    CHECK(pos[2]->values[0] == doctest::Approx(2.5));
    CHECK(side.values[0] == doctest::Approx(5.0));
    CHECK(pos[0]->values[7] == doctest::Approx(6.25));
    CHECK(pos[1]->values[14] == doctest::Approx(8.75));
    CHECK(side.values[7] == doctest::Approx(2.5));
    CHECK(rho.values[7] == doctest::Approx(10.0));
    CHECK(column(gas, "level").values[7] == 2);
    // U = p / ((gamma - 1) rho): cell 3 of level 1, rho 4, p 5.
    CHECK(column(gas, "U").values[3] == doctest::Approx(5.0 / (0.4 * 4.0)));
    // Derived: the column through a cell (density x side), and T / mu in K from P / rho.
    CHECK(column(gas, "column_density").values[3] == doctest::Approx(4.0 * 5.0));
    const double v_unit = 3.085677581282e21 / 3.1536e13;
    CHECK(column(gas, "T_over_mu").values[3] ==
          doctest::Approx(5.0 / 4.0 * v_unit * v_unit * 1.6735575e-24 / 1.380649e-16).epsilon(1e-5));
    const std::vector<const Column*> vel = gas.find("VEL", 3);
    REQUIRE(vel.size() == 3);
    CHECK(vel[1]->values[3] == doctest::Approx(-3.0));
    // Particles: dark matter (birth time 0, or family 1) and one star.
    const ColumnType& dm = *s.type(1);
    const ColumnType& stars = *s.type(2);
    REQUIRE(dm.count == 3);
    REQUIRE(stars.count == 1);
    const std::uint64_t high = v.new_style ? std::uint64_t(1) << 40 : 0;
    CHECK(dm.ids == std::vector<std::uint64_t>{high + 1, high + 3, high + 4});
    CHECK(stars.ids == std::vector<std::uint64_t>{high + 2});
    CHECK(column(stars, "MASS").values[0] == doctest::Approx(0.2));
    CHECK(stars.find("POS", 3)[1]->values[0] == doctest::Approx(5.0));
    CHECK(column(dm, "MASS").values[2] == doctest::Approx(0.4));
    CHECK(s.time == 0.5);
    CHECK(s.box_size == 10.0);  // periodic: no boundaries
    CHECK(s.units.length_cm == doctest::Approx(3.085677581282e21));
    CHECK(s.units.mass_g == doctest::Approx(1e-24 * std::pow(3.085677581282e21, 3)));
    CHECK(s.units.velocity_cm_s == doctest::Approx(3.085677581282e21 / 3.1536e13));
    CHECK(s.units.hubble == 0);  // (no cosmology)
    // Through the common request: the gas with its cells' sizes, coloured by density.
    TypedSnapshotRequest o;
    o.files = {out};
    RenderTypeRequest r;
    r.file_type = 0;
    r.size_fix = 0;
    r.size.label = "HSML";
    r.colour.label = "Density";
    r.intensity.label = "MASS";
    RenderTypeRequest st;
    st.file_type = 2;
    st.size_fix = 0.5f;
    st.intensity.label = "mass";
    o.types = {r, st};
    SnapshotRequest in;
    in.format = SnapshotFormat::ramses;
    in.typed = o;
    const ParticleSet p = read_snapshot(in);
    REQUIRE(p.size() == 16);
    CHECK(p.hsml[7] == doctest::Approx(5.0));
    CHECK(p.colour[0][7] == doctest::Approx(10.0));
    CHECK(p.type_of(15) == 1);
    CHECK(p.intensity[15] == doctest::Approx(0.2));
    CHECK(p.x[15] == doctest::Approx(4.0));
    // MPI shares: whole CPU files, the first process file 1 (7 cells and the star), the second
    // file 2 (the 8 cells of level 2).
    in.typed.share = ReadShare(1, 2);
    const ParticleSet second = read_snapshot(in);
    CHECK(second.size() == 8);
    CHECK(second.x[0] == doctest::Approx(6.25));
    CHECK(second.hsml[0] == doctest::Approx(5.0));
    in.typed.share = ReadShare(0, 2);
    const ParticleSet first = read_snapshot(in);
    CHECK(first.size() == 8);
    CHECK(first.type_of(7) == 1);  // the star
    // More processes than files: slices of every type.
    in.typed.share = ReadShare(2, 3);
    CHECK(read_snapshot(in).size() == ReadShare(2, 3).size_of(15) + ReadShare(2, 3).size_of(1));
    const SnapshotSurvey survey = survey_snapshot(SnapshotFormat::ramses, {out});
    CHECK(survey.type(0)->smoothing == "smoothing_length");
    CHECK(survey.type(0)->cell_sizes);
    CHECK(survey.type(0)->brightness == "mass_over_h");
    CHECK(is_ramses_output(out + "/amr_00003.out00002"));  // a CPU file names its output
    CHECK(survey.type(0)->density == "density");
    CHECK(survey.type(1)->count == 3);
    CHECK(survey.type(2)->count == 1);
  }
}

TEST_CASE("ramses: sinks from sink_NNNNN.csv, with RAMSES' line of names and units and without (2014 to 2018)") {
  TempDir dir;
  const std::string out = write_output(dir, Variant{});
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  testing::write_file(out + "/sink_00003.csv",
                      " # id,msink,x,y,z,vx,vy,vz,lx,ly,lz,tform,acc_rate\n # 1,m,l,l,l,l t-1,l t-1,l t-1,,,,t,m t-1\n"
                      "  1, 2.5, 1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 0, 0, 0, 0.4, 1e-3\n"
                      "  2, 0.5, 4.0, 5.0, 6.0, 0, 0, 0, 0, 0, 0, 0.45, 0\n");
  ColumnSnapshot s = load_ramses(out, all);
  const ColumnType& named = s.types[8];
  REQUIRE(named.count == 2);
  CHECK(named.ids == std::vector<std::uint64_t>{1, 2});
  CHECK(testing::column(named, "MASS").values[0] == doctest::Approx(2.5));
  CHECK(named.find("POS", 3)[2]->values[1] == doctest::Approx(6.0));
  CHECK(testing::column(named, "tform").values[1] == doctest::Approx(0.45));
  // The csv of 2014 to 2018: 13 columns, no names.
  testing::write_file(out + "/sink_00003.csv", "1, 2.5, 1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 0, 0, 0, 0.1, 1e-3\n");
  s = load_ramses(out, all);
  const ColumnType& unnamed = s.types[8];
  REQUIRE(unnamed.count == 1);
  CHECK(unnamed.ids == std::vector<std::uint64_t>{1});
  CHECK(testing::column(unnamed, "MASS").values[0] == doctest::Approx(2.5));
  CHECK(unnamed.find("VEL", 3)[1]->values[0] == doctest::Approx(0.2));
  CHECK(testing::column(unnamed, "age").values[0] == doctest::Approx(0.1));
  CHECK(testing::column(unnamed, "dMBH_dt").values[0] == doctest::Approx(1e-3));
}

TEST_CASE("ramses: sinks from the binary sink_NNNNN.out00001 where there is no csv, with acc_rate and without") {
  for (bool acc_rate : {false, true}) {
    INFO("acc_rate " << acc_rate);
    TempDir dir;
    const std::string out = write_output(dir, Variant{});
    // An old-style header that counts a sink the output lacks: said.
    testing::write_file(out + "/header_00003.txt", " Total number of sink particles\n          2\n");
    const std::vector<std::string> notes = load_ramses(out, ColumnWanted{}).notes;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("the header counts 2 sink particles, but the output has no sink_00003.csv") == 0;
    }));
    {
      testing::FortranWriter w(out + "/sink_00003.out00001", false);
      w.one<std::int32_t>(2);                                                    // nsink
      w.one<std::int32_t>(2);                                                    // nindsink
      w.record(std::vector<double>{2.5, 0.5});                                   // msink
      w.record(std::vector<double>{0.1, 0.2});                                   // tsink
      for (double x : {1.0, 2.0, 3.0}) w.record(std::vector<double>{x, x + 3});  // position
      for (double v : {0.1, 0.2, 0.3}) w.record(std::vector<double>{v, 0});      // velocity
      for (int d = 0; d < 3; ++d) w.record(std::vector<double>{0, 0});           // angular momentum
      w.record(std::vector<double>{0.01, 0.02});                                 // delta_mass
      if (acc_rate) w.record(std::vector<double>{1e-3, 2e-3});
      w.record(std::vector<std::int32_t>{7, 9});  // idsink
      w.record(std::vector<std::int32_t>{0, 1});  // new_born
      w.one<std::int32_t>(5);                     // sinkint_level
    }
    ColumnWanted all;
    all.all = true;
    all.ids = true;
    const ColumnSnapshot s = load_ramses(out, all);
    const ColumnType& sinks = s.types[8];
    REQUIRE(sinks.count == 2);
    CHECK(sinks.ids == std::vector<std::uint64_t>{7, 9});
    CHECK(testing::column(sinks, "MASS").values[1] == doctest::Approx(0.5));
    CHECK(sinks.find("POS", 3)[2]->values[1] == doctest::Approx(6.0));
    CHECK(sinks.find("VEL", 3)[0]->values[0] == doctest::Approx(0.1));
    CHECK(testing::column(sinks, "delta_mass").values[1] == doctest::Approx(0.02));
    CHECK(testing::column(sinks, "birth_time").values[0] == doctest::Approx(0.1));
    CHECK(std::any_of(sinks.columns.begin(), sinks.columns.end(),
                      [](const Column& c) { return c.name == "acc_rate"; }) == acc_rate);
    CHECK(load_ramses(out, ColumnWanted{}).types[8].count == 2);
  }
}

TEST_CASE("ramses: a field the type lacks, a damaged file and a directory of something else are errors naming them") {
  const TempDir dir;
  const std::string out = write_output(dir, Variant{});
  TypedSnapshotRequest o;
  o.files = {out};
  RenderTypeRequest r;
  r.file_type = 1;
  r.size_fix = 0;
  r.size.label = "HSML";
  o.types = {r};
  SnapshotRequest in;
  in.format = SnapshotFormat::ramses;
  in.typed = o;
  CHECK_THROWS_WITH_AS(read_snapshot(in), doctest::Contains("has no field 'HSML' for type 1 (dark matter)"), UserError);
  // (the fields named are all the type's, not only those read)
  CHECK_THROWS_WITH_AS(read_snapshot(in),
                       doctest::Contains("velocity_z, mass, levelp, birth_time, metallicity, identity"), UserError);
  // Truncated within a record.
  const std::string amr = out + "/amr_00003.out00002";
  REQUIRE(::truncate(amr.c_str(), 700) == 0);
  in.typed.types[0].file_type = 0;
  CHECK_THROWS_WITH_AS(read_snapshot(in), doctest::Contains("amr_00003.out00002"), UserError);
  // Not RAMSES.
  const TempDir other;
  testing::write_file(other.path("notes.txt"), "hello\n");
  CHECK_FALSE(is_ramses_output(other.path()));
  CHECK_THROWS_WITH_AS(open_ramses_output(other.path()), doctest::Contains("not a RAMSES output"), UserError);
  // An info file without ncpu.
  const TempDir bad;
  const std::string b = bad.path("output_00001");
  ::mkdir(b.c_str(), 0755);
  testing::write_file(b + "/info_00001.txt", "ndim = 3\n");
  CHECK_THROWS_WITH_AS(open_ramses_output(b), doctest::Contains("has no line 'ncpu"), UserError);
}

TEST_CASE("ramses: the real outputs of ../shared/data (2-D hydro new and old style, 8 CPU files of particles)") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("real-output test skipped: ../shared/data is not beside this checkout");
    return;
  }
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  {  // Sedov, old style: density 1 everywhere at t = 0 in a box of side 1: mass 1.
    const std::string path = data + "/ramses_sedov2d_output_00001";
    const ColumnSnapshot s = load_ramses(path, all);
    const ColumnType& gas = *s.type(0);
    CHECK(gas.count == ramses_outline(path).types[0].count);
    CHECK(gas.count == 517);
    double area = 0;
    for (float h : column(gas, "cell_size").values) area += double(h) * double(h);
    CHECK(area == doctest::Approx(1.0).epsilon(1e-9));  // the leaves tile the box
    CHECK(std::abs(sum(column(gas, "MASS").values) - 1.0) < 1e-6);
    CHECK(s.dimensions == 2);
    CHECK(s.box_size == 0);  // walls: nboundary = 4
    const Column& z = *gas.find("POS", 3)[2];
    CHECK(std::all_of(z.values.begin(), z.values.end(), [](float v) { return v == 0; }));
    CHECK(!gas.find("scalar_00", 1).empty());  // the classic order's fifth variable
  }
  {  // The multi-material patch: the mass an independent reading of the files gives.
    const std::string path = data + "/ramses_multimat2d_output_00001";
    const ColumnSnapshot s = load_ramses(path, all);
    const ColumnType& gas = *s.type(0);
    CHECK(gas.count == 6712);
    CHECK(gas.count == ramses_outline(path).types[0].count);
    CHECK(std::abs(sum(column(gas, "MASS").values) - 1.5350227494642) < 1e-6);
    CHECK(!gas.find("true_dens_02", 1).empty());
    CHECK(gas.find("U", 1).empty());  // gamma -999: none derived
  }
  {  // The galaxy's particles: the families of header_00010.txt.
    const std::string path = data + "/ramses_galaxy_particles_output_00010";
    const ColumnSnapshot s = load_ramses(path, all);
    CHECK(s.type(1)->count == 3200);
    CHECK(s.type(6)->count == 4013);
    CHECK(s.type(0)->count == 0);  // (its amr and hydro files are not in ../shared/data)
    const ColumnSnapshot outline = ramses_outline(path);
    CHECK(outline.type(1)->count == 3200);
    CHECK(outline.type(6)->count == 4013);
    std::set<std::uint64_t> ids(s.type(1)->ids.begin(), s.type(1)->ids.end());
    ids.insert(s.type(6)->ids.begin(), s.type(6)->ids.end());
    CHECK(ids.size() == 7213);
    const Column& family = column(*s.type(1), "family");
    CHECK(std::all_of(family.values.begin(), family.values.end(), [](float f) { return f == 1; }));
    CHECK(s.units.mass_g == doctest::Approx(1.66e-24 * std::pow(3.0857e21, 3)));
    CHECK(s.time == doctest::Approx(0.0901448183877841));
  }
}

}  // namespace splotch
