// The original Splotch's own parameter files (../shared/data/splotch_parameterfiles/) run as they
// are, with only `infile` (and `numfiles`, and a smoothing length where the snapshot lacks the
// block) pointed at the real snapshots of ../shared/data: each point of the compatibility issue
// (XXXX labels, missing colour fields, *_present = 0, swap_endian as a first guess, the colour bar,
// AnalyzeSimulationOnly, the palette image, the data ranges, every problem in one run).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "io/image_reader.h"
#include "io/palette.h"
#include "splotch/util/file_paths.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

// The original's files and the real snapshots, as absolute paths (runs go in their own
// directories); "" when ../shared/data is not beside this checkout, which the test case then says.
std::string originals() {
  const std::string data = real_data_dir();
  if (data.empty()) MESSAGE("original parameter files skipped: ../shared/data is not beside this checkout");
  return data.empty() ? "" : absolute_path(data) + "/splotch_parameterfiles";
}
std::string snapshot(const std::string& name) { return absolute_path(real_data_dir()) + "/" + name; }

// bin/splotch run in `dir`, as a user runs it beside their pictures.
CommandResult splotch_in(const TempDir& dir, const std::string& args) {
  return run_command("cd " + dir.path() + " && " + absolute_path("bin/splotch") + " " + args);
}

// Pixels of an 8-bit image brighter than `level` in some channel.
std::size_t lit_pixels(const Image8& image, int level = 20) {
  std::size_t n = 0;
  for (std::size_t p = 0; p + 2 < image.rgb.size(); p += 3)
    if (image.rgb[p] > level || image.rgb[p + 1] > level || image.rgb[p + 2] > level) ++n;
  return n;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The two-file Gadget-2 snapshot holds no HSMS block for its stars: their smoothing length is the
// one key besides infile and numfiles that the original's Gadget files need here.
const std::string gadget_overrides = "numfiles=2 size_fix1=20 infile=";

}  // namespace

