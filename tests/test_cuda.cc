// The GPU renderer against the host renderer (DESIGN.md section 5: within 1e-4 of the image
// maximum). Where no GPU is present every case says so and checks nothing: they run for real on
// a machine with one.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "cuda/cuda_renderer.h"
#include "splotch/host_renderer.h"
#include "tests/test_support.h"

namespace splotch {
namespace {

using testing::max_abs_difference;
using testing::max_value;
using testing::SplatArrays;

bool have_gpu() {
  std::string why;
  if (cuda_device_present(&why)) return true;
  MESSAGE("GPU test skipped: " << why);
  return false;
}

// Renders on the GPU and on the host; checks the images agree and how the splats were divided.
CudaReport check_against_host(const SplatArrays& s, int w, int h, const CudaOptions& o = CudaOptions{}) {
  Image host(w, h), gpu(w, h);
  render_host(s.view(), o.host, host);
  const CudaReport report = render_cuda(s.view(), o, gpu);
  CHECK(report.on_gpu + report.on_host == s.x.size());
  const float scale = std::max(max_value(host), 1e-30f);
  CHECK(max_abs_difference(host, gpu) <= 1e-4f * scale);
  return report;
}

}  // namespace

TEST_CASE("gpu btile: empty input leaves the image as it was") {
  if (!have_gpu()) return;
  SplatArrays none;
  Image image(40, 30);
  image.pixel(3, 4)[1] = 0.5f;
  const CudaReport report = render_cuda(none.view(), CudaOptions{}, image);
  CHECK(report.on_gpu == 0);
  CHECK(image.pixel(3, 4)[1] == 0.5f);
}

TEST_CASE("gpu btile: one particle, many on one pixel, tile corners and edges") {
  if (!have_gpu()) return;
  SUBCASE("one particle") {
    SplatArrays s;
    s.add(50.3f, 40.7f, 6.0f, 1.0f, 0.5f, 0.25f);
    check_against_host(s, 100, 90);
  }
  SUBCASE("many particles on one pixel") {
    SplatArrays s;
    for (int i = 0; i < 5000; ++i) s.add(33.5f, 33.5f, 2.0f + float(i % 7), 0.01f, 0.02f, 0.03f);
    check_against_host(s, 64, 64);
  }
  SUBCASE("centres on tile corners and edges") {
    SplatArrays s;
    for (int ty = 0; ty <= 4; ++ty)
      for (int tx = 0; tx <= 4; ++tx)
        for (float d : {-0.5f, 0.0f, 0.49f})
          s.add(32.0f * float(tx) + d, 32.0f * float(ty) - d, 9.0f, 0.3f, 0.2f, 0.1f);
    check_against_host(s, 128, 128);
  }
}

TEST_CASE("gpu btile: off-screen particles, radii around the boundary width, huge particles") {
  if (!have_gpu()) return;
  CudaOptions o;
  SUBCASE("partly and wholly off-screen") { check_against_host(testing::random_splats(3000, 150, 110, 5, 14.0f, 0.3f), 150, 110, o); }
  SUBCASE("radii just below and above the boundary width") {
    SplatArrays s;
    const float limit = float(o.boundary) / 0.75f;  // footprint radius 0.75 r
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(0.0f, 200.0f);
    for (int i = 0; i < 2000; ++i) s.add(u(rng), u(rng), limit * (i % 2 ? 1.0001f : 0.9999f), 0.2f, 0.4f, 0.6f);
    Image host(200, 200), gpu(200, 200);
    render_host(s.view(), o.host, host);
    const CudaReport report = render_cuda(s.view(), o, gpu);
    CHECK(report.on_gpu == 1000);
    CHECK(report.on_host == 1000);
    CHECK(max_abs_difference(host, gpu) <= 1e-4f * max_value(host));
  }
  SUBCASE("huge particles (on the host) among small ones") {
    SplatArrays s = testing::random_splats(2000, 300, 200, 7, 6.0f, 0.3f);
    s.add(150.0f, 100.0f, 400.0f, 0.5f, 0.5f, 0.5f);
    s.add(-50.0f, 20.0f, 90.0f, 0.2f, 0.1f, 0.4f);
    check_against_host(s, 300, 200, o);
  }
  SUBCASE("other tile sizes and boundaries") {
    o.tile_x = 16;
    o.tile_y = 24;
    o.boundary = 4;
    check_against_host(testing::random_splats(2000, 211, 157, 11, 10.0f, 0.3f), 211, 157, o);
  }
}

TEST_CASE("gpu btile: chunked streaming gives the image of one transfer") {
  if (!have_gpu()) return;
  const SplatArrays s = testing::random_splats(20000, 257, 190, 13, 12.0f, 0.3f);
  CudaOptions o;
  SUBCASE("chunks of 1000, 7777 and more than all") {
    for (std::size_t chunk : {std::size_t(1000), std::size_t(7777), std::size_t(1) << 20}) {
      CAPTURE(chunk);
      o.chunk_particles = chunk;
      const CudaReport report = check_against_host(s, 257, 190, o);
      CHECK(report.chunks == (s.x.size() + std::min(chunk, s.x.size()) - 1) / std::min(chunk, s.x.size()));
    }
  }
  SUBCASE("a chunk of one splat") {
    o.chunk_particles = 1;
    const CudaReport report = check_against_host(testing::random_splats(40, 90, 70, 3, 9.0f), 90, 70, o);
    CHECK(report.chunks == 40);
  }
}

TEST_CASE("gpu btile: a wide boundary keeps large splats on the GPU") {
  if (!have_gpu()) return;
  CudaOptions o;
  o.tile_x = o.tile_y = 64;
  o.boundary = 32;  // a Btile of 128 x 128 x 3 floats: 192 KiB of shared memory
  const SplatArrays s = testing::random_splats(6000, 400, 300, 17, 50.0f, 0.3f);
  const CudaReport report = check_against_host(s, 400, 300, o);
  CHECK(report.on_host > 0);  // r above 32 / 0.75
  CHECK(report.on_gpu > 4 * report.on_host);
}

TEST_CASE("gpu btile: a Btile larger than the GPU's shared memory is an error naming the keys") {
  if (!have_gpu()) return;
  CudaOptions o;
  o.tile_x = o.tile_y = 256;
  o.boundary = 128;  // 512 x 512 x 3 floats: 3 MiB
  Image image(300, 300);
  try {
    render_cuda(testing::random_splats(10, 300, 300, 1, 5.0f).view(), o, image);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    CHECK(m.find("tile_boundary_width = 128") != std::string::npos);
    CHECK(m.find("3072 KiB") != std::string::npos);
  }
  CHECK(max_value(image) == 0.0f);  // nothing drawn
}

}  // namespace splotch
