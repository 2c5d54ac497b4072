// What bin/splotch is given in place of a parameter file is named as what it is, in one line, at
// once, or drawn: a Gadget, HDF5 or Tipsy snapshot (a first picture, with the keys --init chooses), a Tipsy
// auxiliary array (and --info says what it is), a directory, an empty file, a device or a binary
// file (the first byte that is not text, escaped), a file over 1 MiB, a text of no key = value
// line.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "io/hdf5_file.h"
#include "io/image_reader.h"
#include "splotch/app/input_kind.h"
#include "splotch/util/file_paths.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

// bin/splotch's one error line for `args`: status 1, one line, within a few seconds even for a
// device that never ends (timeout 20 s would show as status 124).
std::string error_of(const std::string& args) {
  const CommandResult r = run_command("timeout 20 bin/splotch " + args);
  CHECK(r.status == 1);
  CHECK(r.err.rfind("splotch: error: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  return r.err;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TipsyTestFile gas_and_dark(int gas, int dark) {
  TipsyTestFile t;
  for (int i = 0; i < gas; ++i) t.records[0].push_back({1, double(i), 0, 0, 0, 0, 0, 1, 1, 0.5, 0, 0});
  for (int i = 0; i < dark; ++i) t.records[1].push_back({1, double(i), 1, 0, 0, 0, 0, 0.1, 0});
  return t;
}

}  // namespace

TEST_CASE("input kind: a snapshot given as the parameter file is drawn with the choices of --init") {
  TempDir dir;
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string bin = std::string(here) + "/bin/splotch";
  const std::string gadget = dir.path("snap_010.0");
  snapshot({2, false, 4, 4}, 300, 200).write(gadget);
  CHECK(input_kind(gadget).kind == InputKind::Kind::snapshot);
  CHECK(input_kind(gadget).format == SnapshotFormat::gadget);
  // In the working directory: <snapshot name>.png and its record.
  const CommandResult g = run_command("cd " + dir.path() + " && " + bin + " " + gadget + " xres=64");
  CHECK(g.status == 0);
  CHECK(file_exists(dir.path("snap_010.0.png")));
  CHECK(file_exists(dir.path("snap_010.0.png.used.par")));
  const std::string tipsy = dir.path("run.00100");
  gas_and_dark(60, 2).write(tipsy);
  CHECK(run_command("cd " + dir.path() + " && " + bin + " " + tipsy + " xres=64").status == 0);
  CHECK(file_exists(dir.path("run.00100.png")));
  if (hdf5_supported()) {
    const std::string hdf5 = dir.path("snap_010.hdf5");
    Hdf5TestWriter::write(snapshot({2, false, 4, 4}, 300, 200), hdf5);
    CHECK(input_kind(hdf5).format == SnapshotFormat::hdf5);
    CHECK(run_command("cd " + dir.path() + " && " + bin + " " + hdf5 + " xres=64").status == 0);
    CHECK(file_exists(dir.path("snap_010.png")));
  }
  // The choices are overridden as a parameter file's keys are.
  CHECK(contains(error_of(gadget + " color_log0=maybe"), "command line: color_log0 = 'maybe' is not a boolean"));
  // A size_fix0 (or size_label0) given takes the place of the first picture's size_estimate0 = auto
  // instead of contradicting it; its record says so, and renders the same picture.
  const CommandResult fixed =
      run_command("cd " + dir.path() + " && " + bin + " " + gadget + " xres=64 size_fix0=0.5 outfile=fixed.png");
  CHECK(fixed.status == 0);
  CHECK(contains(fixed.out + fixed.err, "0.5 for every particle (size_fix0)"));
  const std::string record = read_file(dir.path("fixed.png.used.par"));
  CHECK(contains(record, "size_estimate0 = none"));
  CHECK(run_command("cd " + dir.path() + " && " + bin + " fixed.png.used.par outfile=again.png").status == 0);
  CHECK(read_file(dir.path("again.png")) == read_file(dir.path("fixed.png")));
  // --info on the snapshot itself still reads it.
  const CommandResult info = run_command("bin/splotch --info " + gadget);
  CHECK(info.status == 0);
  CHECK(contains(info.out, "300 particles"));
}

TEST_CASE("input kind: a RAMSES output directory is drawn, and --init writes its parameter file") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("RAMSES first-picture test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string bin = std::string(here) + "/bin/splotch";
  const std::string output = absolute_path(data + "/ramses_multimat2d_output_00001");
  CHECK(input_kind(output).format == SnapshotFormat::ramses);
  CHECK(input_kind(output + "/info_00001.txt").format == SnapshotFormat::ramses);
  const CommandResult r = run_command("cd " + dir.path() + " && " + bin + " " + output + " xres=64");
  CHECK(r.status == 0);
  CHECK(contains(r.err + r.out, "6712 read"));
  CHECK(contains(r.err + r.out, "face = TOP"));  // a 2-D run, seen from +z
  CHECK(file_exists(dir.path("ramses_multimat2d_output_00001.png")));
  const CommandResult init = run_command(bin + " --init " + output);
  CHECK(init.status == 0);
  CHECK(contains(init.out, "simtype"));
  CHECK(contains(init.out, "13"));
  CHECK(contains(init.out, "color_label0"));
  CHECK(contains(init.out, "density"));
  const CommandResult info = run_command(bin + " --info " + output);
  CHECK(info.status == 0);
  CHECK(contains(info.out, "RAMSES output 00001 (1 CPU file, 2-D, levels 3 to 7)"));
  CHECK(contains(info.out, "true_dens_01"));
  // A slice through one layer of cells is no value of the field: an error saying what to draw.
  CHECK(contains(error_of(output + " map=slice xres=16"), "map = average with map_quantity0"));
}

TEST_CASE("input kind: a RAMSES run's first picture lights cells of every level alike (Sedov, density 1)") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("RAMSES level test skipped: ../shared/data is not beside this checkout");
    return;
  }
  TempDir dir;
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string output = absolute_path(data + "/ramses_sedov2d_output_00001");
  const CommandResult r = run_command("cd " + dir.path() + " && " + std::string(here) + "/bin/splotch " + output +
                                      " xres=200 palette0=grey outfile=sedov.png");
  REQUIRE(r.status == 0);
  CHECK(contains(read_file(dir.path("sedov.png.used.par")), "intensity_label0 = mass_over_h"));
  // Its density is 1 in every cell, from level 4 to the refined corner's level 10: along the
  // diagonal, inside the box's edges, the grey is even (with the side's column_density the
  // corner came out 2.5 times the rest).
  const Image8 picture = read_image(dir.path("sedov.png"));
  int lo = 255, hi = 0;
  for (int k = 20; k < 180; k += 4) {
    const int v = picture.pixel(k, k)[0];
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  CHECK(lo > 100);
  CHECK(double(hi) / double(lo) < 1.15);
}

