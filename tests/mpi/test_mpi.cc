// bin/splotch_mpi under mpirun (docs/design.md section 6): 1 to 4 processes give the single process's
// picture (within float rounding: the image sums are added in another order) for raw, Gadget
// (two files), HDF5 (two files) and Tipsy input; what they cannot do yet is one error; an error
// on one process ends the job with one message from rank 0. Skipped, with a message, where
// OpenMPI or the MPI build is missing.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>

#include "cuda/cuda_renderer.h"
#include "io/byte_order.h"
#include "io/hdf5_file.h"
#include "io/image_reader.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch::testing;

namespace {

const std::string mpi_binary = "bin/splotch_mpi";

// Why the MPI tests cannot run here, or "".
std::string mpi_missing() {
  if (!file_exists(mpi_binary)) return mpi_binary + " is not built (no mpicxx: make deps MPI=1)";
  if (run_command("command -v mpirun").status != 0) return "no mpirun (make deps MPI=1)";
  return "";
}

// Whether the MPI tests can run here; if not, the test says why it is skipped.
bool mpi_runs() {
  const std::string missing = mpi_missing();
  if (!missing.empty()) MESSAGE("MPI tests skipped: " << missing);
  return missing.empty();
}

// A single frame is drawn by every process (mpi_mode = data) unless the arguments say otherwise:
// with mpi_mode = auto the share model (splotch/render/share_cost.h) would have rank 0 draw these
// small frames alone.
CommandResult mpirun(int processes, const std::string& args) {
  const bool chosen = args.find("mpi_mode=") != std::string::npos || args.find("scene_file=") != std::string::npos;
  return run_command("mpirun -q --oversubscribe --bind-to none --allow-run-as-root -x OMP_NUM_THREADS=1 -np " +
                     std::to_string(processes) + " " + mpi_binary + " " + args + (chosen ? "" : " mpi_mode=data"));
}

// The two pictures differ by at most one level in at most 1% of the values.
void check_close(const std::string& a_path, const std::string& b_path) {
  const splotch::Image8 a = splotch::read_image(a_path), b = splotch::read_image(b_path);
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  int worst = 0;
  std::size_t differ = 0, lit = 0;
  for (std::size_t i = 0; i < a.rgb.size(); ++i) {
    const int d = std::abs(int(a.rgb[i]) - int(b.rgb[i]));
    worst = std::max(worst, d);
    differ += d != 0;
    lit += a.rgb[i] > 10;
  }
  CHECK(lit > a.rgb.size() / 20);  // a picture, not a black image
  CHECK(worst <= 1);
  CHECK(differ <= a.rgb.size() / 100);
}

// Renders `par` (plus `extra`) with bin/splotch and with 1 to 4 processes (`counts`); compares.
void check_processes(const TempDir& dir, const std::string& name, const std::string& par, const std::string& extra,
                     const std::vector<int>& counts = {1, 2, 3, 4}) {
  const std::string single = dir.file(name + "_single.tga");
  CommandResult s = run_command("bin/splotch " + par + " " + extra + " outfile=" + single);
  REQUIRE(s.status == 0);
  for (int k : counts) {
    INFO(name << " " << extra << ", " << k << " processes");
    const std::string image = dir.file(name + "_np" + std::to_string(k) + ".tga");
    CommandResult r = mpirun(k, par + " " + extra + " outfile=" + image);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    // One report, from rank 0, with the particles of all processes.
    const std::size_t wrote = r.out.find("splotch: wrote ");
    CHECK(wrote != std::string::npos);
    CHECK(r.out.find("splotch: wrote ", wrote + 1) == std::string::npos);
    CHECK(r.out.substr(r.out.find("particles  ")).substr(0, 40) ==
          s.out.substr(s.out.find("particles  ")).substr(0, 40));
    REQUIRE(file_exists(image));
    check_close(single, image);
  }
}

// A clumpy gas cloud with smoothing lengths, in `files` Gadget-2 files.
void write_gadget(const std::string& prefix, int files) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int n = 6000;
  for (int f = 0; f < files; ++f) {
    const int lo = n * f / files, hi = n * (f + 1) / files;
    GadgetTestFile g;
    g.num_files = files;
    g.npart = {std::uint32_t(hi - lo), 0, 0, 0, 0, 0};
    g.npart_total = {std::uint32_t(n), 0, 0, 0, 0, 0};
    g.box_size = 100;
    GadgetTestBlock pos{"POS", {}, 4}, u{"U", {}, 4}, rho{"RHO", {}, 4}, hsml{"HSML", {}, 4};
    for (int i = lo; i < hi; ++i) {
      const double clump = 8.0 * (i % 4);
      pos.values.insert(pos.values.end(), {38 + clump + 4 * normal(rng), 50 + 5 * normal(rng), 50 + 4 * normal(rng)});
      u.values.push_back(std::exp(normal(rng)));
      rho.values.push_back(std::exp(normal(rng)));
      hsml.values.push_back(0.8 + 0.3 * std::abs(normal(rng)));
    }
    g.blocks = {pos, u, rho, hsml};
    const std::string path = prefix + "." + std::to_string(f);
    g.write(path);
    if (splotch::hdf5_supported()) Hdf5TestWriter::write(g, prefix + "." + std::to_string(f) + ".hdf5");
  }
}

const std::string camera =
    "camera_x = 50\ncamera_y = -40\ncamera_z = 80\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\nfov = 50\n"
    "xres = 160\nrenderer = host\n";
const std::string gas_keys =
    "ptypes = 1\nptype0 = 0\nsize_fix0 = 0\nsize_label0 = HSML\ncolor_label0 = U\n"
    "color_log0 = TRUE\nintensity_label0 = RHO\nintensity_log0 = TRUE\n"
    "palette0 = testdata/palettes/fire.pal\nbrightness0 = 0.5\n";

}  // namespace

