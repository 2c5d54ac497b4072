// libFuzzer harness for the Gadget binary reader (io/gadget_reader.h, io/gadget_file.h). Any
// input must end in particles or in a splotch::UserError; any other exception, a crash, a hang or
// a sanitizer report is a finding. Built and run by tests/fuzz/run.sh (not part of `make`, whose
// test build takes tests/test_*.cc only).
//
// An input is one Gadget file as it is. Seeds: the files -write_seeds=DIR writes (formats 1 and
// 2, both byte orders, float and double, blocks of some types) and the real Gadget files of
// ../shared/data.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/support/gadget_test_file.h"

namespace {

using namespace splotch;

using fuzzing::request;

const std::string& snapshot_path() { return fuzzing::snapshot_path("gadget"); }

void remove_file() { std::remove(snapshot_path().c_str()); }

// The requests a render might make: gas with its SPH blocks, dark matter with the mass table,
// stars, several types at once, masks given, the volume estimate, a type out of range.
const std::vector<std::vector<RenderTypeRequest>>& requests() {
  static const std::vector<std::vector<RenderTypeRequest>> all = {
      {request(0, 0, "HSML", "U", "RHO")},
      {request(1, 1.0f, "", "VEL", "MASS", true)},
      {request(4, 0.5f, "", "MASS", "")},
      {request(0, 0, "SmoothingLength", "Density", "Masses"), request(1, 2.0f, "", "POS", "", true),
       request(4, 1.0f, "", "", "MASS")},
      {request(0, 1.0f, "", "U", "", false, 1u), request(5, 1.0f, "", "MASS", "", false, 63u)},
      {request(0, 0, "", "U", "", false, std::nullopt, SizeEstimate::volume)},
      {request(6, 1.0f, "", "", "")},
  };
  return all;
}

// What --info asks of the file: every block's layout, for scalars and 3-vectors.
void try_layouts() {
  try {
    const GadgetFile f(snapshot_path());
    for (const GadgetBlock& b : f.blocks())
      for (int components : {1, 3}) try {
          const GadgetBlockLayout l = f.layout(b, components, std::nullopt, "fuzz");
          for (int t = 0; t < gadget_types; ++t)
            if (l.types & (1u << t)) {
              const std::size_t at = l.offset_of(f.header(), t, components);
              if (at > b.bytes) std::abort();
            }
        } catch (const UserError&) {}
  } catch (const UserError&) {}
}

void write_seeds(const std::string& dir) {
  using testing::GadgetTestBlock;
  using testing::GadgetTestFile;
  int k = 0;
  for (int format : {1, 2})
    for (bool big : {false, true})
      for (int bytes : {4, 8}) {
        GadgetTestFile f;
        f.format = format;
        f.big_endian = big;
        f.npart = {3, 2, 0, 0, 1, 0};
        f.mass = {0, 0.5, 0, 0, 0, 0};
        f.box_size = 10;
        f.blocks = {{"POS", std::vector<double>(18, 1.5), bytes},
                    {"VEL", std::vector<double>(18, 0.5), bytes},
                    {"ID", {1, 2, 3, 4, 5, 6}, 4, true},
                    {"MASS", {1, 2, 3, 4}, bytes},
                    {"U", {1, 2, 3}, bytes},
                    {"RHO", {1, 2, 4}, bytes},
                    {"HSML", {1, 1, 1}, bytes}};
        f.write(dir + "/seed" + std::to_string(k++));
      }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, snapshot_path(), remove_file);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzzing::write(snapshot_path(), data, size);
  fuzzing::try_reads([](const TypedSnapshotRequest& o) { return read_gadget(o); }, snapshot_path(), requests());
  try_layouts();
  return 0;
}
