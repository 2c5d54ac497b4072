// The memory estimate before reading (splotch/frame/memory_need.h) and the particle count it starts from
// (splotch/load/particle_count.h).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "errors/user_error.h"
#include "splotch/frame/memory_need.h"
#include "splotch/load/particle_count.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

MemoryShape shape(int resolution, bool a_eq_e) {
  MemoryShape s;
  s.pixels = std::size_t(resolution) * std::size_t(resolution);
  s.a_eq_e = a_eq_e;
  return s;
}

}  // namespace

TEST_CASE("memory: the estimate is within 10% of the peak the benchmark runs measured") {
  // Peak memory in the report of the host renderer's runs of the benchmark snapshot (6 fields):
  // tests/bench/bench.sh on the H100 node, and 4e6 on the 2-core machine.
  struct Peak {
    double particles;
    int resolution;
    bool a_eq_e;
    double mib;
  } peaks[] = {{1e6, 800, true, 47.4},    {1e6, 800, false, 65.0},    {1e7, 800, true, 292.6},
               {1e7, 2048, false, 471.7}, {1e8, 800, true, 2686.3},   {1e8, 800, false, 4055.7},
               {1e8, 2048, true, 2686.6}, {1e8, 2048, false, 3947.9}, {4e6, 2048, true, 164.7}};
  for (const Peak& p : peaks) {
    CAPTURE(p.particles);
    CAPTURE(p.resolution);
    CAPTURE(p.a_eq_e);
    const MemoryNeed need = memory_need(std::uint64_t(p.particles), shape(p.resolution, p.a_eq_e));
    CHECK(double(need.total) / MiB == doctest::Approx(p.mib).epsilon(0.1));
  }
}

TEST_CASE("memory: what adds to the estimate") {
  const MemoryNeed base = memory_need(1000000, shape(800, true));
  CHECK(base.bytes_per_particle == 28);
  MemoryShape vector = shape(800, true);
  vector.fields = 8;
  CHECK(memory_need(1000000, vector).bytes_per_particle == 36);
  MemoryShape knn = shape(800, true);
  knn.knn = true;
  CHECK(memory_need(1000000, knn).bytes_per_particle == 24 + 37);
  MemoryShape scene = shape(800, false);
  scene.keeps_particles = true;
  scene.types = true;
  CHECK(memory_need(1000000, scene).bytes_per_particle == 2 * 25 + 18);
  CHECK(base.image_bytes == 800 * 800 * 13);
}

TEST_CASE("memory: a run that does not fit is an error saying what it needs and what to do") {
  const MemoryNeed need = memory_need(1000000000, shape(2048, true));  // 1e9 particles: 26 GiB
  try {
    check_memory(need, 1000000000, std::size_t(16) << 30, 1, "snap_100");
    FAIL("no error");
  } catch (const UserError& e) {
    const std::string text = e.what();
    CHECK(text.find("'snap_100' needs about 26.1") != std::string::npos);
    CHECK(text.find("1e+09 particles x 28 bytes") != std::string::npos);
    CHECK(text.find("16.00 GiB are available") != std::string::npos);
    CHECK(text.find("MPI") != std::string::npos);
    CHECK(text.find("memory_check = FALSE") != std::string::npos);
  }
  // An image that takes more than the particles: a smaller image is the advice, not MPI.
  const MemoryNeed image = memory_need(50000, shape(30000, true));
  CHECK_THROWS_WITH(check_memory(image, 50000, std::size_t(1) << 30, 1, "s"),
                    doctest::Contains("Render a smaller image (xres, yres"));
  // Shared by the 4 processes of a node: said.
  CHECK_THROWS_WITH(check_memory(need, 1000000000, std::size_t(4) << 30, 4, "snap_100"),
                    doctest::Contains("shared by 4 processes"));
  // Over 90% of what is available: a warning; well inside, nothing; unknown (0), nothing.
  CHECK(check_memory(need, 1000000000, std::size_t(double(need.total) / 0.95), 1, "s").find("may be killed") !=
        std::string::npos);
  CHECK(check_memory(need, 1000000000, std::size_t(64) << 30, 1, "s").empty());
  CHECK(check_memory(need, 1000000000, 0, 1, "s").empty());
}

TEST_CASE("memory: the particles to read come from the headers, of the types asked for, of a process's share") {
  TempDir dir;
  const std::string path = dir.file("snap");
  GadgetTestFile file;
  file.npart = {100, 50, 0, 0, 7, 0};
  file.npart_total = file.npart;
  file.blocks.push_back({"POS", std::vector<double>(3 * 157, 1.0)});
  file.write(path);
  SnapshotRequest in;
  in.format = SnapshotFormat::gadget;
  in.path = path;
  in.typed.files = {path};
  in.typed.types.resize(2);
  in.typed.types[0].file_type = 0;
  in.typed.types[1].file_type = 4;
  CHECK(particles_to_read(in) == std::uint64_t(107));
  in.typed.share = ReadShare(1, 4);
  CHECK(particles_to_read(in) == std::uint64_t(27));  // 107 shared by 4: at most 27 each

  SnapshotRequest raw;
  raw.format = SnapshotFormat::raw_blocks;
  raw.path = dir.file("raw.bin");
  raw.raw.num_fields = 6;
  write_file(raw.path, std::string(6 * 4 * 1000, '\0'));
  CHECK(particles_to_read(raw) == std::uint64_t(1000));

  SnapshotRequest table;
  table.format = SnapshotFormat::hdf5_table;
  CHECK_FALSE(particles_to_read(table).has_value());  // rows may be selected: not known before reading
  raw.path = dir.file("missing.bin");
  CHECK_FALSE(particles_to_read(raw).has_value());  // the read says what is wrong
}