TEST_CASE("mpi: 1 to 4 processes draw the single process's picture from raw, Gadget, HDF5, Tipsy and RAMSES input") {
  if (!mpi_runs()) return;
  TempDir dir;
  // The demo (raw table), smaller.
  REQUIRE(run_command("bin/make_demo --n 60000 --out " + dir.file("demo.bin")).status == 0);
  // a_eq_e = FALSE: each process draws a range of the draw order, composited on rank 0
  // (splotch/mpi/draw_order_split.h); brighter, so that most pixels are lit.
  const std::string opaque = " a_eq_e=FALSE brightness0=30";
  const std::string demo = "infile=" + dir.file("demo.bin") + " xres=200 colorbar=FALSE";
  check_processes(dir, "demo", "testdata/demo.par", demo);
  check_processes(dir, "demo", "testdata/demo.par", demo + opaque);
  // Every draw order: file order, by colour either way, by size (by depth is the default).
  for (int sort : {0, 2, 3, 4})
    check_processes(dir, "demo", "testdata/demo.par", demo + opaque + " sort_type=" + std::to_string(sort), {3});

  write_gadget(dir.file("snap_000"), 2);
  const std::string gadget =
      dir.write("gadget.par", "simtype = 2\ninfile = " + dir.file("snap_") + "\nfidx = 0\n" + gas_keys + camera);
  check_processes(dir, "gadget", gadget, "");
  check_processes(dir, "gadget", gadget, " a_eq_e=FALSE brightness0=4");
  if (splotch::hdf5_supported()) {
    const std::string hdf5 =
        dir.write("hdf5.par", "simtype = 8\ninfile = " + dir.file("snap_") + "\nfidx = 0\n" + gas_keys + camera);
    check_processes(dir, "hdf5", hdf5, "");
    check_processes(dir, "hdf5", hdf5, " a_eq_e=FALSE brightness0=4");
  } else {
    MESSAGE("MPI HDF5 case skipped: this build has no HDF5");
  }

  // Tipsy: gas records with rho, temp and hsmooth, and dark matter as a second render type (the
  // draw order of file order is type after type, each over all processes' shares).
  TipsyTestFile t;
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int i = 0; i < 5000; ++i)
    t.records[0].push_back({1.0, 50 + 15 * normal(rng), 50 + 15 * normal(rng), 50 + 8 * normal(rng), 0, 0, 0,
                            std::exp(normal(rng)), std::exp(normal(rng)), 1.5 + 0.5 * std::abs(normal(rng)), 0, 0});
  for (int i = 0; i < 3000; ++i)
    t.records[1].push_back({1.0, 50 + 20 * normal(rng), 50 + 20 * normal(rng), 50 + 10 * normal(rng), 0, 0, 0, 0.1, 0});
  t.write(dir.file("run.00100"));
  const std::string tipsy =
      dir.write("tipsy.par", "simtype = 11\ninfile = " + dir.file("run.00100") +
                                 "\nptypes = 2\nptype0 = 0\nsize_fix0 = 0\nsize_label0 = hsmooth\n"
                                 "color_label0 = temp\ncolor_log0 = TRUE\nintensity_label0 = rho\nbrightness0 = 4\n"
                                 "palette0 = testdata/palettes/fire.pal\nptype1 = 1\nsize_fix1 = 1.2\n"
                                 "brightness1 = 0.5\npalette1 = testdata/palettes/fire.pal\n" +
                                 camera);
  check_processes(dir, "tipsy", tipsy, "");
  check_processes(dir, "tipsy", tipsy, " a_eq_e=FALSE brightness0=10 brightness1=3");
  for (int sort : {0, 4})
    check_processes(dir, "tipsy", tipsy, " a_eq_e=FALSE brightness0=10 brightness1=3 sort_type=" + std::to_string(sort),
                    {2, 3});
  // RAMSES: the galaxy's 8 CPU files, shared out as whole files (2, 3 and 4 processes).
  const std::string data = real_data_dir();
  if (!data.empty()) {
    const std::string ramses = dir.write(
        "ramses.par", "simtype = 13\ninfile = " + data + "/ramses_galaxy_particles_output_00010\nptypes = 2\n" +
                          "ptype0 = 1\nsize_fix0 = 0.02\npalette0 = testdata/palettes/fire.pal\nptype1 = 6\n" +
                          "size_fix1 = 0.01\nbrightness1 = 2\npalette1 = testdata/palettes/fire.pal\n" +
                          "camera_x = 0.5\ncamera_y = -1\ncamera_z = 0.5\nlookat_x = 0.5\nlookat_y = 0.5\n" +
                          "lookat_z = 0.5\nfov = 50\nxres = 160\nrenderer = host\nexposure = 0.003\n");
    check_processes(dir, "ramses", ramses, "");
  } else {
    MESSAGE("MPI RAMSES case skipped: ../shared/data is not beside this checkout");
  }

  // No camera: placed from the bounding box of all processes' particles, as one process places it.
  std::string placed = read_file(tipsy);
  placed = placed.substr(0, placed.find(camera)) + "face = TOP\nxres = 160\nrenderer = host\n";
  check_processes(dir, "tipsy_placed", dir.write("placed.par", placed), "", {2, 3});
}

