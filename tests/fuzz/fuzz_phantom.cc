// libFuzzer harness for the Phantom reader's binary dumps (io/phantom_reader.h,
// io/fortran_records.h). Any input must end in particles or in a splotch::UserError; any other
// exception, a crash, a hang or a sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh. An input is a dump as it is. Seeds: the real binary dump of
// ../shared/data (-write_seeds=DIR copies it), a small dump written here and an untagged sphNG dump.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/phantom_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& dump_path() { return fuzzing::snapshot_path("phantom"); }

void remove_files() { std::remove(dump_path().c_str()); }

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

std::string tag(std::string t) {
  t.resize(16, ' ');
  return t;
}

void write_seeds(const std::string& dir) {
  std::ifstream real("../shared/data/phantom_blast_00010", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(real)), std::istreambuf_iterator<char>());
  if (!bytes.empty()) fuzzing::write(dir + "/seed0", reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  // Two gas particles and one sink, 64-bit reals.
  std::string s = record(values<std::int32_t>({60769}).append(values<double>({60878.0})) +
                         values<std::int32_t>({60878, 1, 690706}));
  s += record(std::string("FT:Phantom:seed").append(85, ' '));
  s += record(values<std::int32_t>({3})) + record(tag("nparttot") + tag("npartoftype") + tag("nptmass")) +
       record(values<std::int32_t>({2, 2, 1}));
  for (int k = 0; k < 4; ++k) s += record(values<std::int32_t>({0}));
  s +=
      record(values<std::int32_t>({2})) + record(tag("hfact") + tag("massoftype")) + record(values<double>({1.2, 0.5}));
  s += record(values<std::int32_t>({0})) + record(values<std::int32_t>({0}));
  s += record(values<std::int32_t>({2}));
  s += record(values<std::int64_t>({2}) + values<std::int32_t>({0, 0, 0, 0, 0, 3, 1, 0}));
  s += record(values<std::int64_t>({1}) + values<std::int32_t>({0, 0, 0, 0, 0, 2, 0, 0}));
  for (const char* t : {"x", "y", "z"}) s += record(tag(t)) + record(values<double>({0.25, 0.75}));
  s += record(tag("h")) + record(values<float>({0.5f, 0.5f}));
  s += record(tag("x")) + record(values<double>({0.5})) + record(tag("m")) + record(values<double>({2.0}));
  fuzzing::write(dir + "/seed1", reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  // sphNG's untagged full dump, format version 0: a gas particle and a point mass (iphase 0, 1).
  std::string u = record(values<std::int32_t>({690706}).append(values<double>({780806.0})) +
                         values<std::int32_t>({780806, 690706, 690706}));
  u += record(std::string("FHydroRK2: sphNG seed").append(79, ' '));
  u += record(values<std::int32_t>({7})) + record(values<std::int32_t>({2, 2, 0, 0, 0, 0, 1}));
  for (int k = 0; k < 4; ++k) u += record(values<std::int32_t>({0}));
  u += record(values<std::int32_t>({6})) + record(values<double>({0.5, 0.1, 1.4, 1.0, 0.3, 0.0}));
  u += record(values<std::int32_t>({0})) + record(values<std::int32_t>({3})) + record(values<double>({1, 1, 1}));
  u += record(values<std::int32_t>({2}));
  u += record(values<std::int64_t>({2}) + values<std::int32_t>({0, 1, 0, 0, 0, 5, 1, 0}));
  u += record(values<std::int64_t>({1}) + values<std::int32_t>({1, 0, 0, 0, 0, 0, 0, 0}));
  u += record(values<std::int8_t>({0, 1}));
  for (int k = 0; k < 5; ++k) u += record(values<double>({0.25, 0.75}));
  u += record(values<float>({2.0f, 3.0f})) + record(values<std::int32_t>({2}));
  fuzzing::write(dir + "/seed2", reinterpret_cast<const std::uint8_t*>(u.data()), u.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, dump_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzzing::write(dump_path(), data, size);
  try {
    phantom_outline(dump_path());
  } catch (const UserError&) {}
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  try {
    const ColumnSnapshot s = load_phantom(dump_path(), all);
    for (const ColumnType& t : s.types)
      for (const Column& c : t.columns)
        if (c.values.size() != t.count) std::abort();
  } catch (const UserError&) {}
  TypedSnapshotRequest o;
  o.files = {dump_path()};
  o.types = {fuzzing::request(1, 0, "HSML", "density", "MASS"), fuzzing::request(0, 0.1f, "", "VEL", "mass", true)};
  try {
    const ParticleSet p = particles_from_columns(load_phantom(dump_path(), columns_wanted(o)), o);
    if (p.x.size() != p.hsml.size() || p.x.size() != p.colour[0].size()) std::abort();
  } catch (const UserError&) {}
  return 0;
}
