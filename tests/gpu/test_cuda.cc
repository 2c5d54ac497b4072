// The GPU renderers against the host renderer (docs/design.md section 5: within 1e-4 of the image
// maximum), each case for both algorithms and both a_eq_e values.
// Where no GPU is present the cases marked so are skipped (tests/support/gpu_skip.h): they run for real on
// a machine with one.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "splotch/render/gpu_render.h"
#include "splotch/render/host_renderer.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::max_abs_difference;
using testing::max_value;
using testing::no_gpu;
using testing::SplatArrays;

struct Variant {
  CudaAlgorithm algorithm;
  bool a_eq_e;
};
const Variant variants[] = {{CudaAlgorithm::btile, true},
                            {CudaAlgorithm::btile, false},
                            {CudaAlgorithm::fragment, true},
                            {CudaAlgorithm::fragment, false}};

CudaOptions options_for(const Variant& v) {
  CudaOptions o;
  o.algorithm = v.algorithm;
  o.host.a_eq_e = v.a_eq_e;
  return o;
}

// Draw keys with many ties (a_eq_e = FALSE): equal keys must keep the array order everywhere.
void give_keys(SplatArrays& s, unsigned seed) {
  std::mt19937 rng(seed);
  s.key.resize(s.x.size());
  for (auto& k : s.key) k = std::uint32_t(rng() % 37) * 0x01000193u;
}

// Renders on the GPU and on the host over the same non-black image (added to, or composited
// over); checks the images agree and that every splat was drawn by one of the two.
CudaReport check_against_host(SplatArrays s, int w, int h, const CudaOptions& o) {
  if (!o.host.a_eq_e && s.key.empty()) give_keys(s, 77);
  Image host(w, h);
  for (std::size_t i = 0; i < host.rgb.size(); ++i) host.rgb[i] = 0.05f * float(i % 7);
  Image gpu = host;
  render_host(s.view(), o.host, host);
  const CudaReport report = render_gpu(s.view(), o, gpu);
  CHECK(report.on_gpu + report.on_host == s.x.size());
  if (!o.host.a_eq_e) CHECK(report.on_host == 0);  // compositing stays on the GPU
  const float scale = std::max(max_value(host), 1e-30f);
  CHECK(max_abs_difference(host, gpu) <= 1e-4f * scale);
  return report;
}

std::string describe(const Variant& v) {
  return std::string(algorithm_name(v.algorithm)) + (v.a_eq_e ? ", a_eq_e" : ", a_eq_e = FALSE");
}

}  // namespace

TEST_CASE("gpu: empty input leaves the image as it was" * doctest::skip(no_gpu())) {
  for (const Variant& v : variants) {
    INFO(describe(v));
    SplatArrays none;
    Image image(40, 30);
    image.pixel(3, 4)[1] = 0.5f;
    const CudaReport report = render_gpu(none.view(), options_for(v), image);
    CHECK(report.on_gpu == 0);
    CHECK(image.pixel(3, 4)[1] == 0.5f);
  }
}

TEST_CASE("gpu: one particle, many on one pixel, tile corners and edges" * doctest::skip(no_gpu())) {
  for (const Variant& v : variants) {
    INFO(describe(v));
    const CudaOptions o = options_for(v);
    SplatArrays one;
    one.add(50.3f, 40.7f, 6.0f, 1.0f, 0.5f, 0.25f);
    check_against_host(one, 100, 90, o);

    SplatArrays pile;
    for (int i = 0; i < 5000; ++i) pile.add(33.5f, 33.5f, 2.0f + float(i % 7), 0.01f * float(i % 5), 0.02f, 0.03f);
    check_against_host(pile, 64, 64, o);

    SplatArrays corners;
    for (int ty = 0; ty <= 4; ++ty)
      for (int tx = 0; tx <= 4; ++tx)
        for (float d : {-0.5f, 0.0f, 0.49f})
          corners.add(32.0f * float(tx) + d, 32.0f * float(ty) - d, 9.0f, 0.3f, 0.2f, 0.1f);
    check_against_host(corners, 128, 128, o);
  }
}

TEST_CASE("gpu: off-screen particles, radii around the boundary width, huge particles, other tiles" *
          doctest::skip(no_gpu())) {
  for (const Variant& v : variants) {
    INFO(describe(v));
    CudaOptions o = options_for(v);
    check_against_host(testing::random_splats(3000, 150, 110, 5, 14.0f, 0.3f), 150, 110, o);

    SplatArrays around;
    const float limit = float(o.boundary) / 0.75f;  // footprint radius 0.75 r
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(0.0f, 200.0f);
    for (int i = 0; i < 2000; ++i) around.add(u(rng), u(rng), limit * (i % 2 ? 1.0001f : 0.9999f), 0.2f, 0.4f, 0.6f);
    const CudaReport report = check_against_host(around, 200, 200, o);
    CHECK(report.on_host == (v.a_eq_e ? 1000 : 0));  // with a_eq_e the host takes those above the boundary

    SplatArrays huge = testing::random_splats(2000, 300, 200, 7, 6.0f, 0.3f);
    huge.add(150.0f, 100.0f, 400.0f, 0.5f, 0.5f, 0.5f);
    huge.add(-50.0f, 20.0f, 90.0f, 0.2f, 0.1f, 0.4f);
    check_against_host(huge, 300, 200, o);

    o.tile_x = 16;
    o.tile_y = 24;
    o.boundary = 4;
    check_against_host(testing::random_splats(2000, 211, 157, 11, 10.0f, 0.3f), 211, 157, o);
  }
}

