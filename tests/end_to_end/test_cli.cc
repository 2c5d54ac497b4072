// bin/splotch as a user meets it: options, exit status, the one error line, no image after a
// failure, the report, used.par. Runs the built binary (make test builds it first).
#include <doctest/doctest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "io/byte_order.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch::testing;

namespace {

const std::string splotch_binary = "bin/splotch";

using Record = std::array<float, 6>;  // x y z hsml I C1

void write_raw_table(const std::string& path, const std::vector<Record>& records) {
  std::vector<float> words;
  for (const Record& r : records) words.insert(words.end(), r.begin(), r.end());
  splotch::swap_bytes_4(words.data(), words.size());  // big-endian, the original's default
  std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  write_file(path, bytes);
}

std::vector<Record> small_cloud() {
  std::vector<Record> r;
  for (int i = 0; i < 200; ++i) {
    float t = 0.1f * float(i);
    r.push_back({50 + 10 * std::cos(t), 50 + 10 * std::sin(t), 50 + 0.05f * float(i - 100), 1.0f + 0.01f * float(i),
                 1.0f + float(i % 10), 1.0f + float(i)});
  }
  return r;
}

// A working parameter file in `dir` rendering `dir`/particles.bin to `dir`/image.tga.
struct Scene {
  TempDir dir;
  std::string par = dir.file("scene.par"), image = dir.file("image.tga");
  Scene() {
    write_raw_table(dir.file("particles.bin"), small_cloud());
    write_file(par, "simtype = 0\ninfile = " + dir.file("particles.bin") +
                        "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                        "palette0 = testdata/palettes/fire.pal\ncolor_log0 = TRUE\nbrightness0 = 1\n"
                        "camera_x = 50\ncamera_y = -50\ncamera_z = 80\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\n"
                        "xres = 64\noutfile = " +
                        image + "\n");
  }
  CommandResult run(const std::string& extra = "") const {
    return run_command(splotch_binary + " " + par + " " + extra);
  }
};

// One line "splotch: error: ...", status 1, and no image.
void check_user_error(const CommandResult& r, const std::string& expected_text, const std::string& image) {
  CHECK(r.status == 1);
  CHECK(r.err.rfind("splotch: error: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(expected_text) != std::string::npos);
  CHECK(!file_exists(image));
  CHECK(!file_exists(image + ".used.par"));
}

}  // namespace

TEST_CASE("bin/splotch: options") {
  CommandResult help = run_command(splotch_binary + " --help");
  CHECK(help.status == 0);
  CHECK(help.out.find("usage: splotch") != std::string::npos);
  CommandResult version = run_command(splotch_binary + " --version");
  CHECK(version.status == 0);
  CHECK(version.out.rfind("splotch ", 0) == 0);
  CommandResult none = run_command(splotch_binary);
  CHECK(none.status == 1);
  CHECK(none.err.find("no parameter file given") != std::string::npos);
  CommandResult unknown = run_command(splotch_binary + " --frobnicate x.par");
  CHECK(unknown.status == 1);
  CHECK(unknown.err.find("unknown option '--frobnicate'") != std::string::npos);
}

TEST_CASE("bin/splotch: a good run writes the image, the report and used.par") {
  Scene s;
  CommandResult r = s.run("pic_gamma=1.1");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  CHECK(file_exists(s.image));
  CHECK(r.out.find("wrote " + s.image) != std::string::npos);
  for (const char* stage :
       {"read", "normalize", "geometry", "colour", "sort", "render", "post", "write", "total", "peak memory"})
    CHECK(r.out.find(std::string("  ") + stage) != std::string::npos);
  const std::string used = read_file(s.image + ".used.par");
  CHECK(used.find("xres = 64\n") != std::string::npos);
  CHECK(used.find("pic_gamma = 1.1\n") != std::string::npos);
  CHECK(used.find("fov = 45  # default") != std::string::npos);
  // used.par alone reproduces the image.
  const std::string first = read_file(s.image);
  CommandResult again =
      run_command(splotch_binary + " --quiet " + s.image + ".used.par outfile=" + s.dir.file("again.tga"));
  REQUIRE(again.status == 0);
  CHECK(again.out.empty());  // --quiet
  CHECK(read_file(s.dir.file("again.tga")) == first);
}

TEST_CASE("bin/splotch: a program copied away from its checkout says where the palettes are missing") {
  Scene s;
  const std::string copy = s.dir.file("splotch");
  REQUIRE(run_command("cp " + splotch_binary + " " + copy).status == 0);
  const CommandResult r = run_command(copy + " " + s.par + " palette0=fire");
  CHECK(r.status == 1);
  CHECK(r.err.find("the project's palettes") != std::string::npos);
  CHECK(r.err.find("are not beside this program: give the path of a .pal file") != std::string::npos);
}

TEST_CASE("bin/splotch: a_eq_e = FALSE in file order (sort_type 0) gives one picture whatever the thread count") {
  // The tile side grows with fewer threads (256 pixels with one thread at 1024 x 1024, 128 with
  // two): file order must not become the order of the tiles.
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 40000 --out " + dir.file("demo.bin")).status == 0);
  const std::string par = "testdata/demo.par infile=" + dir.file("demo.bin") +
                          " xres=1024 a_eq_e=FALSE sort_type=0 brightness0=30 renderer=host outfile=";
  REQUIRE(run_command("OMP_NUM_THREADS=1 " + splotch_binary + " " + par + dir.file("one.tga")).status == 0);
  REQUIRE(run_command("OMP_NUM_THREADS=2 " + splotch_binary + " " + par + dir.file("two.tga")).status == 0);
  const std::string one = read_file(dir.file("one.tga"));
  CHECK(one.size() > 1024 * 1024 * 3);
  CHECK(one == read_file(dir.file("two.tga")));
}

TEST_CASE("bin/splotch: unused keys are listed in one warning, a line each, with the key a typo most likely meant") {
  Scene s;
  CommandResult r = s.run("camrea_x=3 sort_typ=2 palete0=fire colour_label0=RHO zzz=1 Xres=64");
  CHECK(r.status == 0);
  CHECK(r.err.find("splotch: warning: parameters not used by this run (typos?):\n"
                   "  Xres (command line): did you mean xres?\n"
                   "  camrea_x (command line): did you mean camera_x?\n"
                   "  colour_label0 (command line): did you mean color_label0?\n"
                   "  palete0 (command line): did you mean palette0?\n"
                   "  sort_typ (command line): did you mean sort_type?\n"
                   "  zzz (command line)\n") != std::string::npos);
  // A required key that is missing names a given key within a typo of it.
  std::string text = read_file(s.par);
  text.replace(text.find("outfile ="), 9, "outfle =");
  const std::string par = s.dir.write("typo.par", text);
  CommandResult missing = run_command(splotch_binary + " " + par);
  CHECK(missing.status == 1);
  CHECK(missing.err.find("required parameter 'outfile' is missing (" + par + ":") != std::string::npos);
  CHECK(missing.err.find(" gives outfle: a typo of outfile?)") != std::string::npos);
  // Given twice on the command line: the last is used, and said.
  CommandResult twice = s.run("xres=32 xres=48");
  CHECK(twice.err.find("command line: xres is given twice ('32', then '48'); the last, '48', is used") !=
        std::string::npos);
}

TEST_CASE("bin/splotch: bad input gives one error line, status 1 and no image") {
  Scene s;
  SUBCASE("missing parameter file") {
    check_user_error(run_command(splotch_binary + " " + s.dir.file("nope.par")),
                     "cannot open '" + s.dir.file("nope.par") +
                         "': No such file or directory (neither a parameter file nor a snapshot of that name",
                     s.image);
  }
  SUBCASE("missing snapshot") { check_user_error(s.run("infile=" + s.dir.file("gone.bin")), "gone.bin", s.image); }
  SUBCASE("renderer = cuda in a scene where the process sees no GPU: one error before the first frame") {
    const std::string scene = s.dir.write("three.txt", "camera_x\n40\n50\n60\n");
    const CommandResult r =
        run_command("CUDA_VISIBLE_DEVICES= " + splotch_binary + " " + s.par + " renderer=cuda scene_file=" + scene);
    check_user_error(r, "renderer = cuda, but no ", s.image);
    CHECK(r.err.find("; use renderer = host or auto") != std::string::npos);
    CHECK(r.out.find("frame 1 of 3") == std::string::npos);
    CHECK(!file_exists(s.dir.file("image0000.tga")));
  }
  SUBCASE("renderer = cuda where the GPU named is not there") {
    // Told at the plan without a driver; with one, the driver's list trusts the name and the GPU's
    // start fails after the read: the same error line either way, no internal error.
    const CommandResult r = run_command("CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000 " +
                                        splotch_binary + " " + s.par + " renderer=cuda");
    check_user_error(r, "renderer = cuda, but ", s.image);
    CHECK(r.err.find("; use renderer = host or auto") != std::string::npos);
  }
  SUBCASE("a directory as snapshot") {
    check_user_error(s.run("infile=" + s.dir.path()), "infile = " + s.dir.path() + " names a directory, not a file",
                     s.image);
  }
  SUBCASE("truncated raw file") {
    std::string bytes = read_file(s.dir.file("particles.bin"));
    write_file(s.dir.file("short.bin"), bytes.substr(0, bytes.size() - 7));
    check_user_error(s.run("infile=" + s.dir.file("short.bin")), "is not a multiple of 6 fields x 4 bytes", s.image);
  }
  SUBCASE("empty raw file") {
    write_file(s.dir.file("empty.bin"), "");
    check_user_error(s.run("infile=" + s.dir.file("empty.bin")), "is empty", s.image);
  }
  SUBCASE("palette with the wrong count") {
    write_file(s.dir.file("bad.pal"), "bad\n0100\n3\n0 0 0\n255 255 255\n");
    check_user_error(s.run("palette0=" + s.dir.file("bad.pal")), "the header says 3 colours but the file has 2",
                     s.image);
  }
  SUBCASE("wrong byte order") { check_user_error(s.run("swap_endian=FALSE"), "swap_endian", s.image); }
  SUBCASE("xres <= 0") { check_user_error(s.run("xres=0"), "xres", s.image); }
  SUBCASE("a scene file that is not there") {
    check_user_error(s.run("scene_file=frames.txt"), "cannot open the scene file 'frames.txt'", s.image);
  }
  SUBCASE("a scene's pictures in a directory that is not there: said once, not by each frame") {
    write_file(s.dir.file("frames.txt"), "camera_x\n-60\n-40\n");
    check_user_error(s.run("scene_file=" + s.dir.file("frames.txt") + " outfile=" + s.dir.file("none/f_")),
                     "directory '" + s.dir.file("none/") + "' does not exist", s.image);
  }
  SUBCASE("fov outside (0, 180)") {
    check_user_error(s.run("fov=180"), "fov = 180 must lie strictly between 0 and 180", s.image);
    check_user_error(s.run("fov=-1"), "fov", s.image);
  }
  SUBCASE("camera equal to lookat") { check_user_error(s.run("camera_y=50 camera_z=50"), "equals lookat", s.image); }
  SUBCASE("sky parallel to the view direction") {
    check_user_error(s.run("sky_x=0 sky_y=1 sky_z=-0.3"), "parallel to the view direction", s.image);
  }
  SUBCASE("a value of the wrong type names file, line, key and value") {
    check_user_error(run_command(splotch_binary + " " + s.par + " xres=big"),
                     "command line: xres = 'big' is not an integer", s.image);
    std::string text = read_file(s.par) + "fov = wide\n";
    write_file(s.par, text);
    const int line = int(std::count(text.begin(), text.end(), '\n'));
    check_user_error(s.run(), s.par + ":" + std::to_string(line) + ": fov = 'wide' is not a number", s.image);
  }
}

TEST_CASE("bin/splotch: invalid particles are skipped with a warning; none left is an error") {
  Scene s;
  std::vector<Record> cloud = small_cloud();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  cloud[3][0] = nan;
  cloud[4][2] = inf;
  cloud[5][3] = 0.0f;
  cloud[6][3] = -2.0f;
  write_raw_table(s.dir.file("particles.bin"), cloud);
  CommandResult r = s.run();
  CHECK(r.status == 0);
  CHECK(r.err.find("splotch: warning: 4 of 200 particles") != std::string::npos);
  CHECK(r.err.find("2 with a NaN or infinite position") != std::string::npos);
  CHECK(r.err.find("2 with a zero, negative or non-finite smoothing length") != std::string::npos);
  CHECK(file_exists(s.image));

  std::vector<Record> all_bad(10, Record{1, 2, 3, 0, 1, 1});
  write_raw_table(s.dir.file("bad.bin"), all_bad);
  CommandResult none = s.run("infile=" + s.dir.file("bad.bin") + " outfile=" + s.dir.file("none.tga"));
  CHECK(none.status == 1);
  CHECK(none.err.find("splotch: error: ") != std::string::npos);
  CHECK(none.err.find("holds no particle that can be drawn") != std::string::npos);
  CHECK(!file_exists(s.dir.file("none.tga")));
}

TEST_CASE("bin/splotch: --info on a Gadget file itself, and a Gadget render from a parameter file") {
  TempDir dir;
  // 3 gas particles (POS VEL ID MASS U RHO HSML) and 2 of dark matter (mass table), format 1,
  // big-endian, double precision.
  GadgetTestFile f;
  f.format = 1;
  f.big_endian = true;
  f.npart = {3, 2, 0, 0, 0, 0};
  f.mass = {0, 0.5, 0, 0, 0, 0};
  f.time = 0.25;
  f.redshift = 3.0;
  f.box_size = 100;
  f.blocks = {{"POS", {40, 50, 50, 50, 50, 50, 60, 50, 50, 45, 45, 50, 55, 55, 50}, 8},
              {"VEL", std::vector<double>(15, 1.0), 8},
              {"ID", {1, 2, 3, 4, 5}, 4, true},
              {"MASS", {1, 2, 3}, 8},
              {"U", {10, 20, 30}, 8},
              {"RHO", {1, 2, 4}, 8},
              {"HSML", {3, 4, 5}, 8}};
  const std::string snap = dir.path("snap_000");
  f.write(snap);
  CommandResult info = run_command(splotch_binary + " --info " + snap);
  CHECK(info.status == 0);
  CHECK(info.out.find(
            "Gadget binary format 1, byte-swapped (the other endianness), double precision positions, 1 file") !=
        std::string::npos);
  CHECK(info.out.find("time 0.25, redshift 3, box size 100") != std::string::npos);
  CHECK(info.out.find("type 0: 3 particles\n") != std::string::npos);
  CHECK(info.out.find("type 1: 2 particles, each of mass 0.5 (mass table)") != std::string::npos);
  CHECK(info.out.find("    HSML             float64              3             4             5") != std::string::npos);
  CHECK(info.out.find("    ID               int32") != std::string::npos);

  // The same file rendered through the original's keys: infile + fidx, hsml and colours from blocks.
  const std::string par =
      dir.write("g.par", "simtype = 2\ninfile = " + dir.path("snap_") +
                             "\nfidx = 0\nptypes = 2\n"
                             "ptype0 = 0\nsize_fix0 = 0\nsize_label0 = HSML\ncolor_label0 = U\n"
                             "intensity_label0 = RHO\npalette0 = testdata/palettes/fire.pal\n"
                             "ptype1 = 1\nsize_fix1 = 2\ncolor_label1 = MASS\npalette1 = testdata/palettes/grey.pal\n"
                             "camera_x = 50\ncamera_y = 50\ncamera_z = 120\nlookat_x = 50\nlookat_y = 50\n"
                             "lookat_z = 50\nsky_x = 0\nsky_y = 1\nsky_z = 0\nfov = 30\nxres = 64\n"
                             "outfile = " +
                             dir.path("g.png") + "\n");
  CommandResult render = run_command(splotch_binary + " " + par + " renderer=host");
  CHECK(render.status == 0);
  CHECK(render.out.find("particles  5 read, 0 dropped as invalid, 5 in view") != std::string::npos);
  CHECK(file_exists(dir.path("g.png")));
  CHECK(render.err.find("not used") == std::string::npos);  // every Gadget key was read
}

TEST_CASE("bin/splotch: --info prints counts and field ranges without rendering") {
  Scene s;
  CommandResult r = run_command(splotch_binary + " --info " + s.par);
  CHECK(r.status == 0);
  CHECK(r.out.find("type 0: 200 particles") != std::string::npos);
  CHECK(r.out.find("hsml") != std::string::npos);
  CHECK(!file_exists(s.image));
}

#ifdef SPLOTCH_HDF5
TEST_CASE("bin/splotch: a Gadget format-2 snapshot and its HDF5 twin give the same picture; --info on HDF5") {
  TempDir dir;
  // 3000 gas particles in a clumpy cloud, 1000 dark-matter ones in the mass table.
  GadgetTestFile g;
  g.npart = {3000, 1000, 0, 0, 0, 0};
  g.npart_total = g.npart;
  g.mass = {0, 0.25, 0, 0, 0, 0};
  g.box_size = 100;
  GadgetTestBlock pos{"POS", {}, 4}, vel{"VEL", {}, 4}, id{"ID", {}, 4, true}, mass{"MASS", {}, 4}, u{"U", {}, 4},
      rho{"RHO", {}, 4}, hsml{"HSML", {}, 4};
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int i = 0; i < 4000; ++i) {
    const double clump = 10.0 * (i % 5), s = i < 3000 ? 4.0 : 8.0;
    pos.values.insert(pos.values.end(), {30 + clump + s * normal(rng), 50 + s * normal(rng), 50 + s * normal(rng)});
    vel.values.insert(vel.values.end(), {normal(rng), normal(rng), normal(rng)});
    id.values.push_back(i + 1);
    if (i >= 3000) continue;
    mass.values.push_back(1.0 + 0.001 * i);
    u.values.push_back(std::exp(2.0 * normal(rng)));
    rho.values.push_back(std::exp(normal(rng)));
    hsml.values.push_back(0.5 + std::abs(normal(rng)));
  }
  g.blocks = {pos, vel, id, mass, u, rho, hsml};
  g.write(dir.path("twin_005"));
  splotch::testing::Hdf5TestOptions chunked;
  chunked.chunked = true;
  splotch::testing::Hdf5TestWriter::write(g, dir.path("twin_005.hdf5"), chunked);

  const std::string keys =
      "infile = " + dir.path("twin_") +
      "\nfidx = 5\nptypes = 2\nptype0 = 0\nsize_fix0 = 0\nsize_label0 = HSML\n"
      "color_label0 = U\ncolor_log0 = TRUE\nintensity_label0 = RHO\nintensity_log0 = TRUE\n"
      "palette0 = testdata/palettes/fire.pal\nptype1 = 1\nsize_fix1 = 1.5\ncolor_label1 = VEL\ncolor_is_vector1 = "
      "TRUE\n"
      "brightness1 = 0.3\ncamera_x = 50\ncamera_y = -60\ncamera_z = 70\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\n"
      "fov = 50\nxres = 200\na_eq_e = FALSE\nrenderer = host\n";
  const std::string gadget_par = dir.write("g.par", "simtype = 2\noutfile = " + dir.path("g.tga") + "\n" + keys);
  const std::string hdf5_par = dir.write("h.par", "simtype = 8\noutfile = " + dir.path("h.tga") + "\n" + keys);
  CommandResult from_gadget = run_command(splotch_binary + " " + gadget_par);
  CommandResult from_hdf5 = run_command(splotch_binary + " " + hdf5_par);
  CHECK(from_gadget.status == 0);
  CHECK(from_hdf5.status == 0);
  CHECK(from_hdf5.out.find("particles  4000 read") != std::string::npos);
  const std::string a = read_file(dir.path("g.tga")), b = read_file(dir.path("h.tga"));
  CHECK(a.size() > 200 * 200 * 3);
  CHECK(a == b);

  // A sequence of HDF5 snapshots, each read in the background while the frame before renders
  // (the settings of the next frames read HDF5 headers meanwhile): every frame as the single run.
  splotch::testing::Hdf5TestWriter::write(g, dir.path("twin_006.hdf5"), chunked);
  const std::string sequence = dir.write("sequence.txt", "fidx\n5\n6\n5\n6\n");
  CommandResult seq = run_command(splotch_binary + " " + hdf5_par + " scene_file=" + sequence +
                                  " scene_read_ahead=TRUE outfile=" + dir.path("seq.tga"));
  CHECK(seq.status == 0);
  CHECK(seq.out.find("; 4 snapshot reads, 3 of them while a frame rendered;") != std::string::npos);
  for (int k = 0; k < 4; ++k) CHECK(read_file(dir.path("seq000" + std::to_string(k) + ".tga")) == b);

  CommandResult info = run_command(splotch_binary + " --info " + dir.path("twin_005.hdf5"));
  CHECK(info.status == 0);
  CHECK(info.out.find("HDF5 (Gadget/AREPO/GIZMO/SWIFT layout), single precision positions, 1 file, 6 types") !=
        std::string::npos);
  CHECK(info.out.find("type 0: 3000 particles\n") != std::string::npos);
  CHECK(info.out.find("type 1: 1000 particles, each of mass 0.25 (mass table)") != std::string::npos);
  CHECK(info.out.find("    Masses           float32              1           2.5         3.999") != std::string::npos);
  CHECK(info.out.find("    ParticleIDs      uint32") != std::string::npos);
}
#else
TEST_CASE("bin/splotch: the HDF5 twin picture test needs HDF5") {
  MESSAGE("HDF5 twin-picture test skipped: built without HDF5");
}
#endif

TEST_CASE("bin/splotch: NaN and infinite Gadget fields are skipped with a count; knn and volume smoothing lengths") {
  TempDir dir;
  // 6 gas particles (POS U RHO HSML MASS) and 40 of dark matter (mass table, no smoothing length).
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  GadgetTestFile f;
  f.npart = {6, 40, 0, 0, 0, 0};
  f.mass = {0, 0.5, 0, 0, 0, 0};
  f.box_size = 100;
  GadgetTestBlock pos{"POS", {}, 4}, u{"U", {1, 2, 3, 4, 5, 6}, 4}, rho{"RHO", {1, nan, 2, 2, 8, 27}, 4},
      hsml{"HSML", {1, 1, 1, -1, 1, 1}, 4}, mass{"MASS", {1, 1, 1, 1, 1, 1}, 4};
  for (int i = 0; i < 46; ++i)
    pos.values.insert(pos.values.end(), {45.0 + i % 7, 50.0 + (i / 7) % 3, i == 2 ? inf : 50.0 + i % 5});
  f.blocks = {pos, u, rho, hsml, mass};
  const std::string snap = dir.path("snap");
  f.write(snap);
  const std::string par =
      dir.write("g.par", "simtype = 2\ninfile = " + snap +
                             "\nptypes = 2\nptype0 = 0\nsize_fix0 = 0\n"
                             "color_label0 = U\nintensity_label0 = RHO\npalette0 = testdata/palettes/fire.pal\n"
                             "ptype1 = 1\npalette1 = testdata/palettes/grey.pal\n"
                             "camera_x = 50\ncamera_y = -50\ncamera_z = 50\nlookat_x = 50\nlookat_y = 50\n"
                             "lookat_z = 50\nxres = 32\nrenderer = host\noutfile = " +
                             dir.path("g.png") + "\n");
  CommandResult r = run_command(splotch_binary + " " + par);
  CHECK(r.status == 0);
  CHECK(r.err.find(
            "splotch: warning: 3 of 46 particles of '" + snap +
            "' skipped: 1 with a NaN or infinite position, "
            "1 with a zero, negative or non-finite smoothing length, 1 with a NaN or infinite intensity or colour") !=
        std::string::npos);
  // No size key for the dark matter, which has no smoothing lengths in the file: estimated (auto).
  CHECK(r.out.find("  hsml ") != std::string::npos);
  CHECK(r.out.find("note: smoothing lengths: ptype0 = 0 (gas): the file's HSML (size_fix0 = 0); ptype1 = 1 (dark "
                   "matter): estimated from the 32 nearest neighbours (no size key given): the file has no smoothing "
                   "lengths for it\n") != std::string::npos);

  // Dark matter sized by its 8 nearest neighbours, gas by (mass / density)^(1/3).
  CommandResult render = run_command(splotch_binary + " " + par +
                                     " size_estimate1=knn hsml_neighbours1=8 size_fac1=2 "
                                     "size_estimate0=volume");
  CHECK(render.status == 0);
  CHECK(render.out.find("  hsml ") != std::string::npos);            // the estimate's stage
  CHECK(render.err.find("2 of 46 particles") != std::string::npos);  // the negative HSML is no longer read

  CommandResult both = run_command(splotch_binary + " " + par + " size_estimate1=knn size_fix1=2");
  CHECK(both.status == 1);
  CHECK(both.err.find("size_fix1 and size_estimate1 both give the smoothing lengths") != std::string::npos);
  CommandResult unknown = run_command(splotch_binary + " " + par + " size_estimate1=sph");
  CHECK(unknown.status == 1);
  CHECK(unknown.err.find("size_estimate1 = sph is not a way to find smoothing lengths: auto (the file's, else "
                         "estimated), knn") != std::string::npos);
}

TEST_CASE("bin/splotch: --info on a Tipsy file itself, and a Tipsy render of gas and knn-sized dark matter") {
  TempDir dir;
  splotch::testing::TipsyTestFile f;  // big-endian, the usual
  for (int i = 0; i < 3; ++i)         // mass, pos, vel, rho, temp, hsmooth, metals, phi
    f.records[0].push_back({1, 40.0 + 5 * i, 50, 50, 0, 0, 0, 1.0 + i, 1e4 * (i + 1), 2, 0.02, -1});
  for (int j = 0; j < 50; ++j)  // mass, pos, vel, eps, phi
    f.records[1].push_back({0.5, 45.0 + j % 5, 48.0 + (j / 5) % 5, 49.0 + j / 25, 0, 0, 0, 0.1, -2});
  const std::string snap = dir.path("run.000100");
  f.write(snap);
  CommandResult info = run_command(splotch_binary + " --info " + snap);
  CHECK(info.status == 0);
  CHECK(info.out.find("Tipsy standard binary, big-endian (byte-swapped), 32-byte header, single precision positions") !=
        std::string::npos);
  CHECK(info.out.find("type 0 (gas): 3 particles\n") != std::string::npos);
  CHECK(info.out.find("type 1 (dark): 50 particles\n") != std::string::npos);
  CHECK(info.out.find("    temp             float32          10000         20000         30000") != std::string::npos);

  const std::string par =
      dir.write("t.par", "simtype = 11\ninfile = " + dir.path("run.000") +
                             "\nfidx = 100\nptypes = 2\n"
                             "ptype0 = 0\nsize_fix0 = 0\nsize_label0 = HSML\ncolor_label0 = temp\ncolor_log0 = TRUE\n"
                             "intensity_label0 = Density\npalette0 = testdata/palettes/fire.pal\n"
                             "ptype1 = 1\nsize_estimate1 = knn\nhsml_neighbours1 = 8\ncolor_label1 = vel\n"
                             "color_is_vector1 = TRUE\n"
                             "camera_x = 50\ncamera_y = -50\ncamera_z = 50\nlookat_x = 50\nlookat_y = 50\n"
                             "lookat_z = 50\nxres = 48\nrenderer = host\noutfile = " +
                             dir.path("t.png") + "\n");
  CommandResult render = run_command(splotch_binary + " " + par);
  CHECK(render.status == 0);
  CHECK(render.out.find("particles  53 read, 0 dropped as invalid") != std::string::npos);
  CHECK(render.out.find("  hsml ") != std::string::npos);
  CHECK(render.err.find("not used") == std::string::npos);
  CHECK(file_exists(dir.path("t.png")));
}

TEST_CASE("bin/splotch: every real snapshot of ../shared/data gives --info and renders") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("real-snapshot render test skipped: ../shared/data is not beside this checkout");
    return;
  }
  struct Real {
    const char* file;
    int simtype, ptype;
    std::size_t particles;  // of that type, as the file's header says (see the reader tests)
    const char* size;       // the keys giving the smoothing lengths
  };
  const Real reals[] = {
      {"gadgetreader_test_g2_snap.0", 2, 0, 4039, "size_fix0 = 0"},
      {"gadgetreader_test_g2_snap.0", 2, 1, 4096, "size_estimate0 = knn"},
      {"pop3_gadget2_fmt2_gassphere_snapshot_004", 2, 0, 1472, "size_fix0 = 0"},
      {"vaex_gassphere_littleendian.dat", 2, 0, 1472, "size_estimate0 = knn"},
      {"vaex_gassphere_bigendian.dat", 2, 0, 1472, "size_estimate0 = knn"},
      {"genetic_gadget3_fmt1_gas_dm_test10g", 2, 1, 4928, "size_estimate0 = knn"},
      {"iccpy_gadget_binary_snapshot_000", 2, 1, 2000, "size_estimate0 = knn"},
      {"gadget4_lcdm_gas_snapshot_000.hdf5", 8, 0, 32768, "size_fix0 = 0"},
      {"gadget4_lcdm_gas_snapshot_004.hdf5", 8, 1, 32768, "size_estimate0 = knn"},
      {"cmacionize_swift_test.hdf5", 8, 0, 100, "size_fix0 = 0"},
      {"swift_sodshock3d_glass_002.hdf5", 8, 0, 50653, "size_fix0 = 0"},
      {"changa_pgtest_ms.000010", 11, 1, 36000, "size_estimate0 = knn"},
      {"changa_testonestar_onestar.tbin", 11, 0, 1088, "size_fix0 = 0"},
      {"genetic_tipsy_littleendian_gas_test04d", 11, 1, 5816, "size_estimate0 = knn"},
  };
  TempDir dir;
  for (const Real& r : reals) {
    INFO(r.file << " type " << r.ptype);
    const std::string path = data + "/" + r.file;
    CommandResult info = run_command(splotch_binary + " --info " + path);
    CHECK(info.status == 0);
    CHECK(info.out.find("type " + std::to_string(r.ptype) + (r.simtype == 11 ? " (" : ": ")) != std::string::npos);
    CHECK(info.out.find(std::to_string(r.particles) + " particles") != std::string::npos);
    // Read, sized, normalised and drawn: the camera looks down the z axis from far away (the
    // picture's content is the end-to-end tests' business, not this one's).
    const std::string par = dir.write("real.par", "simtype = " + std::to_string(r.simtype) + "\ninfile = " + path +
                                                      "\nptype0 = " + std::to_string(r.ptype) + "\n" + r.size +
                                                      "\nintensity_label0 = MASS\nintensity_log0 = TRUE\n"
                                                      "palette0 = testdata/palettes/fire.pal\nrenderer = host\n"
                                                      "camera_x = 0\ncamera_y = 0\ncamera_z = 1e6\nlookat_x = 0\n"
                                                      "lookat_y = 0\nlookat_z = 0\nsky_x = 0\nsky_y = 1\nsky_z = 0\n"
                                                      "projection = FALSE\nperiodic = FALSE\nxres = 64\n"
                                                      "outfile = " +
                                                      dir.path("real.png") + "\n");
    std::remove(dir.path("real.png").c_str());
    CommandResult render = run_command(splotch_binary + " " + par);
    CHECK(render.status == 0);
    CHECK(render.out.find("particles  " + std::to_string(r.particles) + " read") != std::string::npos);
    CHECK(file_exists(dir.path("real.png")));
  }
}

