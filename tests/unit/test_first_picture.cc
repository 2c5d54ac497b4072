// A first picture from a snapshot alone (splotch/settings/starter_parameters.h): `bin/splotch
// SNAPSHOT` chooses the keys, writes <snapshot name>.png and its used.par in the working
// directory, and `bin/splotch --init SNAPSHOT` prints the same choices as a commented parameter
// file that renders as it is. Every real snapshot of ../shared/data in a format read today gives
// a picture neither saturated nor nearly black this way; a format added later joins the rule by
// being recognised (detect_snapshot_format).
#include <dirent.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/hdf5_table_reader.h"
#include "io/image_reader.h"
#include "io/read_snapshot.h"
#include "splotch/settings/starter_parameters.h"
#include "splotch/util/file_paths.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The files of `dir` (not its folders), sorted.
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (is_regular_file(dir + "/" + e->d_name)) names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Whether the project reads `path` as a snapshot today: its format recognised and, for HDF5, in
// the layout of Gadget, AREPO, GIZMO and SWIFT (a Phantom dump is HDF5 too, and not read yet).
bool read_today(const std::string& path) {
  const std::optional<SnapshotFormat> format = detect_snapshot_format(path);
  if (!format) return false;
  if (*format == SnapshotFormat::hdf5 && !is_gadget_layout_hdf5(path)) return false;
  return true;
}

// The share of a picture's pixels white in some channel, and lit to 5% of white or more (as the
// run's own check measures them, splotch/stages/exposure.h).
struct Levels {
  double saturated = 0, lit = 0;
};
Levels levels_of(const Image8& picture) {
  std::size_t saturated = 0, lit = 0;
  const std::size_t pixels = std::size_t(picture.width) * std::size_t(picture.height);
  for (std::size_t p = 0; p < pixels; ++p) {
    const unsigned char m = std::max({picture.rgb[3 * p], picture.rgb[3 * p + 1], picture.rgb[3 * p + 2]});
    saturated += m == 255;
    lit += m >= 13;
  }
  return {double(saturated) / double(pixels), double(lit) / double(pixels)};
}

}  // namespace

TEST_CASE("first picture: every real snapshot read today renders with no parameter file, neither white nor black") {
  const std::string data = absolute_path(real_data_dir());
  if (real_data_dir().empty()) {
    MESSAGE("first-picture test skipped: ../shared/data is not beside this checkout");
    return;
  }
  std::string bin;
  {
    char here[4096];
    REQUIRE(::getcwd(here, sizeof here));
    bin = std::string(here) + "/bin/splotch";
  }
  int drawn = 0;
  for (const std::string& name : files_in(data)) {
    const std::string path = data + "/" + name;
    if (!read_today(path)) continue;
    INFO(name);
    TempDir here;  // the working directory, where the picture goes
    const CommandResult r = run_command("cd " + here.path() + " && " + bin + " " + path);
    INFO(r.err);
    REQUIRE(r.status == 0);
    // A snapshot of several files is named without the first's ".0"; HDF5 without its ending.
    const std::string picture_name = starter_picture_name(path, contains(r.out, "the first of its"));
    std::string picture = here.path(picture_name);
    if (!file_exists(picture)) picture = here.path(starter_picture_name(path, true));
    REQUIRE(file_exists(picture));
    CHECK(file_exists(picture + ".used.par"));
    // Neither white nor black, as the run's own check says, and as the pixels say.
    CHECK(!contains(r.err, "saturated"));
    CHECK(!contains(r.err, "nearly black"));
    const Levels l = levels_of(read_image(picture));
    CHECK(l.saturated < 0.30);
    CHECK(l.lit >= 0.001);
    // The report says where the smoothing lengths and the camera came from.
    CHECK(contains(r.out, "note: smoothing lengths: ptype0 = "));
    CHECK(contains(r.out, "note: no camera given: placed to frame the particles"));
    CHECK(contains(r.out, "note: exposure = auto"));
    // Its used.par renders the same picture again: the user's starting parameter file.
    const CommandResult again =
        run_command("cd " + here.path() + " && " + bin + " " + picture + ".used.par outfile=" + here.path("again.png"));
    CHECK(again.status == 0);
    CHECK(read_file(here.path("again.png")) == read_file(picture));
    ++drawn;
  }
  CHECK(drawn >= 14);  // the Gadget, HDF5 and Tipsy files of ../shared/data at the time of writing
}

