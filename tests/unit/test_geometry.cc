// The geometry stage on hand-computed cases (docs/design.md section 4, "Geometry").
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "errors/user_error.h"
#include "splotch/stages/geometry.h"

using namespace splotch;

namespace {

const double pi = 3.14159265358979323846;
const double bfak = 0.5 * std::pow(pi, -5.0 / 6.0);

// Camera on the +z axis looking at the origin, sky +y, fov 90 (fovfct = 1), 100 x 100 pixels:
// the camera frame is the world frame, and f = 50 / depth.
GeometryOptions simple_camera() {
  GeometryOptions g;
  g.camera.position = {0, 0, 10};
  g.camera.center = g.camera.position;
  g.camera.lookat = {0, 0, 0};
  g.camera.sky = {0, 1, 0};
  g.camera.fov_degrees = 90;
  g.camera.xres = g.camera.yres = 100;
  g.minrad_pix = 1;
  g.smooth_factor = {1.0f, 2.0f};
  return g;
}

ParticleSet particles(std::initializer_list<std::array<float, 4>> xyzh) {
  ParticleSet p;
  for (const auto& q : xyzh) {
    p.x.push_back(q[0]);
    p.y.push_back(q[1]);
    p.z.push_back(q[2]);
    p.hsml.push_back(q[3]);
    p.intensity.push_back(1.0f);
    p.colour[0].push_back(0.5f);
  }
  return p;
}

}  // namespace

TEST_CASE("camera_frame: axes and degenerate cameras") {
  Camera c;
  c.position = c.center = {0, 0, 10};
  c.lookat = {0, 0, 0};
  c.sky = {0, 3, 0};  // normalised first
  CameraFrame f = camera_frame(c);
  CHECK(f.z_axis.z == doctest::Approx(1));
  CHECK(f.x_axis.x == doctest::Approx(1));  // sky x z = y x z = x
  CHECK(f.y_axis.y == doctest::Approx(1));
  c.lookat = c.position;
  CHECK_THROWS_WITH_AS(camera_frame(c), doctest::Contains("equals lookat"), UserError);
  c.lookat = {0, 0, 0};
  c.sky = {0, 0, -2};
  CHECK_THROWS_WITH_AS(camera_frame(c), doctest::Contains("parallel to the view direction"), UserError);
  c.sky = {0, 0, 0};
  CHECK_THROWS_WITH_AS(camera_frame(c), doctest::Contains("zero vector"), UserError);
}

TEST_CASE("project: perspective, by hand") {
  // d = (1, 2, -10): x' = 1, y' = 2, z' = -10, f = 50 / 10 = 5 -> X = 55, Y = 60.
  // h = 0.5: r = 2 h f = 5, rcorr = sqrt(26) / 5, r = sqrt(26), I = 0.5 bfak / h / rcorr.
  Splats s = project(particles({{1, 2, 0, 0.5f}}), simple_camera());
  REQUIRE(s.size() == 1);
  CHECK(s.x[0] == doctest::Approx(55.0));
  CHECK(s.y[0] == doctest::Approx(60.0));
  CHECK(s.depth[0] == doctest::Approx(-10.0));
  CHECK(s.radius[0] == doctest::Approx(std::sqrt(26.0)));
  CHECK(s.intensity[0] == doctest::Approx(0.5 * bfak / 0.5 / (std::sqrt(26.0) / 5)));
  CHECK(s.colour[0][0] == 0.5f);
}

TEST_CASE("project: +sky appears below the centre, sky x z to the right (the original's convention)") {
  Splats s = project(particles({{0, 1, 0, 0.1f}, {1, 0, 0, 0.1f}}), simple_camera());
  REQUIRE(s.size() == 2);
  CHECK(s.y[0] > 50.0f);  // rows counted from the top
  CHECK(s.x[1] > 50.0f);
}

TEST_CASE("project: orthographic scale is res2 / (fovfct |center - lookat|) at every depth") {
  GeometryOptions g = simple_camera();
  g.camera.perspective = false;
  Splats s = project(particles({{1, 0, 0, 1}, {1, 0, 5, 1}}), g);
  REQUIRE(s.size() == 2);
  CHECK(s.x[0] == doctest::Approx(55.0));
  CHECK(s.x[1] == doctest::Approx(55.0));
  CHECK(s.radius[0] == doctest::Approx(std::sqrt(100.0 + 1.0)));  // 2 h f = 10, widened
}

