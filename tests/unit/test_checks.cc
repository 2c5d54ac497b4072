// Everything checked before the work, named precisely (issue 36, point 4): a picture too large for
// its format refused before reading; a byte-order mark ignored; --info and a render naming what a
// file is (a truncated Tipsy file, a snapshot's base name, a device, random bytes); IDs shown as
// integers; a palette by its bare name; infile naming a directory; an image type not written.
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "splotch/settings/known_keys.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A Gadget snapshot of gas and dark matter (tests/support/snapshot_test_data.h) and a parameter file for it.
struct Snapshot {
  TempDir dir;
  std::string snap = dir.path("snap_010.0"), par;
  Snapshot() {
    snapshot({2, false, 4, 4}, 300, 200).write(snap);
    par = dir.write("s.par", "simtype = 2\ninfile = " + snap + "\npalette0 = fire\nxres = 64\nrenderer = host\n" +
                                 "outfile = " + dir.path("s.png") + "\n");
  }
};

}  // namespace

TEST_CASE("checks: a picture too large for its format is refused before anything is read") {
  Snapshot s;
  // JPEG's encoder takes at most 2^30 bytes of pixels: 30000 x 30000 is refused at once, PNG not.
  const CommandResult jpeg = run_command("bin/splotch " + s.par + " xres=30000 outfile=" + s.dir.path("x.jpg"));
  CHECK(jpeg.status == 1);
  CHECK(jpeg.err.find("outfile = " + s.dir.path("x.jpg") +
                      ": JPEG images are written up to 2^30 bytes of pixels (about 18900 x 18900), and this one is "
                      "30000 x 30000 pixels (name it .png or .ppm)") != std::string::npos);
  CHECK(!contains(jpeg.out, "read"));
  CHECK(!file_exists(s.dir.path("x.jpg")));
}

TEST_CASE("checks: a UTF-8 byte-order mark before the first key is no part of it") {
  Snapshot s;
  const std::string bom = s.dir.write("bom.par", "\xEF\xBB\xBF" + read_file(s.par));
  const CommandResult r = run_command("bin/splotch " + bom + " outfile=" + s.dir.path("bom.png"));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(file_exists(s.dir.path("bom.png")));
}

