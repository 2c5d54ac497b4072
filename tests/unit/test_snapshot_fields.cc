// The snapshot's fields read by name (io/snapshot_fields.h) on the real files of ../shared/data:
// HDF5, Gadget (two files), Tipsy and a format held as columns (Phantom): the types and counts of
// their headers, each field's values the ones a render reads.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/read_snapshot.h"
#include "io/snapshot_fields.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

SnapshotRequest request(SnapshotFormat format, const std::vector<std::string>& files) {
  SnapshotRequest in;
  in.format = format;
  in.path = files[0];
  in.typed.files = files;
  return in;
}

// The positions' first component as a render reads them (size_fix: no smoothing length wanted).
std::vector<float> rendered_x(SnapshotRequest in, int type) {
  RenderTypeRequest r;
  r.file_type = type;
  r.size_fix = 1;
  in.typed.types = {r};
  const ParticleArray<float> x = read_snapshot(in).x;
  return std::vector<float>(x.begin(), x.end());
}

const TypeEntry& type_of(const SnapshotFields& s, int t) {
  for (const TypeEntry& e : s.outline().types)
    if (e.file_type == t) return e;
  FAIL("no type " << t);
  throw 0;
}

}  // namespace

TEST_CASE("snapshot fields: HDF5, Gadget, Tipsy and Phantom files, their types, counts and values") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("snapshot fields test skipped: ../shared/data is not beside this checkout");
    return;
  }
  {  // HDF5 (Gadget-4): gas and dark matter, 32768 each
    const SnapshotRequest in = request(SnapshotFormat::hdf5, {data + "/gadget4_lcdm_gas_snapshot_004.hdf5"});
    const SnapshotFields s(in);
    REQUIRE(s.outline().types.size() == 2);
    CHECK(type_of(s, 0).count == 32768);
    CHECK(type_of(s, 1).count == 32768);
    const auto& fields = type_of(s, 0).fields;
    const auto coordinates =
        std::find_if(fields.begin(), fields.end(), [](auto& f) { return f.name == "Coordinates"; });
    REQUIRE(coordinates != fields.end());
    CHECK(coordinates->components == 3);
    CHECK(s.read(0, "Coordinates", 0) == rendered_x(in, 0));
    CHECK(s.read(1, "Coordinates", 2).size() == 32768);
    const std::vector<std::uint64_t> ids = s.read_integers(1, "ParticleIDs");
    REQUIRE(ids.size() == 32768);
    CHECK(std::set<std::uint64_t>(ids.begin(), ids.end()).size() == 32768);  // IDs unique
    CHECK(s.held(0, "Coordinates") == nullptr);
    CHECK_THROWS_WITH_AS(s.read(0, "Nonesuch"), doctest::Contains("has no field 'Nonesuch'; it has "), UserError);
    CHECK_THROWS_WITH_AS(s.read(4, "Coordinates"), doctest::Contains("its types with particles: 0, 1"), UserError);
    CHECK_THROWS_WITH_AS(s.read(0, "Coordinates", 3), doctest::Contains("has 3 components"), UserError);
  }
  {  // Gadget format 2 in two files
    const SnapshotRequest in =
        request(SnapshotFormat::gadget, {data + "/gadgetreader_test_g2_snap.0", data + "/gadgetreader_test_g2_snap.1"});
    const SnapshotFields s(in);
    CHECK(type_of(s, 0).count == 4039);
    CHECK(type_of(s, 1).count == 4096);
    const ParticleArray<float> x = s.read(0, "POS", 0);
    CHECK(x == rendered_x(in, 0));
    CHECK(s.read_integers(1, "ID").size() == 4096);
  }
  {  // Tipsy
    const SnapshotRequest in = request(SnapshotFormat::tipsy, {data + "/changa_testonestar_onestar.tbin"});
    const SnapshotFields s(in);
    CHECK(type_of(s, 0).count == 1088);
    CHECK(type_of(s, 0).name == "gas");
    CHECK(s.read(0, "pos", 0) == rendered_x(in, 0));
  }
  {  // Phantom: columns, lent without a copy
    const SnapshotRequest in = request(SnapshotFormat::phantom, {data + "/phantom_blast_00010"});
    const SnapshotFields s(in);
    CHECK(type_of(s, 1).count == 576);
    REQUIRE(s.held(1, "x") != nullptr);
    CHECK(s.held(1, "x")->size() == 576);
    CHECK(s.read(1, "x") == std::vector<float>(s.held(1, "x")->begin(), s.held(1, "x")->end()));
    CHECK(s.read_integers(1, "iorig").size() == 576);
    CHECK(s.outline().units.length_cm > 0);
  }
}

}  // namespace splotch