TEST_CASE("bin/splotch: a scene file renders each frame as a single run would; legacy rows; resume; a failing frame") {
  Scene s;
  // Three frames: the camera moves, and the third also changes a non-camera key.
  const std::string scene = s.dir.write("frames.txt",
                                        "# camera path\ncamera_x camera_y camera_z brightness0\n"
                                        "50 -50 80 1\n60 -40 80 1\n70 -30 80 2.5\n");
  const std::string out = s.dir.file("movie.tga");
  CommandResult r = s.run("scene_file=" + scene + " outfile=" + out);
  CHECK(r.status == 0);
  CHECK(r.out.find("frame 1 of 3 (" + scene + ":3)") != std::string::npos);
  CHECK(r.out.find("frame 3 of 3 (" + scene + ":5)") != std::string::npos);
  CHECK(r.out.find("scene: 3 frames: 3 rendered, 0 skipped (resume), 0 failed") != std::string::npos);
  // The snapshot is read once: the input keys do not change between the frames.
  CHECK(r.out.find("; 1 snapshot read, 0 of them while a frame rendered;") != std::string::npos);
  // Where the scene's time went: each stage summed over the frames.
  CHECK(r.out.find("  stages over 3 frames: plan ") != std::string::npos);
  CHECK(r.out.find(" render ") != std::string::npos);
  CHECK(r.out.find("movie0000.tga in ") != std::string::npos);
  CHECK(r.out.find("movie0000.tga in ") < r.out.find("(snapshot kept from the frame before)"));
  CHECK(r.out.find("movie0002.tga in ") < r.out.rfind("(snapshot kept from the frame before)"));
  const char* rows[] = {"camera_x=50 camera_y=-50 camera_z=80 brightness0=1",
                        "camera_x=60 camera_y=-40 camera_z=80 brightness0=1",
                        "camera_x=70 camera_y=-30 camera_z=80 brightness0=2.5"};
  for (int k = 0; k < 3; ++k) {
    INFO("frame " << k);
    const std::string single = s.dir.file("single" + std::to_string(k) + ".tga");
    CHECK(s.run(std::string(rows[k]) + " outfile=" + single).status == 0);
    const std::string frame = s.dir.file("movie000" + std::to_string(k) + ".tga");
    REQUIRE(file_exists(frame));
    CHECK(read_file(frame) == read_file(single));
  }
  CHECK(read_file(s.dir.file("movie0000.tga")) != read_file(s.dir.file("movie0002.tga")));

  // The original's 10 numbers per line (camera, lookat, sky, fidx); scene_start / scene_incr.
  const std::string legacy = s.dir.write("legacy.txt",
                                         "50 -50 80 50 50 50 0 0 1 0\n60 -40 80 50 50 50 0 0 1 0\n"
                                         "70 -30 80 50 50 50 0 0 1 0\n");
  CommandResult l = s.run("scene_file=" + legacy + " scene_start=1 scene_incr=1 outfile=" + s.dir.file("legacy_"));
  CHECK(l.status == 0);
  CHECK(!file_exists(s.dir.file("legacy_0000.tga")));
  CHECK(read_file(s.dir.file("legacy_0001.tga")) == read_file(s.dir.file("single1.tga")));
  CHECK(s.run("camera_x=70 camera_y=-30 camera_z=80 outfile=" + s.dir.file("single2_b1.tga")).status == 0);
  CHECK(read_file(s.dir.file("legacy_0002.tga")) == read_file(s.dir.file("single2_b1.tga")));

  // resume: existing images stay as they are; the others are rendered.
  std::remove(s.dir.file("movie0001.tga").c_str());
  write_file(s.dir.file("movie0002.tga"), "not an image");
  CommandResult again = s.run("scene_file=" + scene + " outfile=" + out + " resume=TRUE");
  CHECK(again.status == 0);
  CHECK(again.out.find("2 skipped (resume)") != std::string::npos);
  CHECK(read_file(s.dir.file("movie0001.tga")) == read_file(s.dir.file("single1.tga")));
  CHECK(read_file(s.dir.file("movie0002.tga")) == "not an image");

  // A frame that fails (a snapshot that is not there) is said, the others render, exit status 1.
  const std::string broken =
      s.dir.write("broken.txt", "infile camera_x\n" + s.dir.file("particles.bin") + " 50\n" +
                                    s.dir.file("missing.bin") + " 60\n" + s.dir.file("particles.bin") + " 70\n");
  CommandResult b = s.run("scene_file=" + broken + " outfile=" + s.dir.file("b.tga"));
  CHECK(b.status == 1);
  CHECK(b.err.find("frame 2 of 3 (" + broken + ":3) failed: ") != std::string::npos);
  CHECK(b.err.find("missing.bin") != std::string::npos);
  CHECK(file_exists(s.dir.file("b0000.tga")));
  CHECK(!file_exists(s.dir.file("b0001.tga")));
  CHECK(file_exists(s.dir.file("b0002.tga")));
  CHECK(b.out.find("scene: 3 frames: 2 rendered, 0 skipped (resume), 1 failed") != std::string::npos);
  CHECK(b.out.find("; 2 snapshot reads, ") != std::string::npos);  // the input changes every frame
  // A normalisation key that changes makes the next frame read and normalise again.
  CommandResult renorm =
      s.run("scene_file=" + s.dir.write("norm.txt", "color_log0 camera_x\nTRUE 50\nTRUE 55\nFALSE 60\n") +
            " outfile=" + s.dir.file("n.tga"));
  CHECK(renorm.status == 0);
  CHECK(renorm.out.find("; 2 snapshot reads, ") != std::string::npos);
  CHECK(s.run("color_log0=FALSE camera_x=60 outfile=" + s.dir.file("n_single.tga")).status == 0);
  CHECK(read_file(s.dir.file("n0002.tga")) == read_file(s.dir.file("n_single.tga")));
  // An unknown key in the header, and a value that is not of its key's kind in any row, stop the
  // scene before its first frame, all said at once (with the key a typo most likely meant).
  const std::string typos = s.dir.write("typo.txt", "camre_x lookat_zz camera_y\n1 2 3\n2 3 4\n3 4 x\n");
  const CommandResult typo = s.run("scene_file=" + typos + " outfile=" + s.dir.file("t.tga"));
  CHECK(typo.status == 1);
  CHECK(typo.err == "splotch: error: scene file '" + typos + "': 3 problems, found before any frame was drawn:\n  " +
                        typos + ":1: camre_x is not a key splotch reads: did you mean camera_x?\n  " + typos +
                        ":1: lookat_zz is not a key splotch reads: did you mean lookat_z?\n  " + typos +
                        ":4: camera_y = 'x' is not a number\n");
  CHECK(!file_exists(s.dir.file("t0000.tga")));

  // Bad scene files are one error line.
  check_user_error(s.run("scene_file=" + s.dir.write("short.txt", "camera_x camera_y\n50\n")),
                   "short.txt:2: 1 values where the header names 2", s.image);
  check_user_error(s.run("scene_file=" + s.dir.write("empty.txt", "# nothing\n")), "has no frames (it is empty)",
                   s.image);
  check_user_error(
      s.run("scene_file=" + s.dir.write("l9.txt", "50 -50 80 50 50 50 0 0 1 0\n50 -50 80 50 50 50 0 0 1\n")),
      "l9.txt:2: 9 values where the legacy form has 10", s.image);
  check_user_error(
      s.run("scene_file=" + s.dir.write("nan.txt", "50 -50 80 50 50 50 0 0 1 0\n50 -50 x 50 50 50 0 0 1 0\n")),
      "nan.txt:2: camera_z = 'x' is not a number", s.image);
}

