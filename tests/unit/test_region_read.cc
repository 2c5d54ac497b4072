// Region reads (io/read_region.h, io/swift_cells.h, the HDF5 reader; splotch/stages/view_region.h):
// a SWIFT snapshot the test writes with its /Cells group, read by a region of planes, wrapped about
// a centre, with kernels' reach, and whole where a smoothing length breaks the cells' bound; a
// picture of a given camera identical with and without the region read.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/hdf5_reader.h"
#include "io/read_region.h"
#include "splotch/stages/view_region.h"
#include "tests/support/test_support.h"

#ifdef SPLOTCH_HDF5
#include <hdf5.h>
#endif

namespace splotch {
namespace {

using testing::TempDir;

TEST_CASE("view region: the frustum of a camera, its depth slab, the kernels' reach") {
  Camera c;
  c.position = {0, -10, 0};
  c.lookat = {0, 0, 0};
  c.center = c.position;
  c.fov_degrees = 10;
  c.zmin = 5;
  c.zmax = 15;
  const std::optional<ReadRegion> r = view_region(c, {1.0f}, 1.0f, 1.0);
  REQUIRE(r);
  CHECK(r->planes.size() == 6);
  auto box = [](double x, double y, double z, double half) {
    return std::make_pair(std::array<double, 3>{x - half, y - half, z - half},
                          std::array<double, 3>{x + half, y + half, z + half});
  };
  auto reaches = [&](double x, double y, double z) {
    const auto [lo, hi] = box(x, y, z, 0.01);
    return r->reaches(lo, hi, 0, 0);
  };
  CHECK(reaches(0, 0, 0));
  CHECK_FALSE(reaches(0, -6, 0));  // nearer than zmin
  CHECK_FALSE(reaches(0, 6, 0));   // beyond zmax
  CHECK_FALSE(reaches(3, 0, 0));   // beyond the side: tan(5 degrees) x 10 = 0.875
  CHECK(reaches(0.8, 0, 0));
  CHECK(reaches(0, 0, -0.8));
  // A kernel reaching across the side, not across the depth's bounds.
  const auto [lo, hi] = box(1.5, 0, 0, 0.01);
  CHECK(r->reaches(lo, hi, 0, 1.0));
  const auto [near_lo, near_hi] = box(0, -5.5, 0, 0.01);
  CHECK_FALSE(r->reaches(near_lo, near_hi, 0, 1.0));
  CHECK(r->reach_per_hsml == doctest::Approx(2 * 0.75));
  // The views it does not bound: the dome, an orthographic camera, an off-centre centre.
  Camera dome = c;
  dome.dome = true;
  CHECK_FALSE(view_region(dome, {1.0f}, 1.0f, 1.0));
  Camera ortho = c;
  ortho.perspective = false;
  CHECK_FALSE(view_region(ortho, {1.0f}, 1.0f, 1.0));
}

#ifdef SPLOTCH_HDF5

template <class T>
void dataset(hid_t g, const char* name, const std::vector<T>& v, std::vector<hsize_t> dims, hid_t type) {
  const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hid_t d = H5Dcreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Dclose(d);
  H5Sclose(space);
}

template <class T>
void attribute(hid_t g, const char* name, const std::vector<T>& v, hid_t type) {
  const hsize_t n = v.size();
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t a = H5Acreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, type, v.data());
  H5Aclose(a);
  H5Sclose(space);
}

// A SWIFT snapshot in a box of side 1 with `n_cells` top-level cells along x (cubes of side
// 1 / n_cells about y = z = 0.5, all the test's particles need): ten gas particles in each, at
// x = (c + 0.5 + 0.04 (i - 5)) / n_cells, in cell order, masses 1 + 10 c + i; smoothing lengths
// 0.01 (`wide`: the first 0.5); `cells`: with the /Cells group, `wrong_counts`: whose counts do not
// add up.
std::string write_swift(const TempDir& dir, const std::string& name, bool cells, bool wide = false,
                        bool wrong_counts = false, int n_cells = 4) {
  const std::string path = dir.path(name);
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const int n = 10 * n_cells;
  const hid_t header = H5Gcreate2(f, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  attribute<double>(header, "BoxSize", {1, 1, 1}, H5T_NATIVE_DOUBLE);
  attribute<std::uint64_t>(header, "NumPart_ThisFile", {std::uint64_t(n), 0, 0, 0, 0, 0}, H5T_NATIVE_UINT64);
  attribute<std::uint64_t>(header, "NumPart_Total", {std::uint64_t(n), 0, 0, 0, 0, 0}, H5T_NATIVE_UINT64);
  attribute<double>(header, "MassTable", {0, 0, 0, 0, 0, 0}, H5T_NATIVE_DOUBLE);
  attribute<int>(header, "NumFilesPerSnapshot", {1}, H5T_NATIVE_INT);
  attribute<double>(header, "Time", {1}, H5T_NATIVE_DOUBLE);
  H5Gclose(header);
  std::vector<double> pos;
  std::vector<float> h, m;
  for (int c = 0; c < n_cells; ++c)
    for (int i = 0; i < 10; ++i) {
      pos.insert(pos.end(), {(c + 0.5 + 0.04 * (i - 5)) / n_cells, 0.5, 0.5});
      h.push_back(wide && c == 0 && i == 0 ? 0.5f : 0.01f);
      m.push_back(1.0f + float(10 * c + i));
    }
  const hid_t gas = H5Gcreate2(f, "PartType0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  dataset(gas, "Coordinates", pos, {hsize_t(n), 3}, H5T_NATIVE_DOUBLE);
  dataset(gas, "SmoothingLengths", h, {hsize_t(n)}, H5T_NATIVE_FLOAT);
  dataset(gas, "Masses", m, {hsize_t(n)}, H5T_NATIVE_FLOAT);
  H5Gclose(gas);
  if (cells) {
    const hid_t g = H5Gcreate2(f, "Cells", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t meta = H5Gcreate2(g, "Meta-data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const double side = 1.0 / n_cells;
    attribute<double>(meta, "size", {side, side, side}, H5T_NATIVE_DOUBLE);  // (the test's particles: y = z = 0.5)
    attribute<int>(meta, "dimension", {n_cells, 1, 1}, H5T_NATIVE_INT);
    H5Gclose(meta);
    std::vector<double> centres;
    std::vector<std::int64_t> counts, offsets, in_files;
    for (int c = 0; c < n_cells; ++c) {
      centres.insert(centres.end(), {(c + 0.5) * side, 0.5, 0.5});
      counts.push_back(wrong_counts && c == n_cells - 1 ? 9 : 10);
      offsets.push_back(10 * c);
      in_files.push_back(0);
    }
    dataset(g, "Centres", centres, {hsize_t(n_cells), 3}, H5T_NATIVE_DOUBLE);
    for (const char* list : {"Counts", "OffsetsInFile", "Files"}) {
      const hid_t l = H5Gcreate2(g, list, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      const std::string which = list;
      dataset(l, "PartType0",
              which == "Counts"  ? counts
              : which == "Files" ? in_files
                                 : offsets,
              {hsize_t(n_cells)}, H5T_NATIVE_INT64);
      H5Gclose(l);
    }
    H5Gclose(g);
  }
  H5Fclose(f);
  return path;
}

TypedSnapshotRequest gas_request(const std::string& path) {
  TypedSnapshotRequest o;
  o.files = {path};
  RenderTypeRequest r;
  r.file_type = 0;
  r.size_fix = 0;
  r.size.label = "SmoothingLengths";
  r.intensity.label = "Masses";
  o.types = {r};
  return o;
}

ReadRegion left_of(double x, double reach_per_hsml, bool kernels) {
  ReadRegion r;
  r.planes.push_back({{1, 0, 0}, x, kernels});
  r.reach_per_hsml = reach_per_hsml;
  r.file_types = {0};
  return r;
}

TEST_CASE("region read: the SWIFT cells that reach a region, wrapped, with kernels; whole where they cannot tell") {
  TempDir dir;
  const std::string path = write_swift(dir, "swift.hdf5", true);
  TypedSnapshotRequest o = gas_request(path);
  // x <= 0.3: the cells 0 and 1 (cell 1 from 0.25, and 0.125 of drift below it; cell 2 from 0.5),
  // and cell 3, whose particles that drift across x = 1 are written at x = 0 and after.
  o.region = left_of(0.3, 0, false);
  ParticleSet p = read_hdf5(o);
  REQUIRE(p.size() == 30);
  CHECK(p.intensity[19] == 20.0f);  // (the particles of cells 0, 1 and 3, in order)
  CHECK(p.intensity[20] == 31.0f);
  REQUIRE(p.notes.size() == 1);
  CHECK(p.notes[0].find("read by region: 30 of the 40 particles") != std::string::npos);
  CHECK(p.notes[0].find("3 of 4 SWIFT cells") != std::string::npos);
  // x >= 1.2: beyond the box, unwrapped no cell (the particles lie in the box, where SWIFT writes
  // them): none reaches, and the whole is read (for the view to say it shows nothing). Wrapped about
  // x = 0.9 (into 0.4 to 1.4), the images of cells 0 to 2 one box on (1.0 to 1.75 with their drift,
  // cut at 1.4) reach it: cell 1's particles are drawn at 1.325 to 1.415. About 3.9, three boxes
  // on, the same.
  ReadRegion beyond;
  beyond.planes.push_back({{-1, 0, 0}, -1.2, false});
  beyond.reach_per_hsml = 0;
  beyond.file_types = {0};
  o.region = beyond;
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  CHECK(p.notes.empty());
  o.region->wrap_centre = std::array<double, 3>{0.9, 0.5, 0.5};
  p = read_hdf5(o);
  REQUIRE(p.size() == 30);
  CHECK(p.intensity[15] == 16.0f);
  beyond.planes[0].offset = -4.2;
  beyond.wrap_centre = std::array<double, 3>{3.9, 0.5, 0.5};
  o.region = beyond;
  CHECK(read_hdf5(o).size() == 30);
  // Unwrapped, a cell at a face is also where its particles that drifted across it are written:
  // x <= -0.05 reaches none, x >= 0.95 cell 3 and, by its image, cell 0 (from 0.875 with drift).
  ReadRegion right;
  right.planes.push_back({{-1, 0, 0}, -0.95, false});
  right.reach_per_hsml = 0;
  right.file_types = {0};
  o.region = right;
  p = read_hdf5(o);
  REQUIRE(p.size() == 20);
  CHECK(p.intensity[0] == 1.0f);
  // Ranges from the data: read whole, saying how to read by region.
  o.region = left_of(0.3, 0, false);
  o.region->ranges_given = false;
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  REQUIRE(p.notes.size() == 1);
  CHECK(p.notes[0].find("give color_minN, color_maxN, intensity_minN and intensity_maxN") != std::string::npos);
  // Kernels reaching a cell's side per smoothing length across the plane: cell 2 too, all of them.
  o.region = left_of(0.3, 1.0, true);
  CHECK(read_hdf5(o).size() == 40);
  CHECK(read_hdf5(o).notes.empty());
  // A region every cell reaches: the whole, without a note.
  o.region = left_of(2.0, 0, false);
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  CHECK(p.notes.empty());
  // A smoothing length wider than a cell breaks the bound the cells were chosen by: read whole.
  o = gas_request(write_swift(dir, "wide.hdf5", true, true));
  o.region = left_of(0.3, 0, false);
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  REQUIRE(p.notes.size() == 1);
  CHECK(p.notes[0].find("read whole: a smoothing length of 0.5 is wider than a SWIFT cell (0.25)") !=
        std::string::npos);
  // No cells: the whole, silently; cells that do not add up: the whole, said.
  o = gas_request(write_swift(dir, "plain.hdf5", false));
  o.region = left_of(0.3, 0, false);
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  CHECK(p.notes.empty());
  o = gas_request(write_swift(dir, "wrong.hdf5", true, false, true));
  o.region = left_of(0.3, 0, false);
  p = read_hdf5(o);
  CHECK(p.size() == 40);
  REQUIRE(p.notes.size() == 1);
  CHECK(p.notes[0].find("its cells hold 39 particles of PartType0 and its headers 40") != std::string::npos);
  // A type the region does not apply to is read whole.
  o = gas_request(path);
  o.region = left_of(0.3, 0, false);
  o.region->file_types = {1};
  CHECK(read_hdf5(o).size() == 40);
}

TEST_CASE("region read: a given camera's picture is the same read by region as read whole") {
  TempDir dir;
  // 8 cells of 0.125: a view about x = 0.1 reaches cells 0 to 3 (with the splats' reach, 1.5 x 0.125,
  // and the drift) and cell 7 by the face at x = 0: 50 of the 80 particles.
  const std::string path = write_swift(dir, "swift.hdf5", true, false, false, 8);
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string bin = std::string(here) + "/bin/splotch";
  const std::string par =
      dir.write("view.par", "simtype = 8\ninfile = " + path +
                                "\nsize_label0 = SmoothingLengths\nsize_fix0 = 0\nintensity_label0 = Masses\n"
                                "intensity_min0 = 0\nintensity_max0 = 80\ncolor_label0 = Masses\ncolor_min0 = 0\n"
                                "color_max0 = 80\npalette0 = fire\ncamera_x = 0.1\ncamera_y = -1\ncamera_z = 0.5\n"
                                "lookat_x = 0.1\nlookat_y = 0.5\nlookat_z = 0.5\nfov = 4\nexposure = 1\n"
                                "xres = 64\nyres = 64\nperiodic = FALSE\n");
  const testing::CommandResult region =
      testing::run_command("cd " + dir.path() + " && " + bin + " view.par outfile=region.png");
  const testing::CommandResult whole =
      testing::run_command("cd " + dir.path() + " && " + bin + " view.par outfile=whole.png read_region=FALSE");
  REQUIRE(region.status == 0);
  REQUIRE(whole.status == 0);
  CHECK((region.err + region.out).find("read by region") != std::string::npos);
  CHECK((whole.err + whole.out).find("read by region") == std::string::npos);
  CHECK((region.err + region.out).find("particles  50 read") != std::string::npos);
  CHECK((whole.err + whole.out).find("particles  80 read") != std::string::npos);
  CHECK(testing::read_file(dir.path("region.png")) == testing::read_file(dir.path("whole.png")));
  // Without the ranges (from the data, which a region would change): read whole, the same picture.
  std::string text = testing::read_file(par);
  for (const char* key : {"intensity_min0 = 0\n", "intensity_max0 = 80\n", "color_min0 = 0\n", "color_max0 = 80\n"})
    text.erase(text.find(key), std::string(key).size());
  dir.write("view.par", text);
  const testing::CommandResult ranged =
      testing::run_command("cd " + dir.path() + " && " + bin + " view.par outfile=data.png");
  const testing::CommandResult ranged_whole =
      testing::run_command("cd " + dir.path() + " && " + bin + " view.par outfile=data_whole.png read_region=FALSE");
  REQUIRE(ranged.status == 0);
  CHECK((ranged.err + ranged.out).find("particles  80 read") != std::string::npos);
  CHECK((ranged.err + ranged.out).find("the colour or intensity ranges come from the data") != std::string::npos);
  CHECK(testing::read_file(dir.path("data.png")) == testing::read_file(dir.path("data_whole.png")));
}

#endif  // SPLOTCH_HDF5

}  // namespace
}  // namespace splotch
