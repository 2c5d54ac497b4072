// What a camera placed from the data frames (splotch/stages/framing.h): the particles and not a
// few far ones, a group across a periodic box's edge as one (whatever range the file writes its
// coordinates in), the same box whatever the particles' order, the far ones counted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "splotch/stages/camera_placement.h"
#include "splotch/stages/framing.h"

using namespace splotch;

namespace {

void add(ParticleSet& p, double x, double y, double z) {
  p.x.push_back(float(x));
  p.y.push_back(float(y));
  p.z.push_back(float(z));
}

// n particles evenly in the cube [lo, lo + side)^3.
ParticleSet cube(int n, double lo, double side, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, side);
  ParticleSet p;
  for (int i = 0; i < n; ++i) add(p, lo + u(rng), lo + u(rng), lo + u(rng));
  return p;
}

}  // namespace

TEST_CASE("framing: a uniform cube is framed whole; a few far particles are left out and counted") {
  ParticleSet p = cube(20000, 10, 1, 1);
  Framing f = framing(p, false);
  CHECK(f.total == 20000);
  CHECK(f.outside == 0);
  CHECK(f.box.lo.x == doctest::Approx(f.whole.lo.x));
  CHECK(f.box.hi.z == doctest::Approx(f.whole.hi.z));
  // 1% escaped, a thousand sides away: the box stays about the cube.
  for (int i = 0; i < 200; ++i) add(p, 1000.0 + i, -800.0, 10.5);
  f = framing(p, false);
  CHECK(f.whole.hi.x > 1000);
  CHECK(f.box.lo.x > 9.8);
  CHECK(f.box.hi.x < 11.3);
  CHECK(f.box.lo.y > 9.8);
  CHECK(f.outside == 200);
}

TEST_CASE("framing: the same box whatever the particles' order, also from a sample (beyond 2^18 particles)") {
  ParticleSet p = cube(400000, 0, 100, 2);
  for (int i = 0; i < 4000; ++i) add(p, 5000.0 + i, 50.0, 50.0);  // 1% far away on one side
  const Framing a = framing(p, false);
  ParticleSet shuffled;
  std::vector<std::size_t> order(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(3));
  for (std::size_t i : order) add(shuffled, p.x[i], p.y[i], p.z[i]);
  const Framing b = framing(shuffled, false);
  CHECK(a.box.lo.x == b.box.lo.x);
  CHECK(a.box.hi.x == b.box.hi.x);
  CHECK(a.box.hi.y == b.box.hi.y);
  CHECK(a.outside == b.outside);
  CHECK(a.box.hi.x < 130);  // the cube, not the far ones
  CHECK(a.outside > 3000);  // about 4000, from the sample
  CHECK(a.outside < 5000);
}

TEST_CASE("framing: a group across a periodic box's edge is framed as one, in either range of coordinates") {
  // 2000 particles 6 wide across the edge of a box of 100: at x from 97 to 103 written in
  // [0, 100) (97 to 100 and 0 to 3), or at x from 47 to 53 written in [-50, 50) (47 to 50 and
  // -50 to -47), y and z about the middle.
  for (const double centre : {0.0, 50.0}) {
    INFO("the edge at " << centre);
    ParticleSet p;
    p.box_size = 100;
    for (int i = 0; i < 2000; ++i) {
      double x = std::fmod(centre + 97.0 + 0.003 * i, 100.0);
      if (centre > 0 && x >= 50) x -= 100;  // written in [-50, 50)
      add(p, x, 50 - centre + 0.001 * (i % 7), 50 - centre + 0.001 * (i % 11));
    }
    const Framing f = framing(p, true);
    // The box spans 6 across the edge, not the whole box of 100.
    CHECK(f.box.hi.x - f.box.lo.x < 7);
    CHECK(f.box.hi.x - f.box.lo.x > 5);
    CHECK(f.outside == 0);
    // Without the periodic box, the pieces at both sides.
    const Framing open = framing(p, false);
    CHECK(open.box.hi.x - open.box.lo.x > 90);
  }
}

TEST_CASE("camera placement: with lookat given, the camera sits on the face's axis through it (not askew)") {
  splotch::BoundingBox box;
  box.lo = {0, 0, 0};
  box.hi = {1, 1, 1};
  splotch::Camera c;
  c.lookat = {0.9, 0.6, 0.5};
  splotch::CameraPlacement placement;
  placement.from_data = true;
  placement.lookat_given = true;
  splotch::place_camera(c, placement, box);  // (front: along y)
  CHECK(c.position.x == doctest::Approx(0.9));
  CHECK(c.position.z == doctest::Approx(0.5));
  CHECK(c.position.y > 1.0);
  CHECK(c.lookat.x == doctest::Approx(0.9));
  placement.lookat_given = false;
  splotch::place_camera(c, placement, box);
  CHECK(c.position.x == doctest::Approx(0.5));
  CHECK(c.lookat.x == doctest::Approx(0.5));
}

TEST_CASE("camera placement: one particle (or all at one place) is framed by its smoothing length") {
  ParticleSet p;
  add(p, 1, 2, 3);
  p.hsml.push_back(0.5f);
  const Framing f = framing(p, false);
  CHECK(f.whole.reach == doctest::Approx(0.5));
  CHECK(f.box.reach == doctest::Approx(0.5));
  splotch::Camera c;
  c.fov_degrees = 45;
  splotch::CameraPlacement placement;
  placement.from_data = true;
  splotch::place_camera(c, placement, f.box);
  // The view's half width at the particle holds its splat (2 h), with the 5 % margin.
  const double half_width = (c.position.y - 2) * std::tan(22.5 * M_PI / 180);
  CHECK(half_width == doctest::Approx(1.05 * 2 * 0.5));
  CHECK(c.lookat.y == doctest::Approx(2));
  // Without sizes (none read yet), a point still gets a distance, however small.
  ParticleSet bare;
  add(bare, 1, 2, 3);
  CHECK(bounding_box(bare).reach == 0);
  splotch::place_camera(c, placement, bounding_box(bare));
  CHECK(c.position.y > 2);
  // A box that is not a point is framed by its positions, whatever the sizes.
  ParticleSet two = p;
  add(two, 3, 2, 3);
  two.hsml.push_back(100.0f);
  const BoundingBox box = bounding_box(two);
  CHECK(box.reach == doctest::Approx(100));
  splotch::place_camera(c, placement, box);
  CHECK((c.position.y - 2) * std::tan(22.5 * M_PI / 180) == doctest::Approx(1.05 * 1.0));
}
