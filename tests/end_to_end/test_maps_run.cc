// bin/splotch's quantitative maps (docs/maps.md) on the real snapshots of ../shared/data: what a
// column keeps (the mass of a periodic box, seen along an axis and rotated, at several
// resolutions), what a slice and an average give against the file's own values, the data files,
// and the errors a map's keys can meet.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/hdf5_file.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

const std::string splotch_binary = "bin/splotch";

double sum(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += double(x);
  return s;
}

CommandResult run_par(const TempDir& dir, const std::string& par) {
  const std::string file = dir.write("map.par", par);
  return run_command(splotch_binary + " " + file);
}

std::string gadget4_map(const std::string& data, const std::string& view, int side, double width,
                        const std::string& out) {
  return "simtype = 8\ninfile = " + data + "/gadget4_lcdm_gas_snapshot_000.hdf5\nptypes = 1\nptype0 = 0\n" +
         "map = column\nmap_units = code\nxres = " + std::to_string(side) + "\nyres = " + std::to_string(side) +
         "\nmap_width = " + std::to_string(width) + "\nlookat_x = 25000\nlookat_y = 25000\nlookat_z = 25000\n" + view +
         "outfile = " + out + "\n";
}

}  // namespace

TEST_CASE("maps: a column of a periodic box seen whole keeps its mass, along an axis and rotated") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot map test skipped: ../shared/data is not beside this checkout");
    return;
  }
  const Hdf5File file(data + "/gadget4_lcdm_gas_snapshot_000.hdf5");
  const double mass = double(file.header().count(0)) * file.header().mass_of(0), box = file.header().box_size;
  REQUIRE(box == 50000);
  const std::string along_z =
      "camera_x = 25000\ncamera_y = 25000\ncamera_z = 125000\nsky_x = 0\nsky_y = 1\nsky_z = 0\n";
  const std::string rotated = "camera_x = 85000\ncamera_y = 65000\ncamera_z = 45000\nsky_x = 0\nsky_y = 0\nsky_z = 1\n";
  TempDir dir;
  for (int side : {16, 64, 256}) {
    for (const auto& [view, width] : {std::pair{along_z, box}, std::pair{rotated, 2 * box}}) {
      const std::string out = dir.path("column.npy");
      const CommandResult r = run_par(dir, gadget4_map(data, view, side, width, out));
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const std::vector<float> map = read_npy(out);
      REQUIRE(map.size() == std::size_t(side) * std::size_t(side));
      const double pixel = width / side;
      CAPTURE(side);
      CAPTURE(width);
      CHECK(std::fabs(sum(map) * pixel * pixel / mass - 1) < 1e-5);
    }
  }
}