TEST_CASE("original parameter files: demo.par runs as it is (XXXX, colour label missing, *_present = 0)") {
  const std::string par = originals();
  if (par.empty()) return;
  TempDir dir;
  const CommandResult r =
      splotch_in(dir, par + "/demo.par " + gadget_overrides + snapshot("gadgetreader_test_g2_snap"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  // intensity_label1 = XXXX is absent, silently; intensity_present0 = 0 is accepted.
  CHECK(r.err.find("XXXX'") == std::string::npos);
  CHECK(r.err.find("mask") == std::string::npos);
  // color_label1 = AGE names no block of this file: one warning naming the blocks, then colour 1.
  CHECK(count(r.err, "has no block 'AGE' (color_label1)") == 1);
  CHECK(r.err.find("its blocks are: POS, VEL, ID, MASS, U, RHO") != std::string::npos);
  CHECK(r.err.find("type 1 is drawn with colour 1") != std::string::npos);
  // The original's GPU keys are named as such, not as typos.
  CHECK(r.err.find("keys of the original Splotch that have no effect here (keep or remove them):\n") !=
        std::string::npos);
  CHECK(r.err.find("\n  gpu_number (" + par + "/demo.par:103): one GPU per MPI process") != std::string::npos);
  CHECK(r.err.find("snapshot_spacing (" + par +
                   "/demo.par:14): used with interpolation_mode and a fractional fidx only") != std::string::npos);
  CHECK(r.err.find("(typos?)") == std::string::npos);
  // outfile = demo, pictype = 0: demo0000.tga, as the original names it.
  const Image8 image = read_image(dir.path("demo0000.tga"));
  CHECK(image.width == 800);
  CHECK(image.height == 800);
  CHECK(lit_pixels(image) > 1000);  // the gas of the box, not a black picture
  // The data ranges, per type, in the report and as keys to copy in used.par (log10 of U).
  CHECK(r.out.find("type 0 (file type 0): colour 2.29") != std::string::npos);
  CHECK(r.out.find("(log10) in the data, used 0.152815 to 6.29244; intensity 2.5") != std::string::npos);
  // demo.par gives intensity_min0/max0 as logs but no intensity_log0: every intensity is clamped to
  // the top (as in the original), and the report says so.
  CHECK(r.out.find("in the data, used -11.8784 to -1.44456 (the data lie at or beyond one end of the range used: "
                   "every value takes its top)") != std::string::npos);
  CHECK(r.out.find("type 1 (file type 4): colour") != std::string::npos);
  const std::string used = read_file(dir.path("demo0000.tga.used.par"));
  CHECK(used.find("#   color_min0 = 2.29") != std::string::npos);
  CHECK(used.find("#   intensity_max0 = 1.289") != std::string::npos);
}

TEST_CASE("original parameter files: sample.par and g51.par, swap_endian = TRUE on a little-endian Gadget file") {
  const std::string par = originals();
  if (par.empty()) return;
  for (const auto& [file, image, side] :
       {std::tuple{"sample.par", "CUDA2Cards.tga", 1024}, std::tuple{"g51.par", "Ersol-result.tga", 800}}) {
    INFO(file);
    TempDir dir;
    const CommandResult r =
        splotch_in(dir, par + "/" + file + " " + gadget_overrides + snapshot("gadgetreader_test_g2_snap"));
    INFO(r.err);
    REQUIRE(r.status == 0);
    // The file's own record markers decide; the report notes the guess that was wrong, once.
    // (a GPU machine's choice aside, and the smoothing lengths' line, which every typed snapshot has)
    CHECK(count(r.out, "note: ") - count(r.out, "note: renderer = auto") == 2);
    CHECK(count(r.out, "note: smoothing lengths: ptype0 = 0 (gas): the file's HSML (size_fix0 = 0)") == 1);
    CHECK(r.out.find("swap_endian = TRUE is only a first guess for Gadget files: '" +
                     snapshot("gadgetreader_test_g2_snap.0") + "' is little-endian") != std::string::npos);
    const Image8 picture = read_image(dir.path(image));
    CHECK(picture.width == side);
    CHECK(lit_pixels(picture) > 100);
  }
  // The original's numfiles = 1 on the first file of two: a warning that half is read; on the base
  // name: where the files are; a smoothing-length block the file lacks: what to give instead.
  {
    TempDir dir;
    const CommandResult half =
        splotch_in(dir, par + "/sample.par size_fix1=20 infile=" + snapshot("gadgetreader_test_g2_snap.0"));
    CHECK(half.status == 0);
    CHECK(half.err.find("sample.par:11: numfiles = 1, but the header of '" + snapshot("gadgetreader_test_g2_snap.0") +
                        "' says the snapshot has 2 files: only this one is read") != std::string::npos);
    const CommandResult base =
        splotch_in(dir, par + "/sample.par size_fix1=20 infile=" + snapshot("gadgetreader_test_g2_snap"));
    CHECK(base.status == 1);
    CHECK(base.err.find(snapshot("gadgetreader_test_g2_snap.0") + " exists: for a snapshot in several files leave "
                                                                  "numfiles out (or give their count)") !=
          std::string::npos);
    const CommandResult hsms =
        splotch_in(dir, par + "/sample.par numfiles=2 infile=" + snapshot("gadgetreader_test_g2_snap"));
    CHECK(hsms.status == 1);
    CHECK(hsms.err.find("has no block 'HSMS' (size_label1) for its 39 particles of type 4") != std::string::npos);
    CHECK(hsms.err.find("; give type 1 one smoothing length with size_fix1 > 0, or estimate them with size_estimate1 = "
                        "knn\n") != std::string::npos);
    const CommandResult vel =
        splotch_in(dir, par + "/sample.par numfiles=2 size_fix1=20 color_label0=VEL color_present0=0 infile=" +
                            snapshot("gadgetreader_test_g2_snap"));
    CHECK(vel.status == 1);
    CHECK(vel.err.find("block VEL (color_label0) holds 3 values per particle where one is needed; for vector colours "
                       "give color_is_vector0 = TRUE") != std::string::npos);
  }
  // A guess that was right is not noted.
  TempDir dir;
  const CommandResult r = splotch_in(
      dir, par + "/sample.par swap_endian=FALSE " + gadget_overrides + snapshot("gadgetreader_test_g2_snap"));
  CHECK(r.status == 0);
  CHECK(count(r.out, "note: ") == count(r.out, "note: renderer = auto") + count(r.out, "note: smoothing lengths: "));
}

TEST_CASE(
    "original parameter files: explore_simulation.par (ptypes = 0, AnalyzeSimulationOnly) prints what --info prints") {
  const std::string par = originals();
  if (par.empty()) return;
  TempDir dir;
  const std::string snap = snapshot("gadgetreader_test_g2_snap");
  const CommandResult r = splotch_in(dir, par + "/explore_simulation.par infile=" + snap);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("AnalyzeSimulationOnly = TRUE: what the snapshot holds (nothing is rendered") != std::string::npos);
  const CommandResult info = splotch_in(dir, "--info " + snap + ".0");
  CHECK(info.status == 0);
  // The same lines as --info on the file (after the first line, which names where they came from).
  CHECK(r.out.find(info.out) != std::string::npos);
  CHECK(r.out.find("type 4: 57 particles") != std::string::npos);
  CHECK(run_command("ls " + dir.path()).out.empty());  // no image
  // ptypes = 0 alone does the same.
  TempDir other;
  const std::string alone = other.write("zero.par", "simtype = 2\ninfile = " + snap + "\nptypes = 0\n");
  const CommandResult z = splotch_in(other, alone);
  CHECK(z.status == 0);
  CHECK(z.out.find("ptypes = 0: what the snapshot holds") != std::string::npos);
  CHECK(z.out.find("type 1: 4096 particles") != std::string::npos);
}

TEST_CASE("original parameter files: show_palette.par (simtype = -1) writes the palette as the whole image") {
  const std::string par = originals();
  if (par.empty()) return;
  TempDir dir;
  const CommandResult r = splotch_in(dir, par + "/show_palette.par");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const Image8 image = read_image(dir.path("Tipsy.tga"));
  REQUIRE(image.width == 600);
  REQUIRE(image.height == 10);
  const Palette palette = Palette::read(par + "/palettes/Tipsy.pal");
  auto level = [](float v) { return int(std::min(255.0f, std::max(0.0f, 256.0f * v))); };
  int wrong = 0;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 600; ++x) {
      const Rgb c = palette.at(float(x) / 600.0f);
      const unsigned char* px = &image.rgb[3 * (std::size_t(y) * 600 + std::size_t(x))];
      if (std::abs(px[0] - level(c.r)) > 1 || std::abs(px[1] - level(c.g)) > 1 || std::abs(px[2] - level(c.b)) > 1)
        ++wrong;
    }
  CHECK(wrong == 0);
  CHECK(lit_pixels(image) > 300);  // the palette is not black
}