TEST_CASE("input kind: a Tipsy auxiliary array is named by --info and by a render") {
  TempDir dir;
  const std::string snap = dir.path("run.00100");
  gas_and_dark(3, 2).write(snap);
  write_file(snap + ".den", "5\n0.1\n0.2\n0.3\n0.4\n0.5\n");
  const InputKind k = input_kind(snap + ".den");
  CHECK(k.kind == InputKind::Kind::tipsy_aux_array);
  CHECK(k.snapshot == snap);
  const CommandResult info = run_command("bin/splotch --info " + snap + ".den");
  CHECK(info.status == 0);
  CHECK(info.err.empty());  // not 6 lines of "has no '='"
  CHECK(info.out == snap + ".den: an auxiliary array of the Tipsy snapshot '" + snap +
                        "' (ASCII, 5 values, one per "
                        "particle)\n  draw it with simtype = 11, infile = " +
                        snap +
                        " and a label of its name "
                        "(color_label0 = den, say); bin/splotch --info " +
                        snap + " shows the snapshot\n");
  CHECK(contains(error_of(snap + ".den"), "is an auxiliary array of the Tipsy snapshot '" + snap +
                                              "' (ASCII, 5 values, "
                                              "one per particle), not a parameter file"));
  // A count that does not fit the snapshot: not its array, only text without '='.
  write_file(snap + ".iord", "7\n1\n2\n3\n4\n5\n6\n7\n");
  CHECK(input_kind(snap + ".iord").kind == InputKind::Kind::text);
}

TEST_CASE("input kind: a directory, an empty file, a device, binary bytes, a huge file, text without keys") {
  TempDir dir;
  CHECK(contains(error_of(dir.path()), "'" + dir.path() + "' is a directory, not a parameter file"));
  CHECK(contains(error_of(dir.write("empty.par", "")), "is empty: a parameter file holds key = value lines"));
  // /dev/zero: not read on and on (it used to grow by 600 MB/s), named as what it is.
  CHECK(contains(error_of("/dev/zero"), "'/dev/zero' is a device of binary data, not a parameter file"));
  const std::string binary = dir.write("binary.par", std::string("simtype = 2\ninfile = x\n\x01\x02zz", 27));
  CHECK(contains(error_of(binary), binary + ":3: byte 0x01 is not text"));
  const std::string huge = dir.write("huge.par", std::string(2 << 20, '#'));
  CHECK(contains(error_of(huge), "'" + huge + "' is larger than 1 MiB, which no parameter file is"));
  const std::string prose = dir.write("notes.txt", "these are my notes\nabout the run\n");
  CHECK(contains(error_of(prose), "'" + prose + "' holds no key = value line: is it the file you meant? (" + prose +
                                      ":1: line 'these are my notes' has no '=' and is ignored)"));
  const std::string table = dir.write("stars.txt", "# x y z\n1.5 2 3\n4 5 6\n");
  CHECK(contains(error_of(table), "'" + table + "' is rows of numbers, a table and no parameter file: read it with a " +
                                      "parameter file of simtype = 15"));
  CHECK(contains(error_of(dir.path("missing.par")),
                 "cannot open '" + dir.path("missing.par") + "': No such file or directory"));
  // A RAMSES output directory, and a text that is mostly not key = value lines (a README).
  const std::string ramses = dir.path("output_00001");
  REQUIRE(::mkdir(ramses.c_str(), 0755) == 0);
  write_file(ramses + "/info_00001.txt", "ncpu = 1\nndim = 3\n");
  write_file(ramses + "/amr_00001.out00001", "x");
  // The run's directory of outputs: which to name.
  CHECK(contains(error_of(dir.path()), "a directory of RAMSES outputs (output_00001): name one of them, bin/splotch " +
                                           dir.path() + "/output_00001"));
  // (a damaged one: its AMR file of one byte is named)
  CHECK(contains(error_of(ramses), "amr_00001.out00001' is too short for a Fortran unformatted file"));
  std::string readme = "simtype = 2\ninfile = x\n";
  for (int i = 0; i < 20; ++i) readme += "A line of prose about the project, with no key in it.\n";
  CHECK(contains(error_of(dir.write("README.md", readme)), "is mostly lines that are no key = value (20, and 2 keys)"));
  // A text of many lines without '=' says the first ten, then that more follow.
  std::string many = "simtype = 0\n";
  for (int i = 0; i < 30; ++i) many += "stray line\n";
  ParamFile p = ParamFile::parse(many, "m.par");
  CHECK(p.warnings().size() == 11);
  CHECK(p.warnings().back() == "m.par: more lines without '=' follow, also ignored");
}