// The images combine within a node through its shared memory, then between nodes through one
// process of each (splotch/mpi/comm.h); SPLOTCH_NODE_PROCESSES makes groups of processes stand in
// for nodes: 4 processes as 2 nodes of 2 (the sum directly, the layers by bands), 5 as nodes of
// 2, 2 and 1, 4 as 4 nodes of one (the sum by bands): the single process's picture each time.
// Without OMP_NUM_THREADS a node's processes share its cores: each takes the cores it may run on
// over the processes that may run on them too; a launcher's binding to fewer cores than a process's
// share of the node's is warned of, with what to do.
TEST_CASE("mpi: processes take their share of the node's cores; a binding to fewer is warned of") {
  if (!mpi_runs()) return;
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 3000 --out " + dir.file("demo.bin")).status == 0);
  const std::string par = " testdata/demo.par infile=" + dir.file("demo.bin") +
                          " xres=64 colorbar=FALSE renderer=host mpi_mode=data outfile=" + dir.file("t.tga");
  const int cores = int(::sysconf(_SC_NPROCESSORS_ONLN));
  auto threads_of = [](const std::string& out) {  // "(64 x 64, host renderer, 2 processes, 2 threads each)"
    const std::size_t line = out.find("splotch: wrote ");
    REQUIRE(line != std::string::npos);
    const std::size_t at = out.find(" thread", line);
    REQUIRE(at != std::string::npos);
    return std::stoi(out.substr(out.rfind(' ', at - 1) + 1));
  };
  const std::string unbound = "mpirun -q --oversubscribe --bind-to none --allow-run-as-root -np ";
  for (int processes : {1, 2}) {
    INFO(processes << " processes, " << cores << " cores");
    const CommandResult r =
        run_command("env -u OMP_NUM_THREADS " + unbound + std::to_string(processes) + " " + mpi_binary + par);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(threads_of(r.out) == std::max(1, cores / processes));
  }
  // OMP_NUM_THREADS, where given, is kept.
  CHECK(threads_of(run_command(unbound + "1 -x OMP_NUM_THREADS=1 " + mpi_binary + par).out) == 1);
  // One process bound to one core of several: warned, with --bind-to none to try.
  const CommandResult bound =
      run_command("env -u OMP_NUM_THREADS mpirun -q --allow-run-as-root --bind-to core -np 1 " + mpi_binary + par);
  CHECK(bound.status == 0);
  CHECK(threads_of(bound.out) == 1);
  if (cores > 1) {
    CHECK(bound.err.find("process 0 may run on 1 of its node's " + std::to_string(cores) + " cores") !=
          std::string::npos);
    CHECK(bound.err.find("--bind-to none") != std::string::npos);
  } else {
    CHECK(bound.err == "");
  }
}

TEST_CASE("mpi: processes standing in for several nodes combine their images as one process draws them") {
  if (!mpi_runs()) return;
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 60000 --out " + dir.file("demo.bin")).status == 0);
  const std::string demo = "testdata/demo.par infile=" + dir.file("demo.bin") + " xres=200 colorbar=FALSE";
  for (const std::string& keys : {std::string(""), std::string(" a_eq_e=FALSE brightness0=30")}) {
    const std::string single = dir.file("single.tga");
    REQUIRE(run_command("bin/splotch " + demo + keys + " outfile=" + single).status == 0);
    for (const auto& [processes, per_node] : {std::pair{4, 2}, std::pair{5, 2}, std::pair{4, 1}}) {
      INFO(processes << " processes, " << per_node << " a node" << keys);
      const std::string image = dir.file("nodes.tga");
      const CommandResult r = run_command(
          "mpirun -q --oversubscribe --bind-to none --allow-run-as-root -x OMP_NUM_THREADS=1 -x "
          "SPLOTCH_NODE_PROCESSES=" +
          std::to_string(per_node) + " -np " + std::to_string(processes) + " " + mpi_binary + " " + demo + keys +
          " mpi_mode=data outfile=" + image);
      CHECK(r.status == 0);
      CHECK(r.err == "");
      CHECK(r.out.find("  reduce ") != std::string::npos);
      check_close(single, image);
    }
  }
}

TEST_CASE("mpi: a stereo pair and a panorama's faces from the processes' shares, as one process draws them") {
  if (!mpi_runs()) return;
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 30000 --out " + dir.file("demo.bin")).status == 0);
  const std::string demo = "testdata/demo.par infile=" + dir.file("demo.bin") + " xres=120 colorbar=FALSE";
  struct Views {
    std::string keys;
    std::vector<std::string> prefixes;
  };
  for (const Views& v :
       {Views{"EyeSeparation=2 a_eq_e=FALSE brightness0=30", {"right_", "left_"}},
        Views{"panorama=TRUE camera_x=50 camera_y=50 camera_z=50 brightness0=0.05", {"1_", "3_", "5_"}}}) {
    INFO(v.keys);
    REQUIRE(run_command("bin/splotch " + demo + " " + v.keys + " outfile=" + dir.file("one.tga")).status == 0);
    const CommandResult r = mpirun(2, demo + " " + v.keys + " outfile=" + dir.file("two.tga"));
    CHECK(r.status == 0);
    CHECK(r.err == "");
    for (const std::string& prefix : v.prefixes)
      check_close(dir.file(prefix + "one.tga"), dir.file(prefix + "two.tga"));
  }
  // Rank 0 alone writes the pictures: when it cannot (a directory where the right eye's picture
  // goes), every process stops with its error instead of waiting for the next view.
  REQUIRE(run_command("mkdir " + dir.file("right_blocked.tga")).status == 0);
  const CommandResult blocked = run_command(
      "timeout 120 mpirun -q --oversubscribe --bind-to none --allow-run-as-root -x OMP_NUM_THREADS=1 -np 2 " +
      mpi_binary + " " + demo + " EyeSeparation=2 mpi_mode=data outfile=" + dir.file("blocked.tga"));
  CHECK(blocked.status == 1);
  CHECK(blocked.err.find("process 0 of 2: cannot write image") != std::string::npos);
}

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// How often `text` holds `part`.
std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

