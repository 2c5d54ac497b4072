// libFuzzer harness for the Tipsy reader (io/tipsy_reader.h, io/tipsy_file.h,
// io/tipsy_aux_array.h). Any input must end in particles or in a splotch::UserError; any other
// exception, a crash, a hang or a sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh (clang with its libomp, so the OpenMP loops run as in
// splotch; not part of `make`, whose test build takes tests/test_*.cc only). Seeds: Tipsy files of
// several kinds, with and without auxiliary arrays (-write_seeds=DIR), and the real files of
// ../shared/data.
//
// An input is a Tipsy file as it is, or "AUX:", a 2-byte little-endian length L, L bytes of an
// auxiliary array (written beside the snapshot as <file>.aux) and then the Tipsy file.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/tipsy_file.h"
#include "io/tipsy_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

using fuzzing::request;

const std::string& snapshot_path() { return fuzzing::snapshot_path("tipsy"); }

void remove_files() {
  std::remove(snapshot_path().c_str());
  std::remove((snapshot_path() + ".aux").c_str());
}

// The requests a render might make: each type alone, with record fields, aliases and the
// auxiliary array; all types at once; a type out of range.
const std::vector<std::vector<RenderTypeRequest>>& requests() {
  static const std::vector<std::vector<RenderTypeRequest>> all = {
      {request(0, 0, "hsmooth", "rho", "mass")},
      {request(1, 1.0f, "", "vel", "aux", true)},
      {request(2, 0, "aux", "tform", "")},
      {request(0, 0, "HSML", "Temperature", "aux"), request(1, 0, "Softening", "POS", "phi", true),
       request(2, 0.5f, "", "Metallicity", "eps")},
      {request(3, 1.0f, "", "", "")},
  };
  return all;
}

// What --info reads: every component of every field of every type.
void try_fields() {
  try {
    const TipsyFile f(snapshot_path());
    for (int t = 0; t < tipsy_types; ++t)
      for (const TipsyField& field : f.fields(t))
        for (int c = 0; c < field.components; ++c)
          if (f.read_field(t, field.name, c).size() != f.count(t)) std::abort();
  } catch (const UserError&) {}
}

// -write_seeds=DIR: a few valid inputs to start from.
void write_seeds(const std::string& dir) {
  auto be32 = [](std::string& s, std::uint32_t v) {
    for (int b = 3; b >= 0; --b) s += char((v >> (8 * b)) & 0xff);
  };
  auto snapshot = [&](std::uint32_t gas, std::uint32_t dark, std::uint32_t star) {
    std::string s(8, '\0');
    s[0] = '\x3f';
    s[1] = '\xf0';  // time 1.0, big-endian
    be32(s, gas + dark + star);
    be32(s, 3);
    for (std::uint32_t n : {gas, dark, star}) be32(s, n);
    be32(s, 0);
    const std::uint32_t one = 0x3f800000;  // 1.0f
    for (std::uint32_t k = 0; k < gas * 12 + dark * 9 + star * 11; ++k) be32(s, one + (k % 7) * 0x100000);
    return s;
  };
  const std::string ascii = "6\n1\n2\n3\n4\n5\n6\n";
  std::string binary;
  be32(binary, 6);
  for (int k = 0; k < 6; ++k) be32(binary, 0x3f800000 + std::uint32_t(k) * 0x100000);
  auto with_aux = [](const std::string& aux, const std::string& tipsy) {
    return "AUX:" + std::string(1, char(aux.size() & 0xff)) + std::string(1, char(aux.size() >> 8)) + aux + tipsy;
  };
  const std::string seeds[] = {snapshot(2, 3, 1), snapshot(1, 0, 0), snapshot(0, 4, 0),
                               with_aux(ascii, snapshot(2, 3, 1)), with_aux(binary, snapshot(2, 3, 1))};
  int k = 0;
  for (const std::string& s : seeds) {
    const std::string path = dir + "/seed" + std::to_string(k++);
    fuzzing::write(path, reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, snapshot_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string aux_path = snapshot_path() + ".aux";
  if (size >= 6 && std::memcmp(data, "AUX:", 4) == 0) {
    const std::size_t aux_bytes = std::min<std::size_t>(std::size_t(data[4]) | std::size_t(data[5]) << 8, size - 6);
    fuzzing::write(aux_path, data + 6, aux_bytes);
    data += 6 + aux_bytes;
    size -= 6 + aux_bytes;
  } else {
    std::remove(aux_path.c_str());
  }
  fuzzing::write(snapshot_path(), data, size);
  fuzzing::try_reads([](const TypedSnapshotRequest& o) { return read_tipsy(o); }, snapshot_path(), requests());
  try_fields();
  return 0;
}
