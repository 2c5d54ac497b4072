// libFuzzer harness for the Bonsai reader (io/bonsai_reader.h): an input is a BonsaiIO snapshot as
// it is. Any input must end in particles or in a splotch::UserError; any other exception, a crash,
// a hang or a sanitizer report is a finding.
//
// Built and run by tests/fuzz/run.sh. Seeds: a snapshot of stars and dark matter written here as
// BonsaiIO lays one out.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/bonsai_reader.h"
#include "io/column_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& snapshot_path() { return fuzzing::snapshot_path("bonsai"); }

void remove_files() { std::remove(snapshot_path().c_str()); }

template <class T>
std::string bytes(std::initializer_list<T> v) {
  return std::string(reinterpret_cast<const char*>(std::data(v)), v.size() * sizeof(T));
}

void write_seeds(const std::string& dir) {
  std::string body(8, '\0');
  struct Info {
    std::string name;
    std::uint64_t element;
    std::int64_t offset;
    std::int32_t ranks;
  };
  std::vector<Info> infos;
  auto add = [&](const std::string& name, std::uint64_t element, const std::string& counts, const std::string& data) {
    infos.push_back({name, element, std::int64_t(body.size()), std::int32_t(counts.size() / 8)});
    body += counts + data;
  };
  add("Stars:IDType", 8, bytes<std::int64_t>({2}), bytes<std::uint64_t>({(1ULL << 48) | 1, (1ULL << 48) | 2}));
  add("Stars:POS:real4", 16, bytes<std::int64_t>({2}), bytes<float>({1, 2, 3, 0.5f, 4, 5, 6, 0.5f}));
  add("Stars:RHOH:float[2]", 8, bytes<std::int64_t>({2}), bytes<float>({10, 0.1f, 20, 0.2f}));
  add("DM:POS:real4", 16, bytes<std::int64_t>({1, 0}), bytes<float>({-1, -2, -3, 2}));
  const std::int64_t header = std::int64_t(body.size());
  std::memcpy(&body[0], &header, 8);
  std::string version(16, '\0');
  version[0] = 'V', version[1] = '1';
  body += version + bytes<std::int32_t>({std::int32_t(infos.size())});
  for (const Info& i : infos) {
    std::string d(280, '\0');
    std::memcpy(&d[0], i.name.data(), i.name.size());
    std::memcpy(&d[256], &i.element, 8);
    std::memcpy(&d[264], &i.offset, 8);
    std::memcpy(&d[272], &i.ranks, 4);
    body += d;
  }
  body += bytes<float>({1.5f});
  fuzzing::write(dir + "/seed0", reinterpret_cast<const std::uint8_t*>(body.data()), body.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return fuzzing::initialize(argc, argv, write_seeds, snapshot_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzzing::write(snapshot_path(), data, size);
  try {
    bonsai_outline(snapshot_path());
  } catch (const UserError&) {}
  ColumnWanted all;
  all.all = true;
  all.ids = true;
  try {
    const ColumnSnapshot s = load_bonsai(snapshot_path(), all);
    for (const ColumnType& t : s.types)
      for (const Column& c : t.columns)
        if (c.values.size() != t.count) std::abort();
  } catch (const UserError&) {}
  TypedSnapshotRequest o;
  o.files = {snapshot_path()};
  o.types = {fuzzing::request(1, 0, "HSML", "RHO", "MASS"), fuzzing::request(0, 0.1f, "", "VEL", "", true)};
  try {
    const ParticleSet p = particles_from_columns(load_bonsai(snapshot_path(), columns_wanted(o)), o);
    if (p.x.size() != p.hsml.size() || p.x.size() != p.colour[0].size()) std::abort();
  } catch (const UserError&) {}
  return 0;
}