TEST_CASE("original parameter files: server_default.par asks for the server, and names what it lacks: a snapshot") {
  const std::string par = originals();
  if (par.empty()) return;
  TempDir dir;
  // server = TRUE starts the server (bin/splotch --serve), which reads the snapshot first; the
  // original's server file names none.
  const CommandResult r = splotch_in(dir, par + "/server_default.par");
  CHECK(r.status == 1);
  CHECK(r.err == "splotch: error: " + par + "/server_default.par: required parameter 'simtype' is missing\n");
  CHECK(r.out.find("serving") == std::string::npos);
}

TEST_CASE("bin/splotch: one run lists every problem of a parameter file, each with its file, line, key and value") {
  TempDir dir;
  const std::string par =
      dir.write("bad.par",
                "simtype = 0\ninfile = nowhere.bin\nnum_blocks = 3\nx = 1\ny = 2\nz = 3\n"
                "palette0 = testdata/palettes/fire.pal\n"
                "camera_x = 0\ncamera_y = 1\ncamera_z = 0\nlookat_x = 0\nlookat_y = 0\nlookat_z = 0\n"
                "xres = many\n"                     // line 14
                "fov = 200\n"                       // 15
                "sort_type = 9\n"                   // 16
                "a_eq_e = perhaps\n"                // 17
                "color_min0 = 2\ncolor_max0 = 1\n"  // 18, 19
                "outfile = " +
                    dir.path("x.png") + "\n");
  const CommandResult r = run_command("bin/splotch " + par);
  CHECK(r.status == 1);
  INFO(r.err);
  CHECK(r.err.rfind("splotch: error: 5 problems with the parameters of " + par + ":\n  " + par + ":14: xres", 0) ==
        0);  // in the file's order
  CHECK(r.err.find("\n  " + par + ":14: xres = 'many' is not an integer\n") != std::string::npos);
  CHECK(r.err.find("\n  " + par + ":15: fov = 200 must lie strictly between 0 and 180 degrees\n") != std::string::npos);
  CHECK(r.err.find("\n  " + par + ":16: sort_type = 9 is not one of") != std::string::npos);
  CHECK(r.err.find("\n  " + par + ":17: a_eq_e = 'perhaps' is not a boolean") != std::string::npos);
  CHECK(r.err.find("\n  " + par + ":18: color_min0 is larger than color_max0\n") != std::string::npos);
  CHECK(r.err.find(":16: sort_type") < r.err.find(":17: a_eq_e"));
  CHECK(r.err.find("nowhere.bin") == std::string::npos);  // nothing is read while the keys are wrong
  CHECK(!file_exists(dir.path("x.png")));
}

#ifdef SPLOTCH_HDF5
#include "tests/support/hdf5_test_file.h"

