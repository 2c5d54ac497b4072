// Every reader's slice for one process of an MPI run (io/read_share.h): the parts of a snapshot,
// taken per render type in order, are the whole snapshot, for any number of parts, whatever the
// format, the number of files and the kind of dataset.
#include <doctest/doctest.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/hdf5_reader.h"
#include "io/raw_reader.h"
#include "io/tipsy_reader.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

namespace splotch {
namespace {

using Row = std::array<float, 8>;  // x y z hsml I C1 C2 C3

std::vector<Row> rows_of_type(const ParticleSet& p, int n) {
  std::vector<Row> out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.type_of(i) != n) continue;
    Row r{p.x[i], p.y[i], p.z[i], p.hsml[i], p.intensity[i], p.colour[0][i], 0, 0};
    if (!p.colour[1].empty()) r[6] = p.colour[1][i], r[7] = p.colour[2][i];
    out.push_back(r);
  }
  return out;
}

// Reads with `read(share)` in 1 to 7 parts and checks that the parts put together, type by type,
// are the whole. With as many files as parts or more (files[f][n]: render type n's particles in
// file f), each part is whole files, one after another; otherwise the parts' sizes differ by one
// at most.
void check_parts(int types, const std::function<ParticleSet(ReadShare)>& read,
                 const std::vector<std::vector<std::size_t>>& files = {}) {
  const ParticleSet whole = read(ReadShare{});
  REQUIRE(whole.size() > 0);
  for (int parts = 1; parts <= 7; ++parts) {
    INFO(parts << " parts");
    const bool whole_files = std::size_t(parts) <= files.size();
    std::size_t next_file = 0;
    std::vector<std::vector<Row>> joined(static_cast<std::size_t>(types));
    for (int part = 0; part < parts; ++part) {
      const ParticleSet p = read(ReadShare{part, parts});
      CHECK(p.box_size == whole.box_size);
      std::vector<std::size_t> counts;
      for (int n = 0; n < types; ++n) {
        const std::vector<Row> rows = rows_of_type(p, n);
        const std::size_t all = rows_of_type(whole, n).size();
        counts.push_back(rows.size());
        if (!whole_files) {
          CHECK(rows.size() >= all / std::size_t(parts));
          CHECK(rows.size() <= (all + std::size_t(parts) - 1) / std::size_t(parts));
        }
        joined[std::size_t(n)].insert(joined[std::size_t(n)].end(), rows.begin(), rows.end());
      }
      if (whole_files) {  // the counts of the files from next_file on, as many as it takes
        std::vector<std::size_t> sum(std::size_t(types), 0);
        while (sum != counts && next_file < files.size()) {
          for (int n = 0; n < types; ++n) sum[std::size_t(n)] += files[next_file][std::size_t(n)];
          ++next_file;
        }
        CHECK(sum == counts);
      }
    }
    for (int n = 0; n < types; ++n) CHECK(joined[std::size_t(n)] == rows_of_type(whole, n));
  }
}

}  // namespace

TEST_CASE("read share: raw tables and blocks") {
  testing::TempDir dir;
  const int n = 23, fields = 5;
  std::vector<float> table, blocks(std::size_t(n * fields));
  for (int i = 0; i < n; ++i)
    for (int f = 0; f < fields; ++f) {
      const float v = float(i) + 0.125f * float(f + 1);
      table.push_back(v);
      blocks[std::size_t(f * n + i)] = v;
    }
  auto bytes = [](const std::vector<float>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  };
  testing::write_file(dir.path("table.bin"), bytes(table));
  testing::write_file(dir.path("blocks.bin"), bytes(blocks));
  for (bool is_table : {true, false}) {
    INFO((is_table ? "table" : "blocks"));
    RawOptions o;
    o.layout = is_table ? RawOptions::Layout::table : RawOptions::Layout::blocks;
    o.num_fields = fields;
    o.hsml = 3;
    o.colour[0] = 4;
    o.swap_endian = false;
    check_parts(1, [&](ReadShare share) {
      o.share = share;
      return read_raw(dir.path(is_table ? "table.bin" : "blocks.bin"), o);
    });
  }
}

TEST_CASE("read share: Gadget and HDF5 snapshots of two files, two render types; whole files for two parts") {
  testing::TempDir dir;
  std::vector<std::string> gadget, hdf5;
  // Gas [0, 9) and DM [0, 3) in .0, gas [9, 14) and DM [3, 8) in .1: slices cross the files.
  for (int k = 0; k < 2; ++k) {
    testing::GadgetTestFile g = testing::snapshot(testing::Variant{2, false, 4, 4}, k == 0 ? 9 : 5, k == 0 ? 3 : 5,
                                                  k == 0 ? 0 : 9, k == 0 ? 0 : 3);
    g.num_files = 2;
    gadget.push_back(dir.path("snap." + std::to_string(k)));
    g.write(gadget.back());
    if (hdf5_supported()) {
      testing::Hdf5TestOptions o;
      o.chunked = k == 1;
      hdf5.push_back(dir.path("snap." + std::to_string(k) + ".hdf5"));
      testing::Hdf5TestWriter::write(g, hdf5.back(), o);
    }
  }
  // Gas and DM of each file: with one or two parts, whole files.
  const std::vector<std::vector<std::size_t>> files = {{9, 3}, {5, 5}};
  check_parts(
      2,
      [&](ReadShare share) {
        TypedSnapshotRequest o = testing::gas_and_dm(gadget);
        o.share = share;
        return read_gadget(o);
      },
      files);
  if (!hdf5_supported()) {
    MESSAGE("HDF5 part skipped: this build has no HDF5");
    return;
  }
  check_parts(
      2,
      [&](ReadShare share) {
        TypedSnapshotRequest o = testing::gas_and_dm(hdf5);
        o.share = share;
        return read_hdf5(o);
      },
      files);
}