TEST_CASE("project: smooth_factor of the type and minrad_pix") {
  GeometryOptions g = simple_camera();
  g.minrad_pix = 0;
  ParticleSet p = particles({{0, 0, 0, 1}, {0, 0, 0, 1}});
  p.type = {0, 1};
  Splats s = project(std::move(p), g);
  REQUIRE(s.size() == 2);
  CHECK(s.radius[0] == doctest::Approx(10.0));  // 2 h f with f = 5
  CHECK(s.radius[1] == doctest::Approx(20.0));  // smooth_factor1 = 2
  CHECK(s.type[1] == 1);
  // A tiny particle is widened to about minrad_pix and its intensity lowered accordingly.
  g.minrad_pix = 3;
  Splats t = project(particles({{0, 0, 0, 0.001f}}), g);
  CHECK(t.radius[0] == doctest::Approx(std::sqrt(0.01 * 0.01 + 9.0)));
  CHECK(t.intensity[0] == doctest::Approx(0.5 * bfak / 0.001 / (std::sqrt(0.0001 + 9.0) / 0.01)));
}

TEST_CASE("project: particles behind the camera, outside zmin/zmax or off the image are dropped, order kept") {
  GeometryOptions g = simple_camera();
  g.camera.zmin = 2;
  g.camera.zmax = 15;
  Splats s = project(particles({{0, 0, 20, 1},       // behind the camera
                                {0, 0, 9, 0.1f},     // depth 1 < zmin
                                {0, 0, -6, 0.1f},    // depth 16 > zmax
                                {100, 0, 0, 0.1f},   // far off to the side
                                {1, 1, 0, 0.1f},     // kept
                                {-1, 1, 0, 0.1f}}),  // kept
                     g);
  REQUIRE(s.size() == 2);
  CHECK(s.x[0] > 50.0f);
  CHECK(s.x[1] < 50.0f);
  // A particle just off the edge whose footprint still reaches the image is kept.
  Splats edge = project(particles({{10.4f, 0, 0, 0.5f}}), simple_camera());  // X = 102, R = 0.75 r ~ 3.8
  CHECK(edge.size() == 1);
}

TEST_CASE("project: center shifts the picture so that lookat stays centred") {
  // camera (0,0,10), center (1,0,10), lookat (1,0,0): the frame is the world frame, the offset of
  // center projects to x' = 1, and the shift is -f_ortho * 1 = -5 pixels.
  GeometryOptions g = simple_camera();
  g.camera.center = {1, 0, 10};
  g.camera.lookat = {1, 0, 0};
  Splats s = project(particles({{1, 0, 0, 0.1f}}), g);
  REQUIRE(s.size() == 1);
  CHECK(s.x[0] == doctest::Approx(50.0));
  CHECK(s.y[0] == doctest::Approx(50.0));
}

TEST_CASE("project: yres differs from xres") {
  GeometryOptions g = simple_camera();
  g.camera.yres = 60;  // ycorr = -20; the horizontal field of view is kept
  Splats s = project(particles({{0, 0, 0, 0.1f}}), g);
  REQUIRE(s.size() == 1);
  CHECK(s.x[0] == doctest::Approx(50.0));
  CHECK(s.y[0] == doctest::Approx(30.0));
}

TEST_CASE("wrap_periodic: coordinates move within half a box of lookat") {
  ParticleSet p = particles({{1, 99, 50, 1}, {60, 40, 0.5f, 1}});
  p.box_size = 100;
  wrap_periodic(p, {90, 10, 50});
  CHECK(p.x[0] == doctest::Approx(101));
  CHECK(p.y[0] == doctest::Approx(-1));
  CHECK(p.z[0] == doctest::Approx(50));
  CHECK(p.x[1] == doctest::Approx(60));
  CHECK(p.y[1] == doctest::Approx(40));
  ParticleSet q = particles({{1, 99, 50, 1}});  // no box: untouched
  wrap_periodic(q, {90, 10, 50});
  CHECK(q.x[0] == 1.0f);
}