namespace {

// A semi-analytic galaxy catalogue as SAGE writes it: one compound dataset `galaxies` of rows
// (position_x/y/z, velocity_x, snapshot), the galaxies of snapshots 11 and 12 in one table.
// Snapshot 12 holds the rows of even index; their positions fill [0, 500]^3 but for one corner.
struct Galaxy {
  float position_x, position_y, position_z, velocity_x;
  int snapshot;
};

std::vector<Galaxy> catalogue(int rows) {
  std::vector<Galaxy> g;
  for (int i = 0; i < rows; ++i) {
    const float u = float((i * 37) % 101) / 100.0f, v = float((i * 53) % 103) / 102.0f,
                w = float((i * 71) % 107) / 106.0f;
    g.push_back({500 * u, 480 * v + 10, 400 * w + 50, std::pow(10.0f, 1.0f + 4.0f * u * v), i % 2 == 0 ? 12 : 11});
  }
  return g;
}

void write_catalogue(const std::string& path, const std::vector<Galaxy>& rows) {
  write_compound_table(path, "galaxies", rows,
                       {{"position_x", HOFFSET(Galaxy, position_x), H5T_NATIVE_FLOAT},
                        {"position_y", HOFFSET(Galaxy, position_y), H5T_NATIVE_FLOAT},
                        {"position_z", HOFFSET(Galaxy, position_z), H5T_NATIVE_FLOAT},
                        {"velocity_x", HOFFSET(Galaxy, velocity_x), H5T_NATIVE_FLOAT},
                        {"snapshot", HOFFSET(Galaxy, snapshot), H5T_NATIVE_INT}});
}

}  // namespace

TEST_CASE(
    "original parameter files: HDF5_Compound.par (simtype 7 compound table, one snapshot, camera from the data)") {
  const std::string par = originals();
  if (par.empty()) return;
  TempDir dir;
  write_catalogue(dir.path("sage.h5"), catalogue(2000));
  const CommandResult r = splotch_in(dir, par + "/HDF5_Compound.par infile=sage.h5");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // The rows of snapshotID = 12 only, every one in view of the camera placed from their box.
  CHECK(r.out.find("particles  1000 read, 0 dropped as invalid, 1000 in view") != std::string::npos);
  CHECK(r.out.find("note: no camera given: placed to frame the particles, face = FRONT: camera (") !=
        std::string::npos);
  const Image8 image = read_image(dir.path("sage_autocamera_front_180000.tga"));
  CHECK(lit_pixels(image) > 500);
  // The camera is in the record; the record renders the same picture.
  const std::string used = read_file(dir.path("sage_autocamera_front_180000.tga.used.par"));
  CHECK(used.find("camera_y = ") != std::string::npos);
  CHECK(used.find("  # placed from the data (face = FRONT)") != std::string::npos);
  const std::string first = read_file(dir.path("sage_autocamera_front_180000.tga"));
  std::remove(dir.path("sage_autocamera_front_180000.tga").c_str());
  TempDir elsewhere;
  const CommandResult again = splotch_in(elsewhere, dir.path("sage_autocamera_front_180000.tga.used.par"));
  CHECK(again.status == 0);
  CHECK(again.err.find("face") == std::string::npos);  // the record gives the camera, not the face
  CHECK(read_file(dir.path("sage_autocamera_front_180000.tga")) == first);
  // The other faces see the same galaxies, each from its own side.
  for (const char* face : {"BACK", "LEFT", "RIGHT", "TOP", "BOTTOM"}) {
    INFO(face);
    const CommandResult f =
        splotch_in(dir, par + "/HDF5_Compound.par infile=sage.h5 outfile=" + face + ".png face=" + face);
    CHECK(f.status == 0);
    CHECK(f.out.find("1000 read, 0 dropped as invalid, 1000 in view") != std::string::npos);
    CHECK(lit_pixels(read_image(dir.path(std::string(face) + ".png"))) > 500);
  }
  // print_snapIDs_in_file_ONLY lists the snapshots of the table and renders nothing.
  const CommandResult ids = splotch_in(dir, par + "/HDF5_Compound.par infile=sage.h5 print_snapIDs_in_file_ONLY=TRUE");
  CHECK(ids.status == 0);
  CHECK(ids.out.find("2 snapshots in galaxies (member snapshot)") != std::string::npos);
  CHECK(ids.out.find("  snapshot 11: 1000 rows\n  snapshot 12: 1000 rows\n") != std::string::npos);
  // A Gadget-layout file given with simtype 7 and no dataset names reads as simtype 8, with a note.
  TempDir gadget;
  const std::string g =
      gadget.write("g.par", "simtype = 7\ninfile = " + snapshot("gadget4_lcdm_gas_snapshot_000.hdf5") +
                                "\nsize_fix0 = 0\npalette0 = " + absolute_path("testdata/palettes/fire.pal") +
                                "\nxres = 64\noutfile = g.png\n");
  const CommandResult as8 = splotch_in(gadget, g);
  CHECK(as8.status == 0);
  CHECK(as8.out.find("simtype = 7 with no dataset names (x, y, z): '" + snapshot("gadget4_lcdm_gas_snapshot_000.hdf5") +
                     "' is a Gadget-layout HDF5 snapshot and was read as simtype = 8 reads it") != std::string::npos);
  CHECK(as8.out.find("32768 read") != std::string::npos);
}

#endif
