// Honest --info: statistics over the finite values with NaN and infinite values counted, integer
// fields as integers, no "-0", "1 type", every file of a snapshot whichever of its files is named,
// and a dataset whose rows differ from the header flagged as a render would stop there.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "io/hdf5_file.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"

#ifdef SPLOTCH_HDF5
#include <hdf5.h>
#endif

using namespace splotch;
using namespace splotch::testing;

namespace {

// The --info line of `field`, whitespace runs made single.
std::string row_of(const std::string& out, const std::string& field) {
  const std::size_t at = out.find("    " + field + " ");
  if (at == std::string::npos) return "";
  std::string line = out.substr(at, out.find('\n', at) - at), single;
  for (char c : line)
    if (!(c == ' ' && !single.empty() && single.back() == ' ')) single += c;
  return single;
}

GadgetTestFile with_odd_blocks() {
  GadgetTestFile f = snapshot({2, false, 4, 4}, 3, 2);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  f.blocks.push_back({"TEMP", {1.5, nan, inf}});  // the 3 gas particles
  f.blocks.push_back({"DUST", {-0.0, -0.0, 2.0}});
  f.blocks.push_back({"PEAK", {3, 7, 11}, 4, true});
  return f;
}

}  // namespace

TEST_CASE("--info: finite statistics, NaN and infinite values counted, integers as integers, no -0") {
  TempDir dir;
  const std::string path = dir.path("snap");
  with_odd_blocks().write(path);
  const CommandResult r = run_command("bin/splotch --info " + path);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(row_of(r.out, "TEMP") ==
        " TEMP float32 1.5 1.5 1.5 (1 NaN, 1 infinite: not counted; a render skips such particles)");
  CHECK(row_of(r.out, "DUST") == " DUST float32 0 0 2");
  if (hdf5_supported()) {
    const std::string h5 = dir.path("snap.hdf5");
    Hdf5TestOptions o;
    o.header_types = 2;
    Hdf5TestWriter::write(with_odd_blocks(), h5, o);
    const CommandResult h = run_command("bin/splotch --info " + h5);
    INFO(h.out << h.err);
    CHECK(h.status == 0);
    CHECK(row_of(h.out, "PEAK") == " PEAK uint32 3 7 11");
    CHECK(row_of(h.out, "TEMP").find("(1 NaN, 1 infinite: not counted") != std::string::npos);
    CHECK(h.out.find(", 2 types in the header") != std::string::npos);
    o.header_types = 1;
    GadgetTestFile gas = with_odd_blocks();
    gas.npart = gas.npart_total = {3, 0, 0, 0, 0, 0};
    gas.blocks[0].values.resize(9);  // POS of the gas only
    gas.blocks[1].values.resize(9);
    gas.blocks[2].values.resize(3);
    Hdf5TestWriter::write(gas, dir.path("gas.hdf5"), o);
    const CommandResult one = run_command("bin/splotch --info " + dir.path("gas.hdf5"));
    CHECK(one.out.find(", 1 type in the header") != std::string::npos);
  }
}

#ifdef SPLOTCH_HDF5
TEST_CASE("--info: a dataset of other rows than the header's count is flagged") {
  TempDir dir;
  const std::string h5 = dir.path("snap.hdf5");
  Hdf5TestWriter::write(snapshot({2, false, 4, 4}, 3, 2), h5);
  {  // the header now says 4 gas particles; the datasets hold 3
    hid_t file = H5Fopen(h5.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t header = H5Gopen2(file, "Header", H5P_DEFAULT);
    hid_t a = H5Aopen(header, "NumPart_ThisFile", H5P_DEFAULT);
    const std::uint64_t npart[6] = {4, 2, 0, 0, 0, 0};
    H5Awrite(a, H5T_NATIVE_UINT64, npart);
    H5Aclose(a);
    H5Gclose(header);
    H5Fclose(file);
  }
  const CommandResult r = run_command("bin/splotch --info " + h5);
  INFO(r.out << r.err);
  CHECK(r.out.find("    Coordinates      " + h5 +
                   ": 3 rows, but the header says 4 particles of type 0 (a render of "
                   "this type stops here)") != std::string::npos);
}
#endif

TEST_CASE("--info: any file of a snapshot in several gives all of them") {
  const std::string data = real_data_dir();
  if (data.empty()) {
    MESSAGE("--info on the files of a two-file snapshot skipped: ../shared/data is not beside this checkout");
    return;
  }
  for (const char* name : {"gadgetreader_test_g2_snap", "gadgetreader_test_g2_snap.0", "gadgetreader_test_g2_snap.1"}) {
    INFO(name);
    const std::string par = "simtype = 2\ninfile = " + data + "/" + name + "\nptypes = 0\n";
    TempDir dir;
    const CommandResult r = run_command("bin/splotch --info " + dir.write("i.par", par));
    CHECK(r.status == 0);
    CHECK(r.out.find("single precision positions, 2 files") != std::string::npos);
    CHECK(r.out.find("type 0: 4039 particles") != std::string::npos);
  }
  const CommandResult direct = run_command("bin/splotch --info " + data + "/gadgetreader_test_g2_snap.1");
  CHECK(direct.out.find("2 files") != std::string::npos);
}