TEST_CASE("project: from particles that stay (a scene's kept snapshot) equals projecting them in place") {
  // Enough particles for several blocks and a ragged end; types, vector colours, a periodic box,
  // some in view and some not.
  const std::size_t n = 3 * 4096 + 13;
  ParticleSet p;
  p.box_size = 40;
  std::uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24);
  };
  for (std::size_t i = 0; i < n; ++i) {
    p.x.push_back(40 * next() - 20);
    p.y.push_back(40 * next() - 20);
    p.z.push_back(40 * next() - 20);
    p.hsml.push_back(0.05f + 0.5f * next());
    p.intensity.push_back(next());
    for (auto& c : p.colour) c.push_back(next());
    p.type.push_back(std::uint8_t(i % 2));
  }
  GeometryOptions g = simple_camera();
  g.camera.lookat = {3, -2, 1};  // wrapping about another point than the box centre
  // (with and without colours and types; threads that share the blocks unevenly)
  for (int variant = 0; variant < 4; ++variant) {
    const bool wrap = variant % 2 == 1, bare = variant >= 2;
    INFO("wrap " << wrap << ", bare " << bare);
    if (bare) {
      for (auto& c : p.colour) c.clear();
      p.type.clear();
    }
    const int threads = omp_get_max_threads();
    omp_set_num_threads(bare ? 3 : threads);
    const ParticleSet kept = p;
    const Splats copied = project(kept, g, wrap);
    ParticleSet moved = p;
    if (wrap) wrap_periodic(moved, g.camera.lookat);
    const Splats in_place = project(std::move(moved), g);
    CHECK(copied.size() > 100);
    CHECK(copied.size() < n);  // some are out of view
    CHECK(copied.x == in_place.x);
    CHECK(copied.y == in_place.y);
    CHECK(copied.depth == in_place.depth);
    CHECK(copied.radius == in_place.radius);
    CHECK(copied.intensity == in_place.intensity);
    for (int c = 0; c < 3; ++c) CHECK(copied.colour[c] == in_place.colour[c]);
    CHECK(copied.type == in_place.type);
    CHECK(kept.x == p.x);  // the source is left as it was
    CHECK(kept.hsml == p.hsml);
    omp_set_num_threads(threads);
  }
}

TEST_CASE("project_particle (the GPU's projection) gives the geometry stage's SIMD lanes, bit for bit") {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> pos(-12.0f, 12.0f), h(0.01f, 3.0f), in(0.1f, 2.0f);
  ParticleSet p;
  for (int i = 0; i < 5000; ++i) {
    p.x.push_back(pos(rng));
    p.y.push_back(pos(rng));
    p.z.push_back(pos(rng));
    p.hsml.push_back(h(rng));
    p.intensity.push_back(in(rng));
    p.colour[0].push_back(0.5f);
    p.type.push_back(std::uint8_t(i % 2));
  }
  for (const bool perspective : {true, false})
    for (const double preview : {1.0, 0.25}) {
      CAPTURE(perspective);
      CAPTURE(preview);
      GeometryOptions g = simple_camera();
      g.camera.perspective = perspective;
      g.camera.xres = 160;
      g.camera.yres = 90;
      g.camera.zmin = 1;
      g.preview_fraction = preview;
      const Splats host = project(p, g, false);
      const ProjectionConstants k = projection_constants(g);
      std::vector<ProjectedParticle> kept;
      for (std::size_t i = 0; i < p.size(); ++i) {
        const ProjectedParticle q =
            project_particle(p.x[i], p.y[i], p.z[i], p.hsml[i], p.intensity[i], g.smooth_factor[p.type[i]], k);
        if (q.keep) kept.push_back(q);
      }
      REQUIRE(kept.size() == host.size());
      CHECK(host.size() > 500);  // the case sees particles in view and out of it
      CHECK(host.size() < p.size());
      // The same bits: both round every operation alone (no fused multiply-adds: the Makefile's
      // -ffp-contract=off for geometry.cc and this file, -fmad=false for the GPU's).
      std::size_t same = 0;
      for (std::size_t i = 0; i < kept.size(); ++i)
        same += kept[i].X == host.x[i] && kept[i].Y == host.y[i] && kept[i].zp == host.depth[i] &&
                kept[i].r == host.radius[i] && kept[i].intensity == host.intensity[i];
      CHECK(same == kept.size());
    }
}
