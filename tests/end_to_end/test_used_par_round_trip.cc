// <image>.used.par reproduces the picture: for every input format, a single frame and each frame
// of a 3-frame scene, rendered with relative paths in one directory and then rendered again from
// its record alone, from another working directory, gives the same bytes; and the record renders
// without a warning of its own making (pictype, numfiles).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "splotch/util/file_paths.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

#ifdef SPLOTCH_HDF5
#include <hdf5.h>
#endif

using namespace splotch;
using namespace splotch::testing;

namespace {

CommandResult splotch_in(const std::string& dir, const std::string& args) {
  return run_command("cd " + dir + " && " + absolute_path("bin/splotch") + " " + args);
}

struct Case {
  std::string name;
  std::vector<std::string> inputs;  // files linked into the run's directory under their own names
  std::string keys;                 // the input keys, naming the inputs relatively
  std::string camera;               // the camera keys ("" : placed from the data)
  std::string scene;                // the scene file: a header of keys and three rows
};

// Renders `keys` + camera in a directory of its own, with relative names, single and as a scene;
// then each image's record from elsewhere.
void check_round_trip(const Case& c, const std::string& outfile, const std::string& pictype) {
  TempDir run, elsewhere;
  for (const std::string& input : c.inputs)
    run_command("ln -s " + input + " " + run.path() + "/" + input.substr(input.rfind('/') + 1));
  run_command("cp testdata/palettes/fire.pal " + run.path());
  run.write("frames.txt", c.scene);
  const std::string par = c.keys + c.camera + "palette0 = fire.pal\nxres = 96\nyres = 72\ncolorbar = TRUE\n" +
                          "outfile = " + outfile + "\n" + pictype;
  run.write("case.par", par);
  // Without an extension of its own, the name gets the frame number and pictype's (0: .tga).
  const std::string extension = outfile.find('.') != std::string::npos   ? outfile.substr(outfile.find('.'))
                                : pictype.find("4") != std::string::npos ? ".png"
                                : pictype.find("2") != std::string::npos ? ".ppm"
                                                                         : ".tga";
  const std::string stem = outfile.substr(0, outfile.find('.'));
  struct Run {
    std::string args;
    std::vector<std::string> images;
  };
  const Run runs[] = {{"case.par", {outfile.find('.') != std::string::npos ? outfile : stem + "0000" + extension}},
                      {"case.par scene_file=frames.txt",
                       {stem + "0000" + extension, stem + "0001" + extension, stem + "0002" + extension}}};
  for (const Run& r : runs) {
    INFO(c.name << ": " << r.args);
    const CommandResult first = splotch_in(run.path(), r.args);
    INFO(first.err);
    REQUIRE(first.status == 0);
    std::vector<std::string> pictures;
    for (const std::string& image : r.images) {
      REQUIRE(file_exists(run.path(image)));
      pictures.push_back(read_file(run.path(image)));
      std::remove(run.path(image).c_str());
    }
    if (r.images.size() > 1) CHECK(pictures.front() != pictures.back());  // the frames differ
    for (std::size_t k = 0; k < r.images.size(); ++k) {
      INFO(r.images[k]);
      const std::string record = run.path(r.images[k]) + ".used.par";
      CHECK(read_file(record).find("frames.txt") == std::string::npos);  // a frame's record renders that frame
      const CommandResult again = splotch_in(elsewhere.path(), record);
      INFO(again.err);
      CHECK(again.status == 0);
      CHECK(again.err.find("pictype") == std::string::npos);
      CHECK(again.err.find("numfiles") == std::string::npos);
      REQUIRE(file_exists(run.path(r.images[k])));  // where the first run wrote it: the record's path is absolute
      CHECK(read_file(run.path(r.images[k])) == pictures[k]);
    }
    CHECK(run_command("ls " + elsewhere.path()).out.empty());
  }
}

const std::string camera_scene = "camera_x camera_y camera_z\n50 -50 80\n60 -40 80\n70 -30 80\n";
const std::string demo_camera =
    "camera_x = 50\ncamera_y = -50\ncamera_z = 80\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\n";

}  // namespace

TEST_CASE("used.par round trip: raw table and raw blocks, single frames and scenes") {
  TempDir data;
  REQUIRE(run_command("bin/make_demo --out " + data.path("table.bin") + " --n 3000").status == 0);
  REQUIRE(run_command("bin/make_demo --out " + data.path("blocks.bin") + " --n 3000 --layout block --little-endian")
              .status == 0);
  const std::string columns = "num_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\ncolor_log0 = TRUE\n";
  check_round_trip(
      {"raw table", {data.path("table.bin")}, "simtype = 0\ninfile = table.bin\n" + columns, demo_camera, camera_scene},
      "pic", "pictype = 4\n");
  check_round_trip({"raw blocks",
                    {data.path("blocks.bin")},
                    "simtype = 1\ninfile = blocks.bin\nswap_endian = FALSE\na_eq_e = FALSE\n" + columns,
                    demo_camera,
                    camera_scene},
                   "pic.tga", "pictype = 3\n");
  // Rows that switch the input (simtype, infile, byte order), keys the run looked up before its
  // rows set them: each frame's record holds its row's values.
  check_round_trip({"rows switching the input",
                    {data.path("table.bin"), data.path("blocks.bin")},
                    "simtype = 0\ninfile = table.bin\n" + columns,
                    demo_camera,
                    "simtype infile swap_endian camera_x\n0 table.bin TRUE 50\n1 blocks.bin FALSE 60\n"
                    "0 table.bin TRUE 70\n"},
                   "sw.png", "");
}