TEST_CASE("maps: a slice of a glass gives its density, an average lies within the values it averages") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot map test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  {
    const std::string path = data + "/swift_sodshock3d_glass_002.hdf5";
    const Hdf5File file(path);
    const ParticleArray<float> rho = file.read_field(0, *file.find(0, "Density"), 0);
    double mean = 0;
    for (float v : rho) mean += double(v) / double(rho.size());
    const std::string out = dir.path("slice.npy");
    const CommandResult r = run_par(dir, "simtype = 8\ninfile = " + path +
                                             "\nptypes = 1\nptype0 = 0\nmap = slice\nxres = 64\nyres = 64\n"
                                             "map_width = 0.9\noutfile = " +
                                             out + "\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    std::vector<float> map = read_npy(out);
    std::nth_element(map.begin(), map.begin() + std::ptrdiff_t(map.size() / 2), map.end());
    CHECK(map[map.size() / 2] == doctest::Approx(mean).epsilon(0.01));
  }
  {
    const std::string path = data + "/gadget4_lcdm_gas_snapshot_000.hdf5";
    const Hdf5File file(path);
    const ParticleArray<float> rho = file.read_field(0, *file.find(0, "Density"), 0);
    const auto [lo, hi] = std::minmax_element(rho.begin(), rho.end());
    const std::string out = dir.path("average.npy");
    const CommandResult r = run_par(dir, gadget4_map(data,
                                                     "camera_x = 25000\ncamera_y = 25000\ncamera_z = 125000\n"
                                                     "sky_x = 0\nsky_y = 1\nsky_z = 0\n",
                                                     32, 50000, out) +
                                             "map = average\nmap_quantity0 = Density\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::vector<float> map = read_npy(out);
    for (float v : map) REQUIRE((v >= *lo * 0.9999f && v <= *hi * 1.0001f));
  }
}

TEST_CASE("maps: a FITS map names its unit and axes; the keys' errors say what to do") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot map test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  const std::string along_z =
      "camera_x = 25000\ncamera_y = 25000\ncamera_z = 125000\nsky_x = 0\nsky_y = 1\nsky_z = 0\n";
  const std::string base = gadget4_map(data, along_z, 32, 50000, dir.path("m.fits")) + "map_units = physical\n";
  const CommandResult r = run_par(dir, base);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const std::string header = read_file(dir.path("m.fits")).substr(0, 2880 * 3);
  // BUNIT in the FITS standard's syntax (astropy's Unit(..., format="fits") reads it), the words
  // beside it, and how comoving lengths and 1/h were taken out.
  CHECK(header.find("BUNIT   = 'solMass kpc-2'") != std::string::npos);
  CHECK(header.find("VALUNIT = 'Msun kpc^-2'") != std::string::npos);
  CHECK(header.find("MAPUNITS= 'physical'") != std::string::npos);
  CHECK(header.find("COMOVING=                    T") != std::string::npos);
  CHECK(header.find("SCALEFAC=   1.655600262003E-01") != std::string::npos);
  CHECK(header.find("HUBBLE  =   7.000000000000E-01") != std::string::npos);
  CHECK(header.find("CUNIT1  = 'kpc     '") != std::string::npos);
  CHECK(header.find("REDSHIFT=") != std::string::npos);
  CHECK(header.find("HISTORY map = column") != std::string::npos);
  // The map's used.par draws it again (a map records projection = FALSE).
  const CommandResult again =
      run_command(splotch_binary + " " + dir.path("m.fits.used.par") + " outfile=" + dir.path("again.fits"));
  CHECK_MESSAGE(again.status == 0, again.err);
  // (the values: the last two 2880-byte blocks, 32 x 32 floats and their padding)
  const std::string first = read_file(dir.path("m.fits")), second = read_file(dir.path("again.fits"));
  REQUIRE(first.size() > 5760);
  CHECK(second.substr(second.size() - 5760) == first.substr(first.size() - 5760));
  CHECK(
      r.out.find("1 code length = 0.236514 kpc (comoving, made physical at a = 0.16556), 1/h taken out with h = 0.7") !=
      std::string::npos);
  CHECK(r.out.find("1 code mass = 1.429e+10 Msun, 1/h taken out with h = 0.7") != std::string::npos);
  CHECK(r.out.find("): colour ") == std::string::npos);  // (a map's report has no picture's ranges)
  const CommandResult info = run_command(splotch_binary + " --info " + data + "/gadget4_lcdm_gas_snapshot_000.hdf5");
  CHECK(info.out.find("units: 1 length = 3.08568e+21 cm, 1 mass = 1.989e+43 g") != std::string::npos);
  CHECK(info.out.find("h = 0.7 (lengths and masses in units/h), comoving (a = 0.16556)") != std::string::npos);
  struct Bad {
    std::string keys, says;
  };
  for (const Bad& bad :
       {Bad{"map = density\n", "is not a map: column"}, Bad{"projection = TRUE\n", "a map is orthographic"},
        Bad{"map = average\n", "map = average needs map_quantity0"},
        Bad{"map_kernel = spline\n", "is not one of cubic, quintic"},
        Bad{"map_quantity0 = Metals\n", "the map of type 0 needs it"},
        Bad{"map_widht = 10000\n", "map_widht is not a map key (did you mean map_width?)"}}) {
    const CommandResult e = run_par(dir, base + bad.keys);
    CAPTURE(bad.keys);
    CHECK(e.status != 0);
    CHECK(e.err.find(bad.says) != std::string::npos);
    if (e.err.find(bad.says) == std::string::npos) MESSAGE(e.err);
  }
  const CommandResult no_density =
      run_par(dir, "simtype = 2\ninfile = " + data + "/vaex_gassphere_littleendian.dat\nptypes = 1\nmap = slice\n" +
                       "outfile = " + dir.path("s.npy") + "\n");
  CHECK(no_density.status != 0);
  CHECK(no_density.err.find("needs the densities") != std::string::npos);
}