TEST_CASE("read share: Tipsy records and auxiliary arrays") {
  testing::TempDir dir;
  testing::TipsyTestFile f;
  const int counts[3] = {11, 6, 4};
  std::vector<double> ascii, binary;
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < counts[t]; ++i) {
      std::vector<double> r;
      for (int k = 0; k < testing::tipsy_record_values[t]; ++k) r.push_back(100.0 * t + i + 0.01 * k + 0.5);
      f.records[t].push_back(r);
      ascii.push_back(1000 + 10.0 * t + i);
      binary.push_back(2000 + 10.0 * t + i);
    }
  const std::string path = dir.path("run.00100");
  f.write(path);
  testing::write_file(path + ".smoothlength", testing::tipsy_ascii_array(ascii));
  testing::write_file(path + ".HI", testing::tipsy_binary_array(binary, true));
  auto request = [](int type, const std::string& size, const std::string& colour, const std::string& intensity) {
    RenderTypeRequest r;
    r.file_type = type;
    r.size_fix = 0;
    r.size.label = size;
    r.colour.label = colour;
    r.intensity.label = intensity;
    return r;
  };
  check_parts(3, [&](ReadShare share) {
    TypedSnapshotRequest o;
    o.files = {path};
    o.types = {request(0, "smoothlength", "HI", "rho"), request(1, "eps", "HI", "mass"),
               request(2, "smoothlength", "metals", "HI")};
    o.types[1].colour.label = "vel";
    o.types[1].vector_colour = true;
    o.share = share;
    return read_tipsy(o);
  });
}

}  // namespace splotch

TEST_CASE("read share: whole files where they share out about evenly, slices otherwise") {
  using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;
  const std::vector<std::vector<std::size_t>> four = {{25, 1}, {25, 1}, {25, 1}, {25, 1}};
  // Two parts of four equal files: two files each, of both types.
  CHECK(splotch::ReadShare{0, 2}.ranges(four, 2) == Ranges{{0, 50}, {0, 2}});
  CHECK(splotch::ReadShare{1, 2}.ranges(four, 2) == Ranges{{50, 100}, {2, 4}});
  // Three parts of four files: one would hold two files, 8/5 of an even share; slices instead.
  CHECK(splotch::ReadShare{1, 3}.ranges(four, 2) == Ranges{{33, 66}, {1, 2}});
  // One large file among small ones: slices.
  const std::vector<std::vector<std::size_t>> uneven = {{10}, {10}, {10}, {10}, {1000}};
  CHECK(splotch::ReadShare{0, 4}.ranges(uneven, 1) == Ranges{{0, 260}});
  CHECK(splotch::ReadShare{3, 4}.ranges(uneven, 1) == Ranges{{780, 1040}});
  // More parts than files: slices.
  CHECK(splotch::ReadShare{4, 5}.ranges(four, 2) == Ranges{{80, 100}, {3, 4}});
}

namespace splotch {

TEST_CASE("read share: with every file's counts given, a share opens only the first file and its own") {
  testing::TempDir dir;
  std::vector<std::string> gadget, hdf5;
  for (int k = 0; k < 3; ++k) {
    testing::GadgetTestFile g = testing::snapshot(testing::Variant{2, false, 4, 4}, 6, 2, 6 * k, 2 * k);
    g.num_files = 3;
    gadget.push_back(dir.path("snap." + std::to_string(k)));
    g.write(gadget.back());
    if (hdf5_supported()) {
      hdf5.push_back(dir.path("snap." + std::to_string(k) + ".hdf5"));
      testing::Hdf5TestWriter::write(g, hdf5.back());
    }
  }
  auto check = [&](const std::vector<std::string>& files, auto read, auto counts_of) {
    TypedSnapshotRequest o = splotch::testing::gas_and_dm(files);
    o.share = ReadShare{2, 3};
    const ParticleSet last = read(o);  // the third file, opening all
    REQUIRE(last.size() == 8);
    o.share.file_counts = counts_of(o);
    CHECK(o.share.file_counts == std::vector<std::vector<std::uint64_t>>(3, o.share.file_counts[0]));
    testing::write_file(files[1], "not a snapshot");  // the middle file, which the share does not read
    CHECK_THROWS_AS(read(TypedSnapshotRequest(splotch::testing::gas_and_dm(files))), UserError);
    const ParticleSet again = read(o);
    for (int n = 0; n < 2; ++n) CHECK(rows_of_type(again, n) == rows_of_type(last, n));
    CHECK(again.box_size == last.box_size);
  };
  check(
      gadget, [](const TypedSnapshotRequest& o) { return read_gadget(o); },
      [](const TypedSnapshotRequest& o) { return gadget_file_counts(o); });
  if (!hdf5_supported()) {
    MESSAGE("HDF5 part skipped: this build has no HDF5");
    return;
  }
  check(
      hdf5, [](const TypedSnapshotRequest& o) { return read_hdf5(o); },
      [](const TypedSnapshotRequest& o) { return hdf5_file_counts(o); });
}

}  // namespace splotch