TEST_CASE("used.par round trip: Gadget (two files), Gadget-layout HDF5 and Tipsy snapshots") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("used.par round trip on real snapshots skipped: ../shared/data is not beside this checkout");
    return;
  }
  const std::string dir = absolute_path(data) + "/";
  // The two files of the Gadget snapshot, found from infile by the header's count (numfiles absent).
  check_round_trip(
      {"gadget",
       {dir + "gadgetreader_test_g2_snap.0", dir + "gadgetreader_test_g2_snap.1"},
       "simtype = 2\ninfile = gadgetreader_test_g2_snap\nsize_fix0 = 0\ncolor_label0 = U\ncolor_log0 = TRUE\n",
       "camera_x = 1500\ncamera_y = -6000\ncamera_z = 1500\nlookat_x = 1500\nlookat_y = 1500\nlookat_z = 1500\n",
       "camera_x camera_y camera_z\n1500 -6000 1500\n1700 -6000 1400\n1900 -5000 1300\n"},
      "gadget", "");
  // fidx builds the name: snap_ + 000 + .hdf5; the camera is placed from the data.
  check_round_trip({"hdf5",
                    {dir + "gadget4_lcdm_gas_snapshot_000.hdf5"},
                    "simtype = 8\ninfile = gadget4_lcdm_gas_snapshot_\nfidx = 0\nsize_fix0 = 0\n"
                    "intensity_label0 = Density\nintensity_log0 = TRUE\n",
                    "",
                    "face\nFRONT\nTOP\nLEFT\n"},
                   "hdf5.ppm", "");
  check_round_trip({"tipsy",
                    {dir + "changa_testonestar_onestar.tbin"},
                    "simtype = 11\ninfile = changa_testonestar_onestar.tbin\nsize_fix0 = 0\ncolor_label0 = temp\n"
                    "color_log0 = TRUE\n",
                    "",
                    "face fov\nFRONT 30\nBOTTOM 40\nRIGHT 50\n"},
                   "tipsy.png", "");
}

#ifdef SPLOTCH_HDF5
TEST_CASE("used.par round trip: an HDF5 table of datasets named by x, y, z (simtype 7)") {
  TempDir data;
  const std::string path = data.path("table.h5");
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t n = 500;
  hid_t space = H5Screate_simple(1, &n, nullptr);
  for (int axis = 0; axis < 4; ++axis) {
    std::vector<float> v(n);
    for (hsize_t i = 0; i < n; ++i)
      v[i] = axis == 3 ? 1.0f + float(i % 17) : 100.0f * float((i * (axis * 20 + 37)) % 101) / 100.0f;
    const char* names[] = {"PosX", "PosY", "PosZ", "Temp"};
    hid_t d = H5Dcreate2(file, names[axis], H5T_NATIVE_FLOAT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
  }
  H5Sclose(space);
  H5Fclose(file);
  check_round_trip(
      {"hdf5 table",
       {path},
       "simtype = 7\ninfile = table.h5\nx = PosX\ny = PosY\nz = PosZ\nC1 = Temp\nr = -1\nsmooth_param = 2\n",
       "",
       "face\nBACK\nRIGHT\nBOTTOM\n"},
      "table", "pictype = 2\n");
}
#endif

TEST_CASE("used.par round trip: a snapshot fidx named is recorded as its stem, so that another fidx names another") {
  TempDir dir;
  // Two snapshots of a run, of different particles (Gadget format 2, the reader tests' data).
  snapshot({2, false, 4, 4}, 300, 0).write(dir.path("snap_000"));
  snapshot({2, false, 4, 4}, 100, 0, 150, 0).write(dir.path("snap_001"));
  const std::string two = dir.path("snap_001");
  const std::string par = dir.write("s.par",
                                    "simtype = 2\ninfile = snap_\nfidx = 1\nptypes = 1\nptype0 = 0\n"
                                    "size_fix0 = 3\ncolor_label0 = U\npalette0 = fire\nbrightness0 = 2\n"
                                    "camera_x = 120\ncamera_y = -500\ncamera_z = 50\nlookat_x = 120\n"
                                    "lookat_y = 50\nlookat_z = 50\nxres = 64\noutfile = one.png\n");
  REQUIRE(splotch_in(dir.path(), "--quiet s.par").status == 0);
  const std::string record = read_file(dir.file("one.png.used.par"));
  INFO(record);
  CHECK(record.find("infile = " + absolute_path(dir.path("snap_")) +
                    "  # given as snap_; with fidx = 1: " + absolute_path(two)) != std::string::npos);
  // The record alone draws the same picture; with fidx = 0 on top, snapshot 0, as the .par does.
  REQUIRE(splotch_in(dir.path(), "--quiet one.png.used.par outfile=again.png").status == 0);
  CHECK(read_file(dir.file("again.png")) == read_file(dir.file("one.png")));
  REQUIRE(splotch_in(dir.path(), "--quiet one.png.used.par fidx=0 outfile=zero_record.png").status == 0);
  REQUIRE(splotch_in(dir.path(), "--quiet s.par fidx=0 outfile=zero.png").status == 0);
  CHECK(read_file(dir.file("zero_record.png")) == read_file(dir.file("zero.png")));
  CHECK(read_file(dir.file("zero.png")) != read_file(dir.file("one.png")));
}