TEST_CASE("gpu: chunked streaming and passes give the image of one transfer" * doctest::skip(no_gpu())) {
  for (const Variant& v : variants) {
    INFO(describe(v));
    CudaOptions o = options_for(v);
    SplatArrays s = testing::random_splats(20000, 257, 190, 13, 12.0f, 0.3f);
    give_keys(s, 21);
    for (std::size_t chunk : {std::size_t(1000), std::size_t(7777), std::size_t(1) << 20}) {
      CAPTURE(chunk);
      o.chunk_particles = chunk;
      const CudaReport report = check_against_host(s, 257, 190, o);
      const std::size_t fewest = (s.x.size() + std::min(chunk, s.x.size()) - 1) / std::min(chunk, s.x.size());
      // With a_eq_e = FALSE cuts fall between key ranges, which can take a few more chunks.
      if (v.a_eq_e)
        CHECK(report.chunks == fewest);
      else
        CHECK(report.chunks >= fewest);
    }
    o.chunk_particles = 1;
    CHECK(check_against_host(testing::random_splats(40, 90, 70, 3, 9.0f), 90, 70, o).chunks == 40);
    // Passes: a chunk's tile-list entries (about 1.5 per splat) or fragments (about 150 per
    // splat) made and drawn a part at a time, some thirty passes per chunk.
    o.chunk_particles = 5000;
    o.pass_items = v.algorithm == CudaAlgorithm::fragment ? 25000 : 250;
    check_against_host(s, 257, 190, o);
  }
}

TEST_CASE("gpu: a wide boundary keeps large splats on the GPU" * doctest::skip(no_gpu())) {
  for (const Variant& v : variants) {
    INFO(describe(v));
    CudaOptions o = options_for(v);
    o.tile_x = o.tile_y = 64;
    o.boundary = 32;  // a Btile of 128 x 128 x 3 sums of 4 bytes: 192 KiB of shared memory
    const CudaReport report = check_against_host(testing::random_splats(6000, 400, 300, 17, 50.0f, 0.3f), 400, 300, o);
    if (v.a_eq_e) {
      CHECK(report.on_host > 0);  // r above 32 / 0.75
      CHECK(report.on_gpu > 4 * report.on_host);
    }
  }
}

TEST_CASE("gpu: a_eq_e pictures are the same from run to run, bit for bit, in one chunk or many" *
          doctest::skip(no_gpu())) {
  // Many splats on few pixels, their emissions over seven decades: a sum whose roundings depend on
  // the order of its terms (atomic float additions, as the Btiles had, differ from run to run).
  SplatArrays s = testing::random_splats(200000, 96, 80, 41, 9.0f, 0.5f);
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const float decade = std::pow(10.0f, float(int(i % 7) - 3));
    s.e0[i] *= decade;
    s.e1[i] *= decade * 0.5f;
    s.e2[i] *= decade * 0.25f;
  }
  for (const CudaAlgorithm algorithm : {CudaAlgorithm::btile, CudaAlgorithm::fragment}) {
    for (const std::size_t chunk : {std::size_t(0), std::size_t(30000)}) {
      INFO(algorithm_name(algorithm) << ", chunk " << chunk);
      CudaOptions o;
      o.algorithm = algorithm;
      o.chunk_particles = chunk;
      Image first(96, 80);
      render_gpu(s.view(), o, first);
      for (int run = 0; run < 4; ++run) {
        Image again(96, 80);
        render_gpu(s.view(), o, again);
        CHECK(again.rgb == first.rgb);
      }
      Image host(96, 80);
      render_host(s.view(), o.host, host);
      CHECK(max_abs_difference(host, first) <= 1e-4f * max_value(host));
    }
  }
}

TEST_CASE("gpu: a_eq_e sums keep faint pixels beside a splat 10^4 times brighter in one tile" *
          doctest::skip(no_gpu())) {
  // The Btile's integer sums are scaled from its piece's sum of emissions (cuda/btile_renderer.cu):
  // a contribution rounds to at most 2^-30 of it, so faint pixels beside a bright splat of the same
  // tile keep about 2^-30 x 10^4 of the bright one's light each: well within a part in 500 of
  // their own value.
  SplatArrays s;
  s.add(48.0f, 48.0f, 3.0f, 1e4f, 5e3f, 2e3f);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(32.0f, 64.0f), ur(2.0f, 8.0f), ue(0.5f, 1.0f);
  for (int i = 0; i < 600; ++i) s.add(u(rng), u(rng), ur(rng), ue(rng), ue(rng), ue(rng));
  for (const CudaAlgorithm algorithm : {CudaAlgorithm::btile, CudaAlgorithm::fragment}) {
    INFO(algorithm_name(algorithm));
    CudaOptions o;
    o.algorithm = algorithm;
    Image host(128, 128), gpu(128, 128);
    render_host(s.view(), o.host, host);
    render_gpu(s.view(), o, gpu);
    std::size_t faint = 0, off = 0;
    for (std::size_t i = 0; i < host.rgb.size(); ++i) {
      if (host.rgb[i] < 0.1f || host.rgb[i] > 50.0f) continue;  // (the bright splat's own pixels apart)
      ++faint;
      off += std::fabs(gpu.rgb[i] - host.rgb[i]) > 2e-3f * host.rgb[i] ? 1 : 0;
    }
    CHECK(faint > 1000);
    CHECK(off == 0);
  }
}