TEST_CASE("first picture: --init prints a commented parameter file that renders as the snapshot alone does") {
  TempDir dir;
  // Gas with densities and smoothing lengths, and dark matter without (test data: Gadget format 2).
  const std::string snap = dir.path("snap_010");
  snapshot({2, false, 4, 4}, 300, 200).write(snap);
  const CommandResult init = run_command("bin/splotch --init " + snap);
  REQUIRE(init.status == 0);
  CHECK(init.err.empty());
  const std::string& text = init.out;
  // Each key with one line saying what it does; the gas drawn, coloured by its density on a log scale.
  int keys = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    ++keys;
    INFO(line);
    CHECK(contains(line, " = "));
    CHECK(contains(line, "  # "));
  }
  CHECK(keys >= 10);
  CHECK(contains(text, "simtype = 2 "));
  CHECK(contains(text, "infile = " + snap + " "));
  CHECK(contains(text, "ptype0 = 0 "));
  CHECK(contains(text, "# the gas (300 particles); the snapshot also has 1: dark matter (200)"));
  CHECK(contains(text, "color_label0 = RHO "));
  CHECK(contains(text, "color_log0 = TRUE "));
  CHECK(contains(text, "size_estimate0 = auto "));
  CHECK(contains(text, "smoothing lengths: the file's HSML"));
  CHECK(contains(text, "# exposure = auto, as no exposure or brightness0 is given"));
  CHECK(contains(text, "outfile = snap_010.png "));
  // It renders as it is, to the picture of the snapshot alone, with no warning.
  const std::string par = dir.write("my.par", text);
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string bin = std::string(here) + "/bin/splotch";
  const CommandResult a = run_command("cd " + dir.path() + " && " + bin + " my.par outfile=a.png");
  const CommandResult b = run_command("cd " + dir.path() + " && " + bin + " " + snap + " outfile=b.png");
  INFO(a.err);
  INFO(b.err);
  CHECK(a.status == 0);
  CHECK(b.status == 0);
  CHECK(a.err.empty());
  CHECK(b.err.empty());
  CHECK(read_file(dir.path("a.png")) == read_file(dir.path("b.png")));
  // A snapshot with no gas: its most numerous type, one colour, estimated smoothing lengths.
  TipsyTestFile dark_only;
  for (int i = 0; i < 100; ++i) dark_only.records[1].push_back({1, double(i % 10), double(i / 10), 0, 0, 0, 0, 0.1, 0});
  for (int i = 0; i < 3; ++i) dark_only.records[2].push_back({1, double(i), 0, 0, 0, 0, 0, 0, 0, 0.1, 0});
  dark_only.write(dir.path("dark.000100"));
  const CommandResult dark = run_command("bin/splotch --init " + dir.path("dark.000100"));
  CHECK(dark.status == 0);
  CHECK(contains(dark.out, "simtype = 11 "));
  CHECK(contains(dark.out, "ptype0 = 1 "));
  CHECK(contains(dark.out, "# the dark matter (100 particles); the snapshot also has 2: stars (3)"));
  CHECK(contains(dark.out, "color_label0 = XXXX "));
  CHECK(contains(dark.out, "the file has none for this type, so they are estimated"));
  CHECK(contains(dark.out, "palette0 = ice "));
  // Gas without a density (genetIC's initial conditions): one colour too, ice's bright last one
  // (fire's is a flat near-white).
  if (const std::string data = real_data_dir(); !data.empty()) {
    const CommandResult ics = run_command("bin/splotch --init " + data + "/genetic_gadget3_fmt1_gas_dm_test10g");
    CHECK(ics.status == 0);
    CHECK(contains(ics.out, "color_label0 = XXXX "));
    CHECK(contains(ics.out, "palette0 = ice "));
  }
  // A ptype0 given with the snapshot alone: the choices are the ones for that type.
  const CommandResult stars =
      run_command("cd " + dir.path() + " && " + bin + " " + dir.path("dark.000100") + " ptype0=2 outfile=stars.png");
  CHECK(stars.status == 0);
  CHECK(contains(stars.out, "note: smoothing lengths: ptype0 = 2 (stars): estimated from the 32 nearest neighbours"));
  // Anything but a snapshot is named.
  const CommandResult not_snapshot = run_command("bin/splotch --init " + par);
  CHECK(not_snapshot.status == 1);
  CHECK(
      contains(not_snapshot.err,
               "--init writes a parameter file for a snapshot (Gadget, HDF5, Tipsy, Phantom, Bonsai, FITS or RAMSES)"));
  CHECK(contains(not_snapshot.err, "render it: bin/splotch " + par));
  CHECK(run_command("bin/splotch --init " + snap + " xres=100").status == 1);
}

TEST_CASE("first picture: the picture's name") {
  CHECK(starter_picture_name("/data/snap_010.0", true) == "snap_010.png");
  CHECK(starter_picture_name("/data/snap_010.0", false) == "snap_010.0.png");
  CHECK(starter_picture_name("/data/snap_010.3", true) == "snap_010.png");
  CHECK(starter_picture_name("snapshot_004.hdf5", false) == "snapshot_004.png");
  CHECK(starter_picture_name("dump.h5", false) == "dump.png");
  CHECK(starter_picture_name("run.000100", false) == "run.000100.png");
}
