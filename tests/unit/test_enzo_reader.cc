// The Enzo reader (io/enzo_run.h, io/enzo_reader.h, io/enzo_data_file.h): outputs the test writes
// as Enzo 2 does (a parameter file, a text hierarchy of a root grid and a child, packed HDF5 data
// files of one group per grid, with and without ghost zones, and a file per grid), and damaged ones.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/enzo_reader.h"
#include "io/enzo_run.h"
#include "io/read_snapshot.h"
#include "io/snapshot_survey.h"
#include "tests/support/column_test_support.h"
#include "tests/support/test_support.h"

#ifdef SPLOTCH_HDF5
#include <hdf5.h>
#endif

namespace splotch {
namespace {

using testing::TempDir;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// bin/splotch of this checkout, by its absolute path (the commands run in the test's directory).
std::string splotch_bin() {
  char here[4096];
  return std::string(::getcwd(here, sizeof here) ? here : ".") + "/bin/splotch";
}

const char* const parameters =
    "InitialCycleNumber  = 7\nInitialTime         = 2.5\nTopGridRank         = 3\n"
    "TopGridDimensions   = 4 4 4 \nDomainLeftEdge      = 0 0 0 \nDomainRightEdge     = 1 1 1 \n"
    "LeftFaceBoundaryCondition  = 3 3 3 \nHydroMethod         = 0\nDualEnergyFormalism = 0\nGamma = 1.6667\n"
    "ComovingCoordinates = 0\nLengthUnits         = 3.0857e+21\nDensityUnits        = 1e-24\n"
    "TimeUnits           = 3.15e+13\nDataLabel[0]        = Density\n";

struct Variant {
  bool ghost_zones = false;    // datasets of the whole grid, ghost zones included (WriteGhostZones)
  bool file_per_grid = false;  // DD0003.grid0001 with its datasets at the root (before packed AMR)
};

// Grid 1: the root, 4^3 cells of side 0.25 (x from 0 to 1), density 1 + i by the x index; grid 2,
// level 1, covers the root's cells x 2-3, y 0-1, z 1-2 with 4^3 cells of side 0.125 and density 2.
// 56 + 64 = 120 leaf cells. Particles: three in grid 1 (dark matter, a star, dark matter), two in
// grid 2 (must-refine, dark matter), particle_mass 0.5 and 8 (densities: masses 0.5/64 and 8/512).
std::string hierarchy(const Variant& v) {
  const std::string f1 = v.file_per_grid ? "./DD0003/DD0003.grid0001" : "./DD0003/DD0003.cpu0000";
  const std::string f2 = v.file_per_grid ? "./DD0003/DD0003.grid0002" : "./DD0003/DD0003.cpu0001";
  return "\nGrid = 1\nTask              = 0\nGridRank          = 3\nGridDimension     = 10 10 10 \n"
         "GridStartIndex    = 3 3 3 \nGridEndIndex      = 6 6 6 \nGridLeftEdge      = 0 0 0 \n"
         "GridRightEdge     = 1 1 1 \nTime              = 2.5\nNumberOfBaryonFields = 5\n"
         "FieldType = 0 1 4 5 6 \nBaryonFileName = " +
         f1 + "\nNumberOfParticles   = 3\nParticleFileName = " + f1 +
         "\nGravityBoundaryType = 0\nPointer: Grid[1]->NextGridThisLevel = 0\n"
         "\nGrid = 2\nTask              = 1\nGridRank          = 3\nGridDimension     = 10 10 10 \n"
         "GridStartIndex    = 3 3 3 \nGridEndIndex      = 6 6 6 \nGridLeftEdge      = 0.5 0 0.25 \n"
         "GridRightEdge     = 1 0.5 0.75 \nTime              = 2.5\nNumberOfBaryonFields = 5\n"
         "FieldType = 0 1 4 5 6 \nBaryonFileName = " +
         f2 + "\nNumberOfParticles   = 2\nParticleFileName = " + f2 +
         "\nGravityBoundaryType = 2\nPointer: Grid[2]->NextGridThisLevel = 0\n"
         "Pointer: Grid[2]->NextGridNextLevel = 0\nPointer: Grid[1]->NextGridNextLevel = 2\n\n"
         "NumberOfStarParticles      = 1\nNumberOfOtherParticles     = 4\n";
}

#ifdef SPLOTCH_HDF5

void dataset(hid_t group, const char* name, const std::vector<double>& values, std::vector<hsize_t> dims,
             hid_t file_type, hid_t memory_type) {
  const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hid_t d = H5Dcreate2(group, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (memory_type == H5T_NATIVE_INT64) {
    std::vector<long long> v(values.begin(), values.end());
    H5Dwrite(d, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  } else {
    H5Dwrite(d, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  }
  H5Dclose(d);
  H5Sclose(space);
}

// One grid's group: its fields over the active cells (or every cell, with ghost zones: -1 there),
// and its particles.
void write_grid(hid_t file, int grid, const Variant& v, double density_of(int i), double vx,
                const std::vector<std::vector<double>>& particles) {
  char name[32];
  std::snprintf(name, sizeof name, "Grid%08d", grid);
  const hid_t g = v.file_per_grid ? H5Gopen2(file, "/", H5P_DEFAULT)
                                  : H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const int n = v.ghost_zones ? 10 : 4, o = v.ghost_zones ? 3 : 0;
  auto field = [&](auto value) {
    std::vector<double> f(std::size_t(n * n * n), -1.0);
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const bool active = i >= o && i < o + 4 && j >= o && j < o + 4 && k >= o && k < o + 4;
          if (active) f[std::size_t((k * n + j) * n + i)] = value(i - o, j - o, k - o);
        }
    return f;
  };
  const std::vector<hsize_t> dims{hsize_t(n), hsize_t(n), hsize_t(n)};
  dataset(g, "Density", field([&](int i, int, int) { return density_of(i); }), dims, H5T_IEEE_F32BE, H5T_NATIVE_DOUBLE);
  dataset(g, "TotalEnergy", field([](int, int, int) { return 3.0; }), dims, H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE);
  dataset(g, "x-velocity", field([&](int, int, int) { return vx; }), dims, H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE);
  dataset(g, "y-velocity", field([](int, int, int) { return 0.0; }), dims, H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE);
  dataset(g, "z-velocity", field([](int, int, int) { return 0.0; }), dims, H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE);
  const hsize_t np = particles[0].size();
  const char* const names[] = {"particle_position_x", "particle_position_y", "particle_position_z",
                               "particle_mass",       "particle_type",       "particle_index"};
  for (int a = 0; a < 6; ++a)
    dataset(g, names[a], particles[std::size_t(a)], {np}, a >= 4 ? H5T_STD_I64BE : H5T_IEEE_F64LE,
            a >= 4 ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE);
  H5Gclose(g);
}

double root_density(int i) { return 1.0 + i; }
double child_density(int) { return 2.0; }

std::string write_output(const TempDir& dir, const Variant& v) {
  const std::string out = dir.path("DD0003");
  ::mkdir(out.c_str(), 0755);
  testing::write_file(out + "/DD0003", parameters);
  testing::write_file(out + "/DD0003.hierarchy", hierarchy(v));
  const std::string f1 = out + (v.file_per_grid ? "/DD0003.grid0001" : "/DD0003.cpu0000");
  const std::string f2 = out + (v.file_per_grid ? "/DD0003.grid0002" : "/DD0003.cpu0001");
  hid_t file = H5Fcreate(f1.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_grid(file, 1, v, root_density, 0.1,
             {{0.1, 0.2, 0.3}, {0.1, 0.2, 0.3}, {0.1, 0.2, 0.3}, {0.5, 0.5, 0.5}, {1, 2, 1}, {10, 11, 12}});
  H5Fclose(file);
  file = H5Fcreate(f2.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_grid(file, 2, v, child_density, 0.0, {{0.6, 0.7}, {0.1, 0.2}, {0.3, 0.4}, {8, 8}, {4, 1}, {20, 21}});
  H5Fclose(file);
  return out;
}

TEST_CASE("enzo: a root grid and a child, packed, with ghost zones and a file per grid: the leaf cells and particles") {
  for (const Variant v : {Variant{}, Variant{true, false}, Variant{false, true}}) {
    CAPTURE(v.ghost_zones);
    CAPTURE(v.file_per_grid);
    TempDir dir;
    const std::string out = write_output(dir, v);
    REQUIRE(is_enzo_output(out));
    CHECK(is_enzo_output(out + "/DD0003"));
    CHECK(is_enzo_output(out + "/DD0003.hierarchy"));
    CHECK(is_enzo_output(out + (v.file_per_grid ? "/DD0003.grid0002" : "/DD0003.cpu0001")));
    const EnzoRun run = open_enzo_run(out);
    REQUIRE(run.grids.size() == 2);
    CHECK(run.grids[1].level == 1);
    CHECK(run.grids[0].children == std::vector<int>{2});
    CHECK(enzo_leaf_cells(run) == 120);

    const ColumnSnapshot outline = enzo_outline(out);
    CHECK(outline.types[0].count == 120);
    CHECK(outline.types[1].count == 4);  // (the hierarchy's count: its star particles, the rest dark matter)
    CHECK(outline.types[2].count == 1);
    CHECK(outline.description == "Enzo output DD0003 (2 grids, levels 0 to 1, 3-D, 2 data files)");

    ColumnWanted all;
    all.all = true;
    all.ids = true;
    const ColumnSnapshot s = load_enzo(out + "/DD0003", all);
    const ColumnType& gas = s.types[0];
    REQUIRE(gas.count == 120);
    const auto& x = testing::column(gas, "position_x").values;
    const auto& y = testing::column(gas, "position_y").values;
    const auto& z = testing::column(gas, "position_z").values;
    const auto& mass = testing::column(gas, "MASS").values;
    const auto& rho = testing::column(gas, "RHO").values;
    const auto& u = testing::column(gas, "U").values;
    const auto& hsml = testing::column(gas, "HSML").values;
    double total = 0;
    for (float m : mass) total += m;
    // The root's 56 leaves (densities 1 + i) of volume 1/64, the child's 64 of density 2 and 1/512.
    double expected = 0;
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i)
          if (!(i >= 2 && j <= 1 && k >= 1 && k <= 2)) expected += (1.0 + i) / 64;
    expected += 64 * 2.0 / 512;
    CHECK(total == doctest::Approx(expected).epsilon(1e-6));
    // A root cell and a child cell where they are; none at a covered root cell's centre.
    bool root = false, child = false, covered = false;
    for (std::size_t c = 0; c < gas.count; ++c) {
      auto at = [&](double a, double b, double d) {
        return std::abs(x[c] - a) < 1e-6 && std::abs(y[c] - b) < 1e-6 && std::abs(z[c] - d) < 1e-6;
      };
      if (at(0.375, 0.125, 0.125)) {
        root = true;
        CHECK(rho[c] == doctest::Approx(2.0));  // i = 1
        CHECK(hsml[c] == doctest::Approx(0.5));
        CHECK(u[c] == doctest::Approx(3.0 - 0.5 * 0.01));  // TotalEnergy less the kinetic energy
      }
      if (at(0.5625, 0.0625, 0.3125)) {
        child = true;
        CHECK(hsml[c] == doctest::Approx(0.25));
        CHECK(mass[c] == doctest::Approx(2.0 / 512));
      }
      covered = covered || at(0.625, 0.125, 0.375);
    }
    CHECK(root);
    CHECK(child);
    CHECK_FALSE(covered);
    // Particles by particle_type, their masses the file's densities times their grid's cell volume.
    CHECK(s.types[1].count == 3);
    CHECK(s.types[2].count == 1);
    CHECK(s.types[4].count == 1);
    CHECK(s.types[1].ids == std::vector<std::uint64_t>{10, 12, 21});
    const auto& dm_mass = testing::column(s.types[1], "MASS").values;
    CHECK(dm_mass[0] == doctest::Approx(0.5 / 64));
    CHECK(dm_mass[2] == doctest::Approx(8.0 / 512));
    CHECK(testing::column(s.types[4], "particle_position_x").values[0] == doctest::Approx(0.6));
    CHECK(s.units.code == "Enzo");
    CHECK(s.units.length_cm == doctest::Approx(3.0857e21));
    CHECK(s.units.mass_g == doctest::Approx(1e-24 * std::pow(3.0857e21, 3)));
    CHECK(s.time == doctest::Approx(2.5));
    CHECK(s.box_size == doctest::Approx(1.0));
    CHECK(s.redshift < 0);

    // Through the common request: the gas coloured by density, sized by its cells; the stars.
    RenderTypeRequest r;
    r.file_type = 0;
    r.size_fix = 0;
    r.size.label = "HSML";
    r.colour.label = "Density";
    r.intensity.label = "column_density";
    RenderTypeRequest st;
    st.file_type = 2;
    st.size_fix = 0.05f;
    st.intensity.label = "MASS";
    SnapshotRequest in;
    in.format = SnapshotFormat::enzo;
    in.typed.files = {out};
    in.typed.types = {r, st};
    const ParticleSet p = read_snapshot(in);
    REQUIRE(p.size() == 121);
    CHECK(p.type_of(120) == 1);
    CHECK(p.intensity[120] == doctest::Approx(0.5 / 64));
    // MPI shares: whole grids of about equal work, together the whole.
    std::size_t shared = 0;
    for (int part = 0; part < 2; ++part) {
      in.typed.share = ReadShare(part, 2);
      shared += read_snapshot(in).size();
    }
    CHECK(shared == 121);
    const SnapshotSurvey survey = survey_snapshot(SnapshotFormat::enzo, {out});
    CHECK(survey.type(0)->cell_sizes);
    CHECK(survey.type(0)->brightness == "mass_over_h");
    CHECK(survey.type(0)->density == "Density");
    CHECK(survey.main_type()->file_type == 0);
  }
}

TEST_CASE("enzo: a data file that is not the output's, or missing, is an error naming it") {
  TempDir dir;
  const std::string out = write_output(dir, Variant{});
  ColumnWanted all;
  all.all = true;
  ::unlink((out + "/DD0003.cpu0001").c_str());
  CHECK_THROWS_WITH_AS(load_enzo(out, all), doctest::Contains("DD0003.cpu0001"), UserError);
  // A grid of other dimensions than the hierarchy's.
  std::string h = hierarchy(Variant{});
  h.replace(h.find("GridEndIndex      = 6 6 6"), 25, "GridEndIndex      = 6 6 5");
  testing::write_file(out + "/DD0003.hierarchy", h);
  write_output(dir, Variant{});
  testing::write_file(out + "/DD0003.hierarchy", h);
  CHECK_THROWS_WITH_AS(load_enzo(out, all), doctest::Contains("the data file is not this output's"), UserError);
}

TEST_CASE("enzo: bin/splotch draws an output from its directory alone, --info lists it, simtype = 3 reads it") {
  TempDir dir;
  const std::string out = write_output(dir, Variant{});
  const testing::CommandResult r =
      testing::run_command("cd " + dir.path() + " && " + splotch_bin() + " " + out + " xres=32");
  CHECK(r.status == 0);
  CHECK(contains(r.err + r.out, "120 read"));
  struct stat st;
  CHECK(::stat(dir.path("DD0003.png").c_str(), &st) == 0);
  const testing::CommandResult info = testing::run_command(splotch_bin() + " --info " + out + "/DD0003");
  CHECK(info.status == 0);
  CHECK(contains(info.out, "Enzo output DD0003 (2 grids, levels 0 to 1, 3-D, 2 data files)"));
  CHECK(contains(info.out, "type 4 (must-refine particles): 1 particles"));
  const testing::CommandResult init = testing::run_command(splotch_bin() + " --init " + out);
  CHECK(init.status == 0);
  CHECK(contains(init.out, "simtype = 3"));
  testing::write_file(dir.path("enzo.par"),
                      "simtype = 3\ninfile = DD0003/DD0003.hierarchy\nxres = 16\n"
                      "ptypes = 2\nptype0 = 0\nptype1 = 1\nsize_fix1 = 0.05\npalette0 = fire\npalette1 = ice\n"
                      "color_label0 = Temperature\noutfile = enzo.png\n");
  const testing::CommandResult no_field =
      testing::run_command("cd " + dir.path() + " && " + splotch_bin() + " enzo.par");
  CHECK(no_field.status == 0);  // (a field the output lacks: a warning naming it and the fields there are)
  CHECK(contains(no_field.err, "has no field 'Temperature' for type 0 (gas (leaf cells))"));
  CHECK(contains(no_field.err, "TotalEnergy"));
  testing::write_file(dir.path("enzo.par"),
                      "simtype = 3\ninfile = DD0003/DD0003.hierarchy\nxres = 16\n"
                      "ptypes = 2\nptype0 = 0\nptype1 = 1\nsize_fix1 = 0.05\npalette0 = fire\npalette1 = ice\n"
                      "color_label0 = TotalEnergy\noutfile = enzo.png\n");
  const testing::CommandResult par = testing::run_command("cd " + dir.path() + " && " + splotch_bin() + " enzo.par");
  CHECK(par.status == 0);
  CHECK(contains(par.err + par.out, "123 read"));
}

#endif  // SPLOTCH_HDF5

TEST_CASE("enzo: the hierarchy's tree, levels and leaf cells without the data files; damaged text named by line") {
  TempDir dir;
  const std::string out = dir.path("DD0003");
  ::mkdir(out.c_str(), 0755);
  testing::write_file(out + "/DD0003", parameters);
  testing::write_file(out + "/DD0003.hierarchy", hierarchy(Variant{}));
  const EnzoRun run = open_enzo_run(out + "/DD0003.hierarchy");
  CHECK(run.name == "DD0003");
  CHECK(run.rank == 3);
  CHECK(run.periodic);
  CHECK(run.max_level() == 1);
  CHECK(run.grids[1].width(0) == doctest::Approx(0.125));
  CHECK(run.grids[0].volume() == doctest::Approx(1.0 / 64));
  CHECK(run.star_particles == 1);
  const std::vector<std::uint8_t> covered = covered_cells(run, run.grids[0]);
  CHECK(std::count(covered.begin(), covered.end(), std::uint8_t(1)) == 8);
  CHECK(covered[(1 * 4 + 0) * 4 + 2] == 1);  // (i, j, k) = (2, 0, 1)
  CHECK(covered[(1 * 4 + 0) * 4 + 1] == 0);
  CHECK(enzo_leaf_cells(run) == 120);
  CHECK(run.data_path("./DD0003/DD0003.cpu0000") == out + "/DD0003.cpu0000");
  // Cosmological units, as Enzo's CosmologyGetUnits makes them (proper at the output's redshift).
  testing::write_file(out + "/DD0003", std::string(parameters) +
                                           "ComovingCoordinates = 1\nCosmologyCurrentRedshift = 1\n"
                                           "CosmologyHubbleConstantNow = 0.7\nCosmologyOmegaMatterNow = 0.3\n"
                                           "CosmologyComovingBoxSize = 10\nCosmologyInitialRedshift = 99\n");
  const EnzoRun cosmic = open_enzo_run(out);
  CHECK(cosmic.cosmological);
  CHECK(cosmic.length_cm == doctest::Approx(3.085678e24 * 10 / 0.7 / 2));
  CHECK(cosmic.mass_g == doctest::Approx(1.8788e-29 * 0.3 * 0.49 * 8 * std::pow(3.085678e24 * 10 / 0.7 / 2, 3)));
  // Not Enzo's, or damaged.
  testing::write_file(out + "/DD0003", "a = 1\n");
  CHECK_FALSE(is_enzo_output(out));
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("is not an Enzo output's parameter file"), UserError);
  testing::write_file(out + "/DD0003", parameters);
  testing::write_file(out + "/DD0003.hierarchy", "Grid = 1\nGridRank = 3\nPointer: Grid[1]->Sideways\n");
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("DD0003.hierarchy', line 3"), UserError);
  testing::write_file(out + "/DD0003.hierarchy", "Grid = 1\nGridRank = 3\nGridDimension = 4 4\n");
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("line 3"), UserError);
  // Sizes no grid has (they would overflow the count of cells), numbers beyond any int.
  std::string huge = hierarchy(Variant{});
  huge.replace(huge.find("GridDimension     = 10 10 10"), 28, "GridDimension     = 16777230 16777230 70000");
  huge.replace(huge.find("GridEndIndex      = 6 6 6"), 25, "GridEndIndex      = 16777218 16777218 65538");
  testing::write_file(out + "/DD0003.hierarchy", huge);
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("do not make a grid"), UserError);
  std::string far = hierarchy(Variant{});
  far.replace(far.find("GridDimension     = 10 10 10"), 28, "GridDimension     = 1e30 10 10");
  testing::write_file(out + "/DD0003.hierarchy", far);
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("not a grid's index or size"), UserError);
  testing::write_file(out + "/DD0003.hierarchy", "nothing\n");
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("holds no \"Grid = \" block"), UserError);
  ::unlink((out + "/DD0003.hierarchy").c_str());
  CHECK_FALSE(is_enzo_output(out));
  CHECK_THROWS_WITH_AS(open_enzo_run(out), doctest::Contains("no NAME.hierarchy beside it"), UserError);
}

}  // namespace
}  // namespace splotch