TEST_CASE("checks: --info and a render name what a file is, not a broken parameter file") {
  TempDir dir;
  // A Tipsy file cut short: its header's counts need more bytes than it has.
  TipsyTestFile t;
  for (int i = 0; i < 100; ++i) t.records[0].push_back({1, double(i), 0, 0, 0, 0, 0, 1, 1, 0.5, 0, 0});
  const std::string whole = t.bytes();
  const std::string cut = dir.write("cut.000010", whole.substr(0, whole.size() - 100));
  for (const char* how : {"--info ", ""}) {
    INFO(how);
    const CommandResult r = run_command(std::string("bin/splotch ") + how + cut);
    CHECK(r.status == 1);
    CHECK(contains(r.err, "'" + cut + "' is a Tipsy snapshot that cannot be read: "));
    CHECK(contains(r.err, "truncated"));
  }
  // A snapshot in several files named by their base name, as infile takes it.
  GadgetTestFile first = snapshot({2, false, 4, 4}, 3, 2), second = snapshot({2, false, 4, 4}, 4, 1, 3, 2);
  first.num_files = second.num_files = 2;
  first.npart_total = second.npart_total = {7, 3, 0, 0, 0, 0};
  first.write(dir.path("pair.0"));
  second.write(dir.path("pair.1"));
  const CommandResult info = run_command("bin/splotch --info " + dir.path("pair"));
  CHECK(info.status == 0);
  CHECK(contains(info.out, "2 files"));
  CHECK(contains(info.out, "type 0: 7 particles"));
  // A device with nothing to read, one of zeros, random bytes, a picture.
  const CommandResult null = run_command("bin/splotch --info /dev/null");
  CHECK(null.status == 1);
  CHECK(contains(null.err, "'/dev/null' is a device with nothing to read"));
  const CommandResult zero = run_command("bin/splotch /dev/zero");
  CHECK(zero.status == 1);
  CHECK(contains(zero.err, "'/dev/zero' is a device of binary data, not a parameter file"));
  std::string noise;
  for (int i = 0; i < 3000; ++i) noise += char((i * 7919 + 13) % 251);
  const std::string random = dir.write("noise.bin", noise);
  const CommandResult r = run_command("bin/splotch --info " + random);
  CHECK(r.status == 1);
  CHECK(contains(r.err, "'" + random + "' is binary data of no format splotch recognises"));
  const std::string png = dir.write("p.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, '\0'));
  CHECK(contains(run_command("bin/splotch " + png).err, "'" + png + "' is a PNG image, not a parameter file"));
  // A FITS file: text for its first 2880 bytes, read as FITS (a damaged one: what cfitsio says).
  std::string card = "SIMPLE  =                    T";
  card.resize(2880, ' ');
  const std::string fits = dir.write("cube.fits", card + std::string(64, '\3'));
  CHECK(contains(run_command("bin/splotch --info " + fits).err, "'" + fits + "': cannot be opened as FITS"));
}

TEST_CASE("checks: --info shows a snapshot's IDs as integers, exactly") {
  Snapshot s;  // IDs 1 to 300 (gas) and 1000 to 1199 (dark matter)
  const CommandResult info = run_command("bin/splotch --info " + s.snap);
  REQUIRE(info.status == 0);
  CHECK(contains(info.out, "    ID               int32                1           151           300\n"));
  CHECK(contains(info.out, "    ID               int32             1000          1100          1199\n"));
}

TEST_CASE("checks: a palette by its bare name; infile naming a directory; an image type not written") {
  Snapshot s;
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  const std::string bin = std::string(here) + "/bin/splotch";
  // From another directory: the project's palettes by name (and a path relative to the project).
  for (const char* name : {"fire", "fire.pal", "testdata/palettes/ice.pal"}) {
    INFO(name);
    const CommandResult r =
        run_command("cd " + s.dir.path() + " && " + bin + " s.par palette0=" + name + " outfile=p.png");
    CHECK(r.status == 0);
    CHECK(contains(read_file(s.dir.path("p.png.used.par")), "palette0 = " + std::string(here) + "/testdata/palettes/"));
  }
  const CommandResult none = run_command(bin + " " + s.par + " palette0=fyre");
  CHECK(none.status == 1);
  CHECK(contains(none.err,
                 "palette0 = fyre: no such file here or beside the parameter file, nor a palette of the "
                 "project's (bluered, fire, grey, ice, temperature, in "));
  // A binary file as a palette: said whole.
  const CommandResult binary = run_command(bin + " " + s.par + " palette0=" + bin);
  INFO(binary.err);
  CHECK(binary.status == 1);
  CHECK(contains(binary.err, "palette '" + bin + "' is a binary file, not a palette"));
  // infile naming a directory.
  const CommandResult dir = run_command(bin + " " + s.par + " infile=" + s.dir.path());
  CHECK(dir.status == 1);
  CHECK(contains(dir.err, "infile = " + s.dir.path() + " names " + s.dir.path() + ", a directory"));
  // .fits is no type written here: said every time it is asked for.
  for (int k = 0; k < 2; ++k) {
    const CommandResult fits = run_command(bin + " " + s.par + " outfile=" + s.dir.path("x.fits"));
    CHECK(fits.status == 0);
    CHECK(contains(fits.err, "outfile = " + s.dir.path("x.fits") +
                                 " ends in .fits, which is no image type written "
                                 "here: the picture goes to "));
  }
}

TEST_CASE("checks: every key a run looks up is a known key (scene headers and did-you-mean rely on the list)") {
  Snapshot s;
  std::vector<std::string> records;
  // A typed snapshot with many keys, alone and as a first picture, and the raw demo.
  CHECK(run_command("bin/splotch " + s.par +
                    " ptypes=2 ptype1=1 palette1=ice color_label0=RHO color_log0=TRUE intensity_label0=U "
                    "colorbar=TRUE boost_fraction=0.5 EyeSeparation=0 outfile=" +
                    s.dir.path("a.png"))
            .status == 0);
  records.push_back(read_file(s.dir.path("a.png.used.par")));
  char here[4096];
  REQUIRE(::getcwd(here, sizeof here));
  CHECK(run_command("cd " + s.dir.path() + " && " + std::string(here) + "/bin/splotch " + s.snap).status == 0);
  records.push_back(read_file(s.dir.path("snap_010.png.used.par")));
  REQUIRE(run_command("bin/make_demo --n 2000 --out " + s.dir.path("demo.bin")).status == 0);
  CHECK(
      run_command("bin/splotch testdata/demo.par infile=" + s.dir.path("demo.bin") + " outfile=" + s.dir.path("d.png"))
          .status == 0);
  records.push_back(read_file(s.dir.path("d.png.used.par")));
  int keys = 0;
  for (const std::string& record : records) {
    std::size_t at = 0;
    while (at < record.size()) {
      const std::size_t end = record.find('\n', at);
      const std::string line = record.substr(at, end - at);
      at = end == std::string::npos ? record.size() : end + 1;
      if (line.empty() || line[0] == '#' || line.find(" = ") == std::string::npos) continue;
      const std::string key = line.substr(0, line.find(" = "));
      INFO(key);
      CHECK(key_kind(key) != nullptr);
      ++keys;
    }
  }
  CHECK(keys > 60);
}