TEST_CASE("bin/splotch: a snapshot sequence reads the next snapshot while a frame renders") {
  Scene s;
  // Two more snapshots: the cloud moved, and one whose particles are all invalid (it reads, but
  // holds nothing to draw: an error found only by reading it).
  std::vector<Record> moved = small_cloud(), invalid = small_cloud();
  for (Record& r : moved) r[0] += 3;
  for (Record& r : invalid) r[0] = std::numeric_limits<float>::quiet_NaN();
  const std::string a = s.dir.file("particles.bin"), b = s.dir.file("moved.bin"), bad = s.dir.file("invalid.bin");
  write_raw_table(b, moved);
  write_raw_table(bad, invalid);
  // Snapshots a a b b a bad a: reads at frames 1, 3, 5, 6 (failing) and 7; those of frames 3, 5
  // and 6 in the background while the frame before renders (a frame that fails does not start
  // one for the frame after).
  const std::string scene = s.dir.write("sequence.txt", "infile camera_x\n" + a + " 50\n" + a + " 55\n" + b + " 60\n" +
                                                            b + " 65\n" + a + " 70\n" + bad + " 75\n" + a + " 80\n");
  CommandResult r = s.run("scene_file=" + scene + " outfile=" + s.dir.file("seq.tga") + " scene_read_ahead=TRUE");
  CHECK(r.status == 1);
  CHECK(r.out.find("scene: 7 frames: 6 rendered, 0 skipped (resume), 1 failed") != std::string::npos);
  CHECK(r.out.find("; 4 snapshot reads, 2 of them while a frame rendered;") != std::string::npos);
  CHECK(r.out.find("seq0002.tga in ") < r.out.find("(snapshot read while the frame before rendered)"));
  // The failure of the read in the background is the frame's, said in its turn.
  CHECK(r.err.find("frame 6 of 7 (" + scene + ":7) failed: ") != std::string::npos);
  CHECK(r.err.find("200 of 200 particles of '" + bad + "' skipped") < r.err.find("frame 6 of 7"));
  CHECK(!file_exists(s.dir.file("seq0005.tga")));
  const char* inputs[] = {"particles.bin", "particles.bin", "moved.bin", "moved.bin", "particles.bin", "",
                          "particles.bin"};
  for (int k = 0; k < 7; ++k) {
    if (k == 5) continue;
    INFO("frame " << k);
    const std::string single = s.dir.file("single" + std::to_string(k) + ".tga");
    CHECK(s.run("infile=" + s.dir.file(inputs[k]) + " camera_x=" + std::to_string(50 + 5 * k) + " outfile=" + single)
              .status == 0);
    CHECK(read_file(s.dir.file("seq000" + std::to_string(k) + ".tga")) == read_file(single));
  }
  // scene_read_ahead = FALSE: the same reads, each in its frame's turn. (auto decides by the time a
  // read took, which depends on the machine: tests/unit/test_scene_file.cc gives it times.)
  for (const char* ahead : {"FALSE"}) {
    INFO(ahead);
    CommandResult serial =
        s.run("scene_file=" + scene + " outfile=" + s.dir.file("serial.tga") + " scene_read_ahead=" + ahead);
    CHECK(serial.out.find("; 4 snapshot reads, 0 of them while a frame rendered;") != std::string::npos);
    CHECK(read_file(s.dir.file("serial0004.tga")) == read_file(s.dir.file("seq0004.tga")));
  }
  check_user_error(s.run("scene_file=" + scene + " scene_read_ahead=sometimes"),
                   "command line: scene_read_ahead (auto, TRUE or FALSE) = 'sometimes' is not a boolean", s.image);
  // Frames of another size are said (a movie needs one).
  CommandResult sizes =
      s.run("scene_file=" + s.dir.write("sizes.txt", "xres\n64\n48\n") + " outfile=" + s.dir.file("sz.tga"));
  CHECK(sizes.status == 0);
  CHECK(sizes.err.find("is 48 x 48 pixels, the first frame 64 x 64: a movie needs frames of one size") !=
        std::string::npos);
}

