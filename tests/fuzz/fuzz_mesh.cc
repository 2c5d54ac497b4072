// libFuzzer harness for the mesh reader (io/mesh_reader.h): an input's first four bytes choose the
// grid (nx, ny, nz from 1 to 8, 1 to 4 blocks, the byte order and C or Fortran order) and the rest is
// the mesh file. Any input must end in points or in a splotch::UserError; any other exception, a
// crash, a hang or a sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh. Seeds: a 2 x 3 x 2 grid of two blocks written here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "errors/user_error.h"
#include "io/mesh_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& mesh_path() { return fuzzing::snapshot_path("mesh"); }

void remove_files() { std::remove(mesh_path().c_str()); }

void write_seeds(const std::string& dir) {
  std::string s = {char(1), char(2), char(1), char(1 | 2)};  // nx 2, ny 3, nz 2, 2 blocks, swapped
  for (int i = 0; i < 2 * 3 * 2 * 2; ++i) {
    const float v = float(i);
    s.append(reinterpret_cast<const char*>(&v), 4);
  }
  fuzzing::write(dir + "/seed0", reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, mesh_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  MeshLayout m;
  m.nx = 1 + data[0] % 8;
  m.ny = 1 + data[1] % 8;
  m.nz = 1 + data[2] % 8;
  m.blocks = 1 + (data[3] >> 4) % 4;
  m.swap_endian = data[3] & 1;
  m.fortran_order = data[3] & 2;
  fuzzing::write(mesh_path(), data + 4, size - 4);
  ColumnWanted all;
  all.all = true;
  try {
    const ColumnSnapshot s = load_mesh(mesh_path(), m, all);
    for (const ColumnType& t : s.types)
      for (const Column& c : t.columns)
        if (c.values.size() != t.count) std::abort();
  } catch (const UserError&) {}
  return 0;
}
