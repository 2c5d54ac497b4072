// libFuzzer harness for the RAMSES reader (io/ramses_reader.h, io/ramses_output.h,
// io/fortran_records.h). Any input must end in particles or in a splotch::UserError; any other
// exception, a crash, a hang or a sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh. An input is an output of one CPU file: two 4-byte
// little-endian lengths A and H, then A bytes of its amr file, H bytes of its hydro file and the
// rest its part file, beside a fixed info file (1 CPU, 2-D) and a hydro descriptor. Seeds: small
// outputs written here (-write_seeds=DIR) and the real 2-D outputs of ../shared/data.
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/ramses_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& output_dir() { return fuzzing::snapshot_path("ramses"); }

std::string file(const char* kind) { return output_dir() + "/" + kind + "_00001.out00001"; }

void remove_files() {
  for (const char* kind : {"amr", "hydro", "part"}) std::remove(file(kind).c_str());
  std::remove((output_dir() + "/info_00001.txt").c_str());
  std::remove((output_dir() + "/hydro_file_descriptor.txt").c_str());
  ::rmdir(output_dir().c_str());
}

void write_text(const std::string& path, const std::string& text) {
  fuzzing::write(path, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

void make_directory() {
  static bool made = false;
  if (made) return;
  ::mkdir(output_dir().c_str(), 0755);
  write_text(output_dir() + "/info_00001.txt",
             "ncpu        =          1\nndim        =          2\nlevelmin    =          1\nlevelmax    =          3\n"
             "boxlen      =  0.100000000000000E+01\ntime        =  0.000000000000000E+00\n"
             "unit_l      =  0.100000000000000E+01\nunit_d      =  0.100000000000000E+01\n"
             "unit_t      =  0.100000000000000E+01\n\nordering type=hilbert\n");
  write_text(output_dir() + "/hydro_file_descriptor.txt",
             "# version:  1\n# ivar, variable_name, variable_type\n 1, density, d\n 2, velocity_x, d\n"
             " 3, velocity_y, d\n 4, pressure, d\n");
  made = true;
}

std::uint32_t length_at(const std::uint8_t* d) {
  return std::uint32_t(d[0]) | std::uint32_t(d[1]) << 8 | std::uint32_t(d[2]) << 16 | std::uint32_t(d[3]) << 24;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string archive(const std::string& amr, const std::string& hydro, const std::string& part) {
  std::string s;
  for (std::size_t n : {amr.size(), hydro.size()})
    for (int b = 0; b < 4; ++b) s += char((n >> (8 * b)) & 0xff);
  return s + amr + hydro + part;
}

// A Fortran record of `bytes`.
std::string record(const std::string& bytes) {
  std::string m(4, '\0');
  const std::uint32_t n = std::uint32_t(bytes.size());
  std::memcpy(&m[0], &n, 4);
  return m + bytes + m;
}

template <class T>
std::string values(std::initializer_list<T> v) {
  std::string s;
  for (T x : v) s.append(reinterpret_cast<const char*>(&x), sizeof x);
  return s;
}

// -write_seeds=DIR: the real 2-D outputs, and a part file of two particles with an empty AMR.
void write_seeds(const std::string& dir) {
  int k = 0;
  for (const char* name : {"ramses_sedov2d_output_00001", "ramses_multimat2d_output_00001"}) {
    const std::string d = "../shared/data/" + std::string(name) + "/";
    const std::string amr = file_bytes(d + "amr_00001.out00001"), hydro = file_bytes(d + "hydro_00001.out00001");
    if (amr.empty()) continue;
    const std::string s = archive(amr, hydro, "");
    fuzzing::write(dir + "/seed" + std::to_string(k++), reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
  std::string part = record(values<std::int32_t>({1})) + record(values<std::int32_t>({2})) +
                     record(values<std::int32_t>({2})) + record(values<std::int32_t>({1, 2, 3, 4})) +
                     record(values<std::int32_t>({0})) + record(values<double>({0})) + record(values<double>({0})) +
                     record(values<std::int32_t>({0}));
  for (int f = 0; f < 5; ++f) part += record(values<double>({0.25, 0.75}));
  part += record(values<std::int32_t>({1, 2})) + record(values<std::int32_t>({3, 3}));
  const std::string s = archive("", "", part);
  fuzzing::write(dir + "/seed" + std::to_string(k++), reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, output_dir(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  make_directory();
  if (size < 8) return 0;
  const std::size_t a = std::min<std::size_t>(length_at(data), size - 8);
  const std::size_t h = std::min<std::size_t>(length_at(data + 4), size - 8 - a);
  fuzzing::write(file("amr"), data + 8, a);
  fuzzing::write(file("hydro"), data + 8 + a, h);
  fuzzing::write(file("part"), data + 8 + a + h, size - 8 - a - h);
  try {
    ramses_outline(output_dir());
  } catch (const UserError&) {}
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  try {
    const ColumnSnapshot s = load_ramses(output_dir(), all);
    for (const ColumnType& t : s.types)
      for (const Column& c : t.columns)
        if (c.values.size() != t.count) std::abort();
  } catch (const UserError&) {}
  TypedSnapshotRequest o;
  o.files = {output_dir()};
  o.types = {fuzzing::request(0, 0, "HSML", "density", "MASS"), fuzzing::request(1, 0.1f, "", "VEL", "mass", true)};
  try {
    const ParticleSet p = particles_from_columns(load_ramses(output_dir(), columns_wanted(o)), o);
    if (p.x.size() != p.hsml.size() || p.x.size() != p.colour[0].size()) std::abort();
  } catch (const UserError&) {}
  return 0;
}