TEST_CASE("bin/splotch: a run too large for the memory stops before reading, with what it needs and what to do") {
  // Under a 2 GiB address-space limit, a raw file of 1.8e8 particles (4.3 GB, sparse: its size is
  // all the count needs) asks for about 4.7 GiB.
  Scene s;
  const std::string big = s.dir.file("big.bin");
  write_file(big, "");
  REQUIRE(::truncate(big.c_str(), off_t(24) * 180000000) == 0);
  const std::string limited =
      "(ulimit -v 2097152 && OMP_NUM_THREADS=2 " + splotch_binary + " " + s.par + " renderer=host ";
  // The small file renders under the same limit: the limit alone does not stop a run.
  CHECK(run_command(limited + "outfile=" + s.dir.file("small.tga") + ")").status == 0);
  const CommandResult r = run_command(limited + "infile=" + big + ")");
  check_user_error(r, "needs about 4.", s.image);
  CHECK(r.err.find("(1.8e+08 particles x 28 bytes") != std::string::npos);
  CHECK(r.err.find("GiB are available") != std::string::npos);
  CHECK(r.err.find("MPI") != std::string::npos);
  // Without the check, the run gets as far as allocating the particles and fails there.
  const CommandResult unchecked = run_command(limited + "infile=" + big + " memory_check=FALSE)");
  CHECK(unchecked.status == 1);
  CHECK(unchecked.err.find("out of memory") != std::string::npos);
}

