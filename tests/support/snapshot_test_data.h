// The test snapshot the reader tests share: gas and dark-matter particles whose every value
// follows from its index, written as Gadget binary (tests/support/gadget_test_file.h) or as its HDF5
// twin (tests/support/hdf5_test_file.h), the request that reads it, and the check of what was read.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "errors/user_error.h"
#include "io/gadget_reader.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/test_support.h"

namespace splotch::testing {

struct Variant {
  int format;
  bool big_endian;
  int value_bytes, id_bytes;
};

// Gas particle i and dark-matter particle j of the test snapshot, starting at `gas0`, `dm0`.
inline double gas_x(int i) { return i + 0.25; }
inline double dm_x(int j) { return 100 + j; }

// A snapshot of `gas` gas and `dm` dark-matter particles (DM in the mass table): POS VEL ID MASS
// (gas only) U RHO HSML; particle numbers start at gas0 and dm0, so that files of a split
// snapshot hold different particles.
inline GadgetTestFile snapshot(const Variant& v, int gas, int dm, int gas0 = 0, int dm0 = 0) {
  GadgetTestFile f;
  f.format = v.format;
  f.big_endian = v.big_endian;
  f.flag_double = v.value_bytes == 8;
  f.npart = {std::uint32_t(gas), std::uint32_t(dm), 0, 0, 0, 0};
  f.npart_total = f.npart;
  f.mass = {0, 0.5, 0, 0, 0, 0};
  f.box_size = 250;
  GadgetTestBlock pos{"POS", {}, v.value_bytes}, vel{"VEL", {}, v.value_bytes}, id{"ID", {}, v.id_bytes, true};
  for (int i = gas0; i < gas0 + gas; ++i) {
    pos.values.insert(pos.values.end(), {gas_x(i), 10.0 + i, 20.0 + i});
    vel.values.insert(vel.values.end(), {1.0 + i, 2.0 + i, 3.0 + i});
    id.values.push_back(1 + i);
  }
  for (int j = dm0; j < dm0 + dm; ++j) {
    pos.values.insert(pos.values.end(), {dm_x(j), 110.0 + j, 120.0 + j});
    vel.values.insert(vel.values.end(), {-1.0 - j, -2.0 - j, -3.0 - j});
    id.values.push_back(1000 + j);
  }
  GadgetTestBlock mass{"MASS", {}, v.value_bytes}, u{"U", {}, v.value_bytes}, rho{"RHO", {}, v.value_bytes},
      hsml{"HSML", {}, v.value_bytes};
  for (int i = gas0; i < gas0 + gas; ++i) {
    mass.values.push_back(0.25 * (i + 1));
    u.values.push_back(100.0 + i);
    rho.values.push_back(0.125 * (i + 1));
    hsml.values.push_back(0.5 * (i + 1));
  }
  f.blocks = {pos, vel, id};
  if (gas > 0) f.blocks.insert(f.blocks.end(), {mass, u, rho, hsml});
  return f;
}

// Render type 0: gas, hsml from HSML, colour U x 2, intensity RHO; type 1: DM, hsml 0.5,
// colour from the mass table, intensity 1.
inline TypedSnapshotRequest gas_and_dm(const std::vector<std::string>& files) {
  TypedSnapshotRequest o;
  o.files = files;
  RenderTypeRequest gas;
  gas.file_type = 0;
  gas.size_fix = 0;
  gas.size.label = "HSML";
  gas.colour = {"U", 2.0f, std::nullopt};
  gas.intensity.label = "RHO";
  RenderTypeRequest dm;
  dm.file_type = 1;
  dm.size_fix = 0.5f;
  dm.colour.label = "MASS";
  o.types = {gas, dm};
  return o;
}

// What gas_and_dm() must give for gas particles [g0, g1) and DM particles [d0, d1).
inline void check_particles(const ParticleSet& p, std::vector<std::pair<int, int>> gas,
                            std::vector<std::pair<int, int>> dm) {
  std::size_t k = 0;
  for (auto [lo, hi] : gas)
    for (int i = lo; i < hi; ++i, ++k) {
      REQUIRE(k < p.size());
      CHECK(p.x[k] == float(gas_x(i)));
      CHECK(p.y[k] == float(10.0 + i));
      CHECK(p.z[k] == float(20.0 + i));
      CHECK(p.hsml[k] == float(0.5 * (i + 1)));
      CHECK(p.colour[0][k] == float(100.0 + i) * 2.0f);
      CHECK(p.intensity[k] == float(0.125 * (i + 1)));
      CHECK(p.type[k] == 0);
    }
  for (auto [lo, hi] : dm)
    for (int j = lo; j < hi; ++j, ++k) {
      REQUIRE(k < p.size());
      CHECK(p.x[k] == float(dm_x(j)));
      CHECK(p.z[k] == float(120.0 + j));
      CHECK(p.hsml[k] == 0.5f);
      CHECK(p.colour[0][k] == 0.5f);
      CHECK(p.intensity[k] == 1.0f);
      CHECK(p.type[k] == 1);
    }
  CHECK(p.size() == k);
}

inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) { return e.what(); }
  return "";
}

}  // namespace splotch::testing