TEST_CASE("maps: an interpolated movie's map between two snapshots keeps the mass and lies between them") {
  TempDir dir;
  // 400 gas particles in a clump that moves +20 in x from snapshot 5 to 6 (the same IDs).
  auto snapshot = [&](double shift, const std::string& name) {
    GadgetTestFile g;
    g.npart = {400, 0, 0, 0, 0, 0};
    g.npart_total = g.npart;
    g.box_size = 100;
    GadgetTestBlock pos{"POS", {}, 4}, vel{"VEL", {}, 4}, id{"ID", {}, 4, true}, mass{"MASS", {}, 4}, u{"U", {}, 4},
        rho{"RHO", {}, 4}, hsml{"HSML", {}, 4};
    for (int i = 0; i < 400; ++i) {
      const double a = 0.37 * i, r = 0.02 * i;
      pos.values.insert(pos.values.end(), {40 + shift + r * std::cos(a), 50 + r * std::sin(a), 50 + 0.01 * i});
      vel.values.insert(vel.values.end(), {0, 0, 0});
      id.values.push_back(i + 1);
      mass.values.push_back(1.0 + 0.01 * (i % 7));
      u.values.push_back(1);
      rho.values.push_back(1);
      hsml.values.push_back(1.5 + 0.01 * (i % 13));
    }
    g.blocks = {pos, vel, id, mass, u, rho, hsml};
    g.write(dir.path(name));
  };
  snapshot(0, "move_005");
  snapshot(20, "move_006");
  const std::string par =
      "simtype = 2\ninfile = " + dir.path("move_") +
      "\nfidx = 5\nptypes = 1\nptype0 = 0\nmap = column\n"
      "map_units = code\nxres = 128\nyres = 64\nmap_width = 60\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\n"
      "camera_x = 50\ncamera_y = 50\ncamera_z = 150\nsky_x = 0\nsky_y = 1\nsky_z = 0\ninterpolation_mode = 1\n"
      "outfile = " +
      dir.path("movie.npy") + "\n";
  const std::string scene = dir.write("scene.txt", "fidx\n5\n5.5\n6\n");
  const CommandResult r = run_command(splotch_binary + " " + dir.write("movie.par", par) + " scene_file=" + scene);
  REQUIRE_MESSAGE(r.status == 0, r.out);
  double total_mass = 0;
  for (int i = 0; i < 400; ++i) total_mass += double(float(1.0 + 0.01 * (i % 7)));
  const double pixel = 60.0 / 128;
  std::vector<double> centre;
  for (int k = 0; k < 3; ++k) {
    const std::vector<float> map = read_npy(dir.path("movie000" + std::to_string(k) + ".npy"));
    REQUIRE(map.size() == 128u * 64u);
    double m = 0, mx = 0;
    for (std::size_t p = 0; p < map.size(); ++p) {
      m += double(map[p]);
      mx += double(map[p]) * (double(p % 128) + 0.5);
    }
    CAPTURE(k);
    CHECK(m * pixel * pixel == doctest::Approx(total_mass).epsilon(1e-5));
    centre.push_back(mx / m * pixel);  // the map's centroid in x, code lengths from its left edge
  }
  CHECK(centre[2] - centre[0] == doctest::Approx(20).epsilon(1e-3));
  CHECK(centre[1] == doctest::Approx(0.5 * (centre[0] + centre[2])).epsilon(1e-4));
}