// A Gadget snapshot of two processes' worth and its .par, and the check that a run ended with one
// error naming `text` and wrote no `image`.
struct OneErrorCases {
  TempDir dir;
  std::string par = make_par();
  std::string make_par() {
    write_gadget(dir.file("snap_000"), 2);
    return dir.write("gadget.par", "simtype = 2\ninfile = " + dir.file("snap_") + "\nfidx = 0\n" + gas_keys + camera);
  }
  static void one_error(const CommandResult& r, const std::string& text, const std::string& image) {
    INFO(r.err);
    CHECK(r.status != 0);
    CHECK(r.err.rfind("splotch: error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(text) != std::string::npos);
    CHECK(!file_exists(image));
  }
};

TEST_CASE_FIXTURE(OneErrorCases, "mpi: what several processes cannot do ends the job with one message, said once") {
  if (!mpi_runs()) return;
  const std::string image = dir.file("never.tga");
  one_error(mpirun(3, par + " size_estimate0=knn outfile=" + image), "size_estimate0 = knn cannot run with 3", image);
  // A scene of such frames: one error before the first frame with mpi_mode = data; auto deals its
  // frames out even to more processes than frames, and says why.
  const std::string scene = dir.write("two.txt", "camera_x\n-60\n-40\n");
  one_error(mpirun(3, par + " size_estimate0=knn mpi_mode=data scene_file=" + scene + " outfile=" + dir.file("kd_")),
            "size_estimate0 = knn cannot run with 3 MPI processes", dir.file("kd_0000.tga"));
  {
    REQUIRE(
        run_command("bin/splotch " + par + " size_estimate0=knn scene_file=" + scene + " outfile=" + dir.file("k1_"))
            .status == 0);
    const CommandResult r = mpirun(3, par + " size_estimate0=knn scene_file=" + scene + " outfile=" + dir.file("k3_"));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(occurrences(r.out,
                      "the frames are dealt out to the processes (the scene has 2 frames for 3 processes, but "
                      "smoothing lengths from the nearest neighbours need whole snapshots)") == 1);
    for (const char* f : {"0000.tga", "0001.tga"})
      CHECK(file_text(dir.file(std::string("k3_") + f)) == file_text(dir.file(std::string("k1_") + f)));
  }
  // A type the snapshot has none of is skipped under MPI too (its smoothing lengths are not
  // estimated, which several processes could not do), with one warning.
  const CommandResult skipped = mpirun(2, par + " ptypes=2 ptype1=4 palette1=ice outfile=" + dir.file("skip.tga"));
  INFO(skipped.err);
  CHECK(skipped.status == 0);
  CHECK(std::count(skipped.err.begin(), skipped.err.end(), '\n') == 1);
  CHECK(skipped.err.find("holds no particles of type 4") != std::string::npos);
  // Smoothing lengths the file gives as one value for all cannot be estimated by several
  // processes: kept, and said once.
  GadgetTestFile one_value;
  one_value.npart = one_value.npart_total = {2000, 0, 0, 0, 0, 0};
  one_value.box_size = 100;
  GadgetTestBlock pos{"POS", {}, 4}, hsml{"HSML", std::vector<double>(2000, 0.5), 4};
  for (int i = 0; i < 2000; ++i)
    pos.values.insert(pos.values.end(), {40.0 + i % 20, 40.0 + i / 20 % 10, 50.0 + i / 200});
  one_value.blocks = {pos, hsml};
  one_value.write(dir.file("one_value"));
  const std::string one_par = dir.write(
      "one.par", "simtype = 2\ninfile = " + dir.file("one_value") + "\npalette0 = fire\nbrightness0 = 1\n" + camera);
  const CommandResult constant = mpirun(2, one_par + " outfile=" + dir.file("one_value.tga"));
  INFO(constant.err);
  CHECK(constant.status == 0);
  CHECK(std::count(constant.err.begin(), constant.err.end(), '\n') == 1);
  CHECK(constant.err.find("is one value for all 1000 particles of this process's share (0.5)") != std::string::npos);
}

TEST_CASE_FIXTURE(OneErrorCases, "mpi: an error on one process, or on all, ends the job with one message") {
  if (!mpi_runs()) return;
  const std::string image = dir.file("never.tga");
  // What every process meets names none of them.
  const CommandResult all = mpirun(2, par + " fov=200 outfile=" + image);
  one_error(all, "fov", image);
  CHECK(all.err.find("process 0 of 2") == std::string::npos);
  // An error only process 1 of 2 meets: its share, the second half of a raw file, is in the
  // other byte order.
  std::string raw;
  for (int i = 0; i < 4000; ++i) {
    float v[6] = {40.0f + float(i % 20), 45.0f + float(i % 13), 50.0f + float(i % 7), 1.0f, 1.0f, 1.0f + float(i % 5)};
    if (i < 2000) splotch::swap_bytes_4(v, 6);  // big-endian, as the keys say; the rest is not
    raw.append(reinterpret_cast<const char*>(v), sizeof v);
  }
  write_file(dir.file("half.bin"), raw);
  const std::string half = dir.write("raw.par", "simtype = 0\ninfile = " + dir.file("half.bin") +
                                                    "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                                                    "palette0 = testdata/palettes/fire.pal\n" +
                                                    camera);
  // Invalid particles, spread over the processes' shares: one warning with the counts of all, as
  // the single process gives it.
  std::string invalid;
  for (int i = 0; i < 3000; ++i) {
    float v[6] = {40.0f + float(i % 20), 45.0f + float(i % 13), 50.0f + float(i % 7), 1.0f, 1.0f, 1.0f + float(i % 5)};
    if (i % 500 == 7) v[0] = std::nanf("");
    if (i % 700 == 3) v[3] = 0;
    splotch::swap_bytes_4(v, 6);
    invalid.append(reinterpret_cast<const char*>(v), sizeof v);
  }
  write_file(dir.file("invalid.bin"), invalid);
  const std::string some = dir.write("invalid.par", "simtype = 0\ninfile = " + dir.file("invalid.bin") +
                                                        "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                                                        "palette0 = testdata/palettes/fire.pal\n" +
                                                        camera);
  const CommandResult one = run_command("bin/splotch " + some + " outfile=" + dir.file("invalid1.tga"));
  const CommandResult three = mpirun(3, some + " outfile=" + dir.file("invalid3.tga"));
  CHECK(one.status == 0);
  CHECK(three.status == 0);
  INFO(one.err << three.err);
  CHECK(one.err.find("11 of 3000 particles") != std::string::npos);
  CHECK(one.err.find("with a NaN or infinite position") != std::string::npos);
  CHECK(three.err.substr(0, three.err.find(dir.file(""))) == one.err.substr(0, one.err.find(dir.file(""))));
  CHECK(three.err.substr(three.err.find("' skipped")) == one.err.substr(one.err.find("' skipped")));

  one_error(mpirun(2, half + " outfile=" + image), "process 1 of 2: raw file", image);
  CHECK(mpirun(2, half + " outfile=" + image).err.find("seems to have the other byte order") != std::string::npos);
}

// A scene of 7 frames of the demo, rendered by one process ("one0000.tga", ...), to compare with.
struct DealtScene {
  static constexpr int frames = 7;
  TempDir dir;
  std::string par = make_par();
  std::string make_par() {
    REQUIRE(run_command("bin/make_demo --n 30000 --out " + dir.file("demo.bin")).status == 0);
    std::string scene = "camera_x camera_y\n";
    for (int i = 0; i < frames; ++i) scene += std::to_string(i * 20 - 60) + " " + std::to_string(i * 5 + 1) + "\n";
    const std::string p = "testdata/demo.par infile=" + dir.file("demo.bin") +
                          " xres=120 colorbar=FALSE renderer=host "
                          "scene_file=" +
                          dir.write("scene.txt", scene);
    if (mpi_runs()) REQUIRE(run_command("bin/splotch " + p + " outfile=" + dir.file("one")).status == 0);
    return p;
  }
  std::string frame(const std::string& name, int i) const {
    char number[8];
    std::snprintf(number, sizeof number, "%04d", i);
    return dir.file(name + number + ".tga");
  }
};

TEST_CASE_FIXTURE(DealtScene,
                  "mpi: the frames of a scene are dealt out to the processes, each rendered once as one process "
                  "renders it; resume") {
  if (!mpi_runs()) return;

  // More frames than processes: dealt out (auto); every frame once, each the single run's image.
  for (int k : {2, 3, 4}) {
    INFO(k << " processes");
    const std::string name = "np" + std::to_string(k) + "_";
    const CommandResult r = mpirun(k, par + " outfile=" + dir.file(name));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(occurrences(r.out, "scene: 7 frames dealt out to " + std::to_string(k) + " processes: 7 rendered") == 1);
    for (int i = 0; i < frames; ++i) {
      CHECK(occurrences(r.out, "frame " + std::to_string(i + 1) + " of 7 (") == 1);
      REQUIRE(file_exists(frame(name, i)));
      CHECK(file_text(frame(name, i)) == file_text(frame("one", i)));
    }
    CHECK(!file_exists(frame(name, frames)));
  }
  // Each frame's line names the process that rendered it; each process's first read waited for
  // its node's turn (a stage of its own in its summary).
  {
    const CommandResult r = mpirun(2, par + " outfile=" + dir.file("two_"));
    CHECK(occurrences(r.out, "process 0: frame ") + occurrences(r.out, "process 1: frame ") == 7);
    for (const char* p : {"process 0:   stages over ", "process 1:   stages over "}) {
      const std::size_t at = r.out.find(p);
      REQUIRE(at != std::string::npos);
      CHECK(r.out.substr(at, r.out.find('\n', at) - at).find(" turn ") != std::string::npos);
    }
  }

  // resume: only the missing frames are rendered, each once.
  REQUIRE(std::remove(frame("np3_", 2).c_str()) == 0);
  REQUIRE(std::remove(frame("np3_", 5).c_str()) == 0);
  {
    const CommandResult r = mpirun(3, par + " resume=TRUE outfile=" + dir.file("np3_"));
    CHECK(r.status == 0);
    CHECK(occurrences(r.out, "scene: 7 frames dealt out to 3 processes: 2 rendered, 5 skipped") == 1);
    CHECK(file_text(frame("np3_", 5)) == file_text(frame("one", 5)));
  }
}

TEST_CASE_FIXTURE(DealtScene,
                  "mpi: a scene's frames by all processes, or dealt out; a frame that fails; what cannot be") {
  if (!mpi_runs()) return;
  // mpi_mode = data: each frame by all processes, images within float rounding.
  {
    const CommandResult r = mpirun(3, par + " mpi_mode=data outfile=" + dir.file("data_"));
    CHECK(r.status == 0);
    CHECK(occurrences(r.out, "dealt out") == 0);
    CHECK(occurrences(r.out, "scene: 7 frames: 7 rendered") == 1);
    CHECK(occurrences(r.out, "; 1 snapshot read, ") == 1);  // each process's share kept for the frames after
    for (int i = 0; i < frames; ++i) check_close(frame("one", i), frame("data_", i));
  }
  // ... and read again where a frame draws another snapshot, by every process together.
  {
    REQUIRE(run_command("bin/make_demo --n 20000 --seed 11 --out " + dir.file("other.bin")).status == 0);
    const std::string a = dir.file("demo.bin"), b = dir.file("other.bin");
    const std::string files = "testdata/demo.par xres=120 colorbar=FALSE renderer=host scene_file=" +
                              dir.write("files.txt", "infile camera_x\n" + a + " -60\n" + a + " -40\n" + b + " -20\n" +
                                                         b + " 0\n" + a + " 20\n");
    REQUIRE(run_command("bin/splotch " + files + " outfile=" + dir.file("fone_")).status == 0);
    const CommandResult r = mpirun(2, files + " mpi_mode=data scene_read_ahead=TRUE outfile=" + dir.file("fdata_"));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(occurrences(r.out, "scene: 5 frames: 5 rendered") == 1);
    CHECK(occurrences(r.out, "; 3 snapshot reads, 0 of them while a frame rendered") == 1);
    CHECK(occurrences(r.err, "scene_read_ahead = TRUE reads nothing ahead when every process draws each frame") == 1);
    for (int i = 0; i < 5; ++i) check_close(frame("fone_", i), frame("fdata_", i));
  }
  // Fewer frames than processes: each frame by all (auto), or dealt out when asked.
  {
    const std::string two = par + " last_scene=1";
    const CommandResult few = mpirun(3, two + " outfile=" + dir.file("few_"));
    CHECK(occurrences(few.out, "scene: 2 frames: 2 rendered") == 1);
    CHECK(occurrences(few.out,
                      "note: mpi_mode = auto: every process draws each frame, from its share of the "
                      "particles (the scene has 2 frames for 3 processes)") == 1);
    const CommandResult r = mpirun(3, two + " mpi_mode=frames outfile=" + dir.file("fewf_"));
    CHECK(r.status == 0);
    CHECK(occurrences(r.out, "scene: 2 frames dealt out to 3 processes: 2 rendered") == 1);
    CHECK(file_text(frame("fewf_", 1)) == file_text(frame("one", 1)));
  }

  // A frame that fails: the others are written, the job ends with status 1 and says why.
  std::string bad_scene = "camera_x camera_y infile\n";
  for (int i = 0; i < frames; ++i)
    bad_scene += std::to_string(i * 20 - 60) + " 1 " + (i == 4 ? dir.file("nothing.bin") : dir.file("demo.bin")) + "\n";
  {
    const CommandResult r =
        mpirun(3, par + " scene_file=" + dir.write("bad.txt", bad_scene) + " outfile=" + dir.file("bad_"));
    CHECK(r.status == 1);
    CHECK(occurrences(r.out, "6 rendered, 0 skipped (resume), 1 failed") == 1);
    CHECK(occurrences(r.err, "frame 5 of 7 (") == 1);
    CHECK(occurrences(r.err, "failed: ") == 1);
    CHECK(!file_exists(frame("bad_", 4)));
    CHECK(file_exists(frame("bad_", 6)));
  }

  // Asked for what cannot be.
  const CommandResult single = mpirun(2, "testdata/demo.par infile=" + dir.file("demo.bin") + " mpi_mode=frames");
  CHECK(single.status == 1);
  CHECK(occurrences(single.err, "mpi_mode = frames deals out the frames of a scene file, and there is no scene_file") ==
        1);
  const CommandResult typo = mpirun(2, par + " mpi_mode=frame outfile=" + dir.file("typo_"));
  CHECK(typo.status == 1);
  CHECK(occurrences(typo.err, "mpi_mode = 'frame' is not one of auto, data, frames") == 1);
}

TEST_CASE("mpi: one GPU per process of a node, the processes beyond the node's GPUs on the host" *
          doctest::skip(splotch::testing::no_gpu())) {
  if (!mpi_runs()) return;
  int gpus = 1;
  while (splotch::cuda_device_present(nullptr, gpus)) ++gpus;
  const int k = gpus + 1;  // one process more than GPUs
  TempDir dir;
  // Enough particles (3e6 a process, on one thread) that renderer = auto's model
  // (splotch/render/renderer_cost.h) chooses the GPU for a process that has one, even with the
  // GPU's whole start left to wait for.
  REQUIRE(run_command("bin/make_demo --n " + std::to_string(3000000 * k) + " --out " + dir.file("demo.bin")).status ==
          0);
  const std::string par = "testdata/demo.par infile=" + dir.file("demo.bin") + " xres=200 colorbar=FALSE";
  REQUIRE(run_command("bin/splotch " + par + " renderer=host outfile=" + dir.file("host.tga")).status == 0);
  const CommandResult r = mpirun(k, par + " renderer=auto outfile=" + dir.file("auto.tga"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find(std::to_string(gpus) + " of " + std::to_string(k) + " processes on a GPU (" + std::to_string(gpus) +
                   (gpus == 1 ? " GPU" : " GPUs") + "), the others on the host") != std::string::npos);
  check_close(dir.file("host.tga"), dir.file("auto.tga"));
  // renderer = cuda where every process draws: the process without a GPU of its own says so, and
  // the job ends; with frames dealt out, before any frame.
  const CommandResult cuda = mpirun(k, par + " renderer=cuda mpi_mode=data outfile=" + dir.file("cuda.tga"));
  CHECK(cuda.status == 1);
  CHECK(cuda.err.find("process " + std::to_string(gpus) + " of " + std::to_string(k) + ": ") != std::string::npos);
  CHECK(cuda.err.find("no GPU of its own") != std::string::npos);
  CHECK(!file_exists(dir.file("cuda.tga")));
  const std::string scene = dir.write("scene.txt", "camera_x\n-60\n-40\n-20\n0\n20\n");
  const CommandResult frames =
      mpirun(k, par + " renderer=cuda mpi_mode=frames scene_file=" + scene + " outfile=" + dir.file("frame_"));
  CHECK(frames.status == 1);
  CHECK(frames.err.find("no GPU of its own") != std::string::npos);
  CHECK(!file_exists(dir.file("frame_0000.tga")));
  // mpi_mode = auto, whose processes other than rank 0 look for their GPUs (CUDA) only once they
  // draw: the driver's list of GPUs tells the same before any particle is read.
  const CommandResult shared = mpirun(k, par + " renderer=cuda mpi_mode=auto outfile=" + dir.file("shared.tga"));
  INFO(shared.out << shared.err);
  CHECK(shared.status == 1);
  CHECK(shared.err.find("process " + std::to_string(gpus) + " of " + std::to_string(k) + ": ") != std::string::npos);
  CHECK(shared.err.find("no GPU of its own (GPU " + std::to_string(gpus) + " wanted") != std::string::npos);
  CHECK(shared.err.find("renderer = cuda") != std::string::npos);
  CHECK(shared.out.find("particles ") == std::string::npos);  // (none read)
  CHECK(!file_exists(dir.file("shared.tga")));
  // A launcher that gives each process a GPU of its own (CUDA_VISIBLE_DEVICES, here one GPU by
  // index and by UUID): each uses the first it sees.
  const CommandResult smi = run_command("nvidia-smi -L");
  const std::size_t uuid = smi.out.find("UUID: ");
  if (gpus == 1 && uuid != std::string::npos) {
    const std::string id = smi.out.substr(uuid + 6, smi.out.find(')', uuid) - uuid - 6);
    const std::string args = " " + par + " renderer=cuda mpi_mode=data outfile=" + dir.file("own.tga");
    const CommandResult own = run_command(
        "mpirun -q --oversubscribe --bind-to none --allow-run-as-root -x OMP_NUM_THREADS=1 "
        "-np 1 -x CUDA_VISIBLE_DEVICES=0 " +
        mpi_binary + args + " : -np 1 -x CUDA_VISIBLE_DEVICES=" + id + " " + mpi_binary + args);
    INFO(own.out << own.err);
    CHECK(own.status == 0);
    CHECK(own.out.find("cuda (") != std::string::npos);
    CHECK(own.out.find("2 processes on 1 GPU") != std::string::npos);  // both on one
    check_close(dir.file("host.tga"), dir.file("own.tga"));
  }
}

TEST_CASE("mpi: processes on GPUs of their own draw the single GPU's pictures, data- and frame-parallel" *
          doctest::skip(splotch::testing::no_gpu())) {
  if (!mpi_runs()) return;
  int gpus = 0;
  while (splotch::cuda_device_present(nullptr, gpus)) ++gpus;
  if (gpus < 2) {
    MESSAGE("multi-GPU MPI case skipped: " << gpus << " GPU here, it needs 2 or more");
    return;
  }
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 200000 --out " + dir.file("demo.bin")).status == 0);
  write_gadget(dir.file("snap_000"), 2 * gpus);
  const std::string gadget =
      dir.write("gadget.par", "simtype = 2\ninfile = " + dir.file("snap_") + "\nfidx = 0\n" + gas_keys + camera);
  const std::string demo = "testdata/demo.par infile=" + dir.file("demo.bin") + " xres=300 colorbar=FALSE";
  const std::string on_gpus = std::to_string(gpus) + " processes on " + std::to_string(gpus) + " GPUs";
  struct Case {
    std::string name, par, extra;
  };
  for (const Case& c : {Case{"demo", demo, ""}, Case{"demo_opaque", demo, " a_eq_e=FALSE brightness0=30"},
                        Case{"gadget", gadget, ""}, Case{"gadget_opaque", gadget, " a_eq_e=FALSE brightness0=4"}}) {
    INFO(c.name << c.extra);
    const std::string single = dir.file(c.name + "_single.tga"), several = dir.file(c.name + "_gpus.tga");
    const CommandResult s = run_command("bin/splotch " + c.par + c.extra + " renderer=cuda outfile=" + single);
    REQUIRE(s.status == 0);
    const CommandResult r = mpirun(gpus, c.par + c.extra + " renderer=cuda outfile=" + several);
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(occurrences(r.out, on_gpus) == 1);
    CHECK(r.out.substr(r.out.find("particles  ")).substr(0, 40) ==
          s.out.substr(s.out.find("particles  ")).substr(0, 40));
    // a_eq_e = FALSE: the GPUs split the draw order between them, GPU to GPU.
    if (!c.extra.empty()) CHECK(occurrences(r.out, "this process's range gathered from the GPUs, GPU to GPU") == 1);
    check_close(single, several);
  }

  // mpi_mode = auto: so few particles draw sooner on one GPU than on several (the second's start
  // alone costs more than it saves): rank 0 draws alone, says so, and the others leave at once.
  {
    const std::string single = dir.file("alone_single.tga"), alone = dir.file("alone_gpus.tga");
    REQUIRE(run_command("bin/splotch " + demo + " renderer=cuda outfile=" + single).status == 0);
    const CommandResult r = mpirun(gpus, demo + " renderer=cuda mpi_mode=auto outfile=" + alone);
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(occurrences(r.out, "mpi_mode = auto: rank 0 alone draws this frame") == 1);
    CHECK(r.out.find("  reduce ") == std::string::npos);  // nothing to combine
    check_close(single, alone);
  }

  // Frames dealt out: each rendered once, on its process's GPU, as one process renders it.
  std::string scene = "camera_x camera_y\n";
  const int frames = 2 * gpus + 1;
  for (int i = 0; i < frames; ++i) scene += std::to_string(i * 20 - 60) + " " + std::to_string(i * 5 + 1) + "\n";
  const std::string par = demo + " renderer=cuda scene_file=" + dir.write("scene.txt", scene);
  REQUIRE(run_command("bin/splotch " + par + " outfile=" + dir.file("one_")).status == 0);
  const CommandResult r = mpirun(gpus, par + " mpi_mode=frames outfile=" + dir.file("dealt_"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(occurrences(r.out, "dealt out to " + std::to_string(gpus) + " processes: " + std::to_string(frames) +
                               " rendered") == 1);
  // Each process on a GPU of its own, though each sees that one alone (see_own_gpu_only).
  std::set<std::string> buses;
  int drew = 0;
  const std::string on = " on the GPU at PCI ";
  for (std::size_t at = r.out.find(on); at != std::string::npos; at = r.out.find(on, at + 1), ++drew)
    buses.insert(r.out.substr(at + on.size(), r.out.find(';', at) - at - on.size()));
  CHECK(drew >= 2);
  CHECK(int(buses.size()) == drew);
  for (int i = 0; i < frames; ++i) {
    char number[16];
    std::snprintf(number, sizeof number, "%04d", i);
    check_close(dir.file(std::string("one_") + number + ".tga"), dir.file(std::string("dealt_") + number + ".tga"));
  }
}

// mpi_mode = auto, a single frame: the share model (splotch/render/share_cost.h) decides, and
// rank 0 says what it chose (which depends on the cores here: tests/unit/test_share_cost.cc checks the
// choices); either way the single process's picture. mpi_mode = data has every process draw
// without the model.
TEST_CASE("mpi: mpi_mode = auto weighs who draws a single frame and says so; mpi_mode = data shares it") {
  if (!mpi_runs()) return;
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 60000 --out " + dir.file("demo.bin")).status == 0);
  const std::string par = "testdata/demo.par infile=" + dir.file("demo.bin") + " xres=200 colorbar=FALSE renderer=host";
  const std::string single = dir.file("single.tga");
  REQUIRE(run_command("bin/splotch " + par + " outfile=" + single).status == 0);
  const CommandResult all = mpirun(3, par + " mpi_mode=auto outfile=" + dir.file("all.tga"));
  CHECK(all.status == 0);
  CHECK(all.err == "");
  CHECK(occurrences(all.out, "note: mpi_mode = auto: ") == 1);
  CHECK(occurrences(all.out, "on all 3 processes, for 6e+04 particles at 0.04 Mpixels") == 1);
  const bool alone = all.out.find("rank 0 alone draws this frame") != std::string::npos;
  CHECK(alone == (all.out.find("  reduce ") == std::string::npos));  // a reduce where all drew
  check_close(single, dir.file("all.tga"));
  const CommandResult shared = mpirun(3, par + " mpi_mode=data outfile=" + dir.file("shared.tga"));
  CHECK(shared.status == 0);
  CHECK(shared.out.find("mpi_mode = auto") == std::string::npos);
  CHECK(shared.out.find("  reduce ") != std::string::npos);
  check_close(single, dir.file("shared.tga"));

  // Smoothing lengths estimated from the neighbours need every particle in one process: rank 0
  // alone draws, and says why; mpi_mode = data refuses, saying what to do.
  write_gadget(dir.file("snap_000"), 2);
  const std::string gadget =
      dir.write("gadget.par", "simtype = 2\ninfile = " + dir.file("snap_") + "\nfidx = 0\n" + gas_keys + camera) +
      " size_estimate0=knn renderer=host";
  REQUIRE(run_command("bin/splotch " + gadget + " outfile=" + dir.file("knn_single.tga")).status == 0);
  const CommandResult knn = mpirun(2, gadget + " mpi_mode=auto outfile=" + dir.file("knn_alone.tga"));
  INFO(knn.out << knn.err);
  CHECK(knn.status == 0);
  CHECK(occurrences(knn.out,
                    "mpi_mode = auto: rank 0 alone draws this frame: the smoothing lengths of ptype0 are "
                    "estimated from the nearest neighbours") == 1);
  check_close(dir.file("knn_single.tga"), dir.file("knn_alone.tga"));
  const CommandResult refused = mpirun(2, gadget + " mpi_mode=data outfile=" + dir.file("knn_data.tga"));
  CHECK(refused.status == 1);
  CHECK(refused.err.find("cannot run with 2 MPI processes") != std::string::npos);
}

TEST_CASE("mpi: a column map of 3 processes is the single process's, and keeps the box's mass") {
  if (!mpi_runs()) return;
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("MPI map test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  const std::string par = dir.write("map.par", "simtype = 8\ninfile = " + data +
                                                   "/gadget4_lcdm_gas_snapshot_000.hdf5\nptypes = 1\nptype0 = 0\n"
                                                   "map = column\nmap_units = code\nxres = 64\nyres = 64\n"
                                                   "map_width = 50000\ncamera_x = 25000\ncamera_y = 25000\n"
                                                   "camera_z = 125000\nlookat_x = 25000\nlookat_y = 25000\n"
                                                   "lookat_z = 25000\nsky_x = 0\nsky_y = 1\nsky_z = 0\n");
  std::vector<std::vector<float>> maps;
  for (int processes : {1, 3}) {
    const std::string out = dir.path("m" + std::to_string(processes) + ".npy");
    const CommandResult r = mpirun(processes, par + " outfile=" + out);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    maps.push_back(read_npy(out));
    REQUIRE(maps.back().size() == 64u * 64u);
  }
  const splotch::Hdf5File file(data + "/gadget4_lcdm_gas_snapshot_000.hdf5");
  const double mass = double(file.header().count(0)) * file.header().mass_of(0), pixel = 50000.0 / 64;
  double total = 0, top = 0, worst = 0;
  for (std::size_t i = 0; i < maps[0].size(); ++i) {
    total += double(maps[1][i]) * pixel * pixel;
    top = std::max(top, double(maps[0][i]));
    worst = std::max(worst, std::fabs(double(maps[1][i]) - double(maps[0][i])));
  }
  CHECK(std::fabs(total / mass - 1) < 1e-5);
  CHECK(worst < 1e-6 * top);
}
