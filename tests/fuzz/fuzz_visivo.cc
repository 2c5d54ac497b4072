// libFuzzer harness for the VisIVO reader (io/visivo_reader.h): an input is a header (up to its
// first zero byte) and the binary table after it, written as NAME.bin.head and NAME.bin. Any input
// must end in points or in a splotch::UserError; any other exception, a crash, a hang or a
// sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh. Seeds: a table and a volume written here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "errors/user_error.h"
#include "io/visivo_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& table_path() { return fuzzing::snapshot_path("visivo"); }

void remove_files() {
  std::remove(table_path().c_str());
  std::remove((table_path() + ".head").c_str());
}

std::string floats(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    const float v = float(i) * 0.5f;
    s.append(reinterpret_cast<const char*>(&v), 4);
  }
  return s;
}

void write_seeds(const std::string& dir) {
  const std::string table = std::string("float\n4\n3\nlittle\nX\nY\nZ\nrho\n") + '\0' + floats(12);
  fuzzing::write(dir + "/seed0", reinterpret_cast<const std::uint8_t*>(table.data()), table.size());
  const std::string volume = std::string("float\n1\n8 2 2 2 1 1 1\nlittle\nrho\n") + '\0' + floats(8);
  fuzzing::write(dir + "/seed1", reinterpret_cast<const std::uint8_t*>(volume.data()), volume.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, table_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* zero = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t head = zero ? std::size_t(zero - data) : size;
  fuzzing::write(table_path() + ".head", data, head);
  fuzzing::write(table_path(), data + std::min(size, head + 1), size - std::min(size, head + 1));
  ColumnWanted all;
  all.all = true;
  try {
    const ColumnSnapshot s = load_visivo(table_path(), AsciiLayout{}, all);
    for (const ColumnType& t : s.types)
      for (const Column& c : t.columns)
        if (c.values.size() != t.count) std::abort();
  } catch (const UserError&) {}
  return 0;
}