TEST_CASE("maps: a raw table's map takes its fields by column number; without one each particle counts 1") {
  TempDir dir;
  // 300 particles (x, y, z, r, mass, temperature as little-endian float rows) about (5, 5, 5).
  std::string rows;
  double mass = 0;
  float t_lo = 1e30f, t_hi = 0;
  for (int i = 0; i < 300; ++i) {
    const float a = 0.37f * float(i), r = 0.01f * float(i);
    const float row[6] = {5 + r * std::cos(a),      5 + r * std::sin(a),  5 + 0.001f * float(i),
                          0.2f + 0.001f * float(i), 1 + 0.01f * float(i), 100 + float(i)};
    mass += double(row[4]);
    t_lo = std::min(t_lo, row[5]);
    t_hi = std::max(t_hi, row[5]);
    rows.append(reinterpret_cast<const char*>(row), sizeof row);
  }
  const std::string file = dir.write("table.bin", rows);
  const std::string base = "simtype = 0\ninfile = " + file +
                           "\nnum_blocks = 6\nswap_endian = FALSE\nx = 1\ny = 2\nz = 3\nr = 4\n"
                           "camera_x = 5\ncamera_y = 5\ncamera_z = 50\nlookat_x = 5\nlookat_y = 5\nlookat_z = 5\n"
                           "sky_x = 0\nsky_y = 1\nsky_z = 0\nxres = 64\nyres = 64\nmap_width = 12\n";
  const double area = (12.0 / 64) * (12.0 / 64);
  {
    const CommandResult r =
        run_par(dir, base + "map = column\nmap_quantity0 = 5\noutfile = " + dir.path("m.npy") + "\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(sum(read_npy(dir.path("m.npy"))) * area == doctest::Approx(mass).epsilon(1e-5));
    CHECK(r.out.find("column of column 5") != std::string::npos);
  }
  {
    const CommandResult r = run_par(dir, base + "map = column\noutfile = " + dir.path("n.npy") + "\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(sum(read_npy(dir.path("n.npy"))) * area == doctest::Approx(300).epsilon(1e-5));
  }
  {
    const CommandResult r =
        run_par(dir, base + "map = average\nmap_quantity0 = 6\nmap_weight0 = 5\noutfile = " + dir.path("t.npy") + "\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    int drawn = 0;
    for (float v : read_npy(dir.path("t.npy")))
      if (!std::isnan(v)) {
        ++drawn;
        INFO("an average of " << v << " against the range " << t_lo << " to " << t_hi << ", pixel " << drawn);
        REQUIRE((v >= t_lo * 0.9999f && v <= t_hi * 1.0001f));
      }
    CHECK(drawn > 100);
  }
  struct Bad {
    std::string keys, says;
  };
  for (const Bad& bad : {Bad{"map = column\nmap_quantity0 = MASS\n", "give the column's number, 1 to num_blocks = 6"},
                         Bad{"map = column\nmap_quantity0 = 7\n", "give the column's number"},
                         Bad{"map = average\n", "map = average needs map_quantity0"},
                         Bad{"map = slice\n", "map = slice needs each particle's mass and density"}}) {
    const CommandResult e = run_par(dir, base + bad.keys + "outfile = " + dir.path("bad.npy") + "\n");
    CAPTURE(bad.keys);
    CHECK(e.status != 0);
    CHECK_MESSAGE(e.err.find(bad.says) != std::string::npos, e.err);
  }
}

TEST_CASE("maps: the figure of docs/maps.md is drawn by its parameter file") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("docs/figures map test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  const Hdf5File file(data + "/gadget4_lcdm_gas_snapshot_000.hdf5");
  const double mass = double(file.header().count(0)) * file.header().mass_of(0);
  // (the snapshot named where this checkout finds it; the figure's keys otherwise as committed)
  const CommandResult r = run_command(
      splotch_binary + " docs/figures/map_gadget4_box.par infile=" + data +
      "/gadget4_lcdm_gas_snapshot_000.hdf5 xres=64 yres=64 map_units=code outfile=" + dir.path("figure.npy"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const double pixel = 50000.0 / 64;
  CHECK(sum(read_npy(dir.path("figure.npy"))) * pixel * pixel == doctest::Approx(mass).epsilon(1e-5));
}

TEST_CASE("maps: a map written as data needs no palette, so bin/splotch copied away from its checkout writes it") {
  TempDir dir;
  std::string rows;
  for (int i = 0; i < 50; ++i) {
    const float row[4] = {5 + 0.01f * float(i), 5, 5, 0.5f};
    rows.append(reinterpret_cast<const char*>(row), sizeof row);
  }
  const std::string file = dir.write("points.bin", rows);
  REQUIRE(run_command("mkdir -p " + dir.path("elsewhere") + " && cp " + splotch_binary + " " + dir.path("elsewhere"))
              .status == 0);
  const std::string par = dir.write("raw.par", "simtype = 0\ninfile = " + file +
                                                   "\nnum_blocks = 4\nswap_endian = FALSE\nx = 1\ny = 2\nz = 3\n"
                                                   "r = 4\nlookat_x = 5\nlookat_y = 5\nlookat_z = 5\ncamera_x = 5\n"
                                                   "camera_y = 5\ncamera_z = 50\nsky_x = 0\nsky_y = 1\nsky_z = 0\n"
                                                   "xres = 32\nyres = 32\nmap_width = 4\nmap = column\n");
  const std::string copy = dir.path("elsewhere") + "/splotch";
  const CommandResult data = run_command(copy + " " + par + " outfile=" + dir.path("n.npy"));
  REQUIRE_MESSAGE(data.status == 0, data.err);
  CHECK(sum(read_npy(dir.path("n.npy"))) * (4.0 / 32) * (4.0 / 32) == doctest::Approx(50).epsilon(1e-5));
  // A figure needs a palette: the project's are not beside the copy, and the error says what to give.
  const CommandResult figure = run_command(copy + " " + par + " outfile=" + dir.path("n.png"));
  CHECK(figure.status != 0);
  CHECK_MESSAGE(
      figure.err.find("are not beside this program: give palette0 = the path of a .pal file") != std::string::npos,
      figure.err);
}