TEST_CASE("gpu: an infinite emission is infinite where the host's is, and the rest as the host's" *
          doctest::skip(no_gpu())) {
  // NaN and infinite emissions have no bound for the integer sums: they add to the float image as
  // they are (where they absorb the rest in any order), and leave the other splats' sums alone.
  SplatArrays s = testing::random_splats(3000, 120, 100, 29, 10.0f, 0.5f);
  s.add(60.0f, 50.0f, 6.0f, std::numeric_limits<float>::infinity(), 0.5f, 0.25f);
  for (const Variant& v : variants) {
    if (!v.a_eq_e) continue;
    INFO(describe(v));
    const CudaOptions o = options_for(v);
    Image host(120, 100), gpu(120, 100), again(120, 100);
    render_host(s.view(), o.host, host);
    render_gpu(s.view(), o, gpu);
    render_gpu(s.view(), o, again);
    float scale = 0.0f;
    std::size_t infinite = 0;
    for (float value : host.rgb) {
      if (std::isfinite(value)) scale = std::max(scale, std::fabs(value));
      infinite += std::isinf(value) ? 1 : 0;
    }
    CHECK(infinite > 20);
    // (The host adds 0 x inf, a NaN, where the footprint's square leaves its disc; the GPU skips
    // weights of 0: those pixels are not compared.)
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < host.rgb.size(); ++i) {
      const float h = host.rgb[i], g = gpu.rgb[i];
      if (std::isnan(h)) continue;
      wrong += std::isfinite(h) ? std::fabs(g - h) > 1e-4f * scale : !(std::isinf(g) && g > 0);
    }
    CHECK(wrong == 0);
    CHECK(std::memcmp(gpu.rgb.data(), again.rgb.data(), gpu.rgb.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("btile fitting rule: the widest boundary whose Btile fits the shared memory (CPU only)") {
  // 3 sums of 4 bytes per pixel of (32 + 2 b)^2: 108 KiB at b = 32, 32448 bytes at b = 10, 34992 at 11.
  CHECK(widest_boundary_fitting(32, 32, 32, 110592) == 32);
  CHECK(widest_boundary_fitting(32, 32, 32, 110591) == 31);
  CHECK(widest_boundary_fitting(32, 32, 32, 32 * 1024) == 10);
  CHECK(widest_boundary_fitting(32, 32, 8, 32 * 1024) == 8);  // never wider than asked
  CHECK(widest_boundary_fitting(32, 32, 32, 12287) == -1);    // not even the tile alone
}

TEST_CASE("gpu btile: a default boundary too wide for the shared memory is narrowed, with the same picture" *
          doctest::skip(no_gpu())) {
  CudaOptions o;
  o.boundary = 128;  // a Btile of 288 x 288 x 3 sums: 972 KiB, more than any GPU offers a block
  o.narrow_to_fit = true;
  SplatArrays s = testing::random_splats(3000, 300, 240, 23, 120.0f, 0.3f);
  const CudaReport report = check_against_host(s, 300, 240, o);
  CHECK(report.boundary > 8);
  CHECK(report.boundary < 128);
  std::size_t above = 0;
  for (float r : s.r) above += 0.75f * r > float(report.boundary) ? 1 : 0;
  CHECK(report.on_host == above);
  CHECK(above > 0);
}

TEST_CASE("gpu btile: a Btile larger than the GPU's shared memory is an error naming the keys" *
          doctest::skip(no_gpu())) {
  CudaOptions o;
  o.tile_x = o.tile_y = 256;
  o.boundary = 128;  // 512 x 512 x 3 sums of 4 bytes: 3 MiB
  Image image(300, 300);
  try {
    render_gpu(testing::random_splats(10, 300, 300, 1, 5.0f).view(), o, image);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    CHECK(m.find("tile_boundary_width = 128") != std::string::npos);
    CHECK(m.find("3072 KiB") != std::string::npos);
  }
  CHECK(max_value(image) == 0.0f);  // nothing drawn
  // With a_eq_e = FALSE tiles composite pixel by pixel, without a Btile: any tile size works.
  o.host.a_eq_e = false;
  check_against_host(testing::random_splats(500, 300, 300, 1, 40.0f), 300, 300, o);
}

}  // namespace splotch