TEST_CASE("bin/splotch_path: writes a scene file that bin/splotch renders; bad moves are one error line") {
  Scene s;
  const std::string path = s.dir.file("orbit.txt");
  CommandResult w =
      run_command("bin/splotch_path orbit camera=50,-50,80 lookat=50,50,50 frames=4 turns=0.25 out=" + path);
  CHECK(w.status == 0);
  CHECK(read_file(path).rfind("camera_x camera_y camera_z lookat_x lookat_y lookat_z sky_x sky_y sky_z\n", 0) == 0);
  CommandResult r = s.run("scene_file=" + path + " outfile=" + s.dir.file("orbit.tga"));
  CHECK(r.status == 0);
  CHECK(r.out.find("scene: 4 frames: 4 rendered") != std::string::npos);
  CHECK(file_exists(s.dir.file("orbit0003.tga")));
  CommandResult bad = run_command("bin/splotch_path orbit camera=1,2 lookat=0,0,0 frames=10");
  CHECK(bad.status == 1);
  CHECK(bad.err == "splotch_path: error: camera = '1,2' is not a point X,Y,Z\n");
  CommandResult unknown = run_command("bin/splotch_path zoom camera=0,1,5 lookat=0,0,0 frames=10 factor=0.5 speed=2");
  CHECK(unknown.status == 1);
  CHECK(unknown.err.find("'speed' is not a key of zoom") != std::string::npos);
}
