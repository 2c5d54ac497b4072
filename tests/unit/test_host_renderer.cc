// The host renderer against the analytic Gaussian, the transfer equation and the slow reference
// renderer, on the edge cases that break tiled renderers.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

#include "splotch/render/host_render_config.h"
#include "splotch/render/host_renderer.h"
#include "splotch/splat/splat_maths.h"
#include "splotch/stages/tile_order.h"
#include "tests/support/reference_renderer.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

const double exact_h2sigma = 0.5 * std::pow(3.14159265358979323846, -1.0 / 6.0);

Image render(const SplatArrays& s, bool a_eq_e, int w, int h, float gray = 0.2f) {
  Image image(w, h);
  RenderOptions o;
  o.a_eq_e = a_eq_e;
  o.gray_absorption = gray;
  render_host(s.view(), o, image);
  return image;
}

Image reference(const SplatArrays& s, bool a_eq_e, int w, int h, float gray = 0.2f) {
  Image image(w, h);
  reference_render(s.view(), a_eq_e, gray, image);
  return image;
}

// Inside the footprint of docs/design.md section 4 (R = 0.75 r, disc per column)?
bool in_footprint(int x, int y, float X, float Y, float r) {
  const float R = 0.75f * r;
  if (x < int(X - R + 1.0f) || x >= int(X + R + 1.0f)) return false;
  const float dx2 = (float(x) - X) * (float(x) - X);
  const float dy = std::sqrt(std::max(R * R - dx2, 0.0f));
  return y >= int(Y - dy + 1.0f) && y < int(Y + dy + 1.0f) && y >= int(Y - R + 1.0f) && y < int(Y + R + 1.0f);
}

void check_matches_reference(const SplatArrays& s, int w, int h) {
  for (bool a_eq_e : {true, false}) {
    CAPTURE(a_eq_e);
    const Image fast = render(s, a_eq_e, w, h), slow = reference(s, a_eq_e, w, h);
    const float scale = std::max(max_value(slow), 1e-30f);
    CHECK(max_abs_difference(fast, slow) <= 1e-5f * scale);
  }
}

}  // namespace

TEST_CASE("splat maths: the constants are docs/design.md's, rounded once to float") {
  CHECK(splotch::h2sigma == float(exact_h2sigma));
  CHECK(footprint_radius(4.0f) == 3.0f);
  CHECK(beyond_boundary(32.0f / 0.75f + 0.01f, 32));
  CHECK_FALSE(beyond_boundary(32.0f / 0.75f, 32));
  const Footprint f = footprint(10.5f, 3.2f, 4.0f, 12, 100);  // R = 3: columns 8..12 clipped, rows 1..7
  CHECK(f.x_lo == 8);
  CHECK(f.x_hi == 12);
  CHECK(f.y_lo == 1);
  CHECK(f.y_hi == 7);
  CHECK(footprint(-5e12f, 0.0f, 1.0f, 10, 10).empty());  // clamped, not overflowed
  const TileSpan t = tile_span(f, 4, 2);
  CHECK(t.tx0 == 2);
  CHECK(t.tx1 == 2);
  CHECK(t.ty0 == 0);
  CHECK(t.ty1 == 3);
  CHECK(absorption_colour(0.6f, 0.2f) == doctest::Approx(0.75));
  CHECK(absorption_colour(0.0f, 0.0f) == 0.0f);
}

TEST_CASE("render_host: one particle is the analytic Gaussian of docs/design.md section 4") {
  const float X = 37.3f, Y = 52.8f, r = 21.7f, e[3] = {0.8f, 0.3f, 0.05f};
  SplatArrays s;
  s.add(X, Y, r, e[0], e[1], e[2]);
  const int w = 100, h = 90;
  const Image img = render(s, true, w, h);
  const double sigma = exact_h2sigma * r;
  int inside = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double d2 = (x - double(X)) * (x - double(X)) + (y - double(Y)) * (y - double(Y));
      const double wgt = in_footprint(x, y, X, Y, r) ? std::exp(-d2 / (sigma * sigma)) : 0.0;
      inside += wgt > 0;
      for (int c = 0; c < 3; ++c) {
        CAPTURE(x);
        CAPTURE(y);
        REQUIRE(std::fabs(img.pixel(x, y)[c] - wgt * e[c]) <= 1e-6);
      }
    }
  // The footprint is a disc of radius 0.75 r: about pi (0.75 r)^2 pixels.
  CHECK(inside == doctest::Approx(3.14159 * 0.75 * 0.75 * r * r).epsilon(0.05));
  // Its edge: 0.75 r from the centre the weight is exp(-2.25 pi^(1/3)), about 0.037.
  CHECK(std::exp(-(0.75 * r) * (0.75 * r) / (sigma * sigma)) == doctest::Approx(0.0371).epsilon(0.01));
}

TEST_CASE("render_host: a_eq_e = FALSE, one particle over black is q (1 - exp(-w e))") {
  const float X = 20.5f, Y = 19.25f, r = 9.0f, e = 0.7f, gray = 0.2f;
  SplatArrays s;
  s.add(X, Y, r, e, e, e);
  const Image img = render(s, false, 40, 40, gray);
  const double sigma = exact_h2sigma * r, q = e / (e + gray);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x) {
      const double d2 = (x - double(X)) * (x - double(X)) + (y - double(Y)) * (y - double(Y));
      const double w = in_footprint(x, y, X, Y, r) ? std::exp(-d2 / (sigma * sigma)) : 0.0;
      REQUIRE(std::fabs(img.pixel(x, y)[0] - q * (1 - std::exp(-w * e))) <= 1e-6);
    }
}

TEST_CASE("render_host: a_eq_e = FALSE follows the transfer equation for two overlapping particles, in both orders") {
  // Particle 1 then particle 2 at one pixel: P1 = q1 (1 - t1), P2 = P1 t2 + q2 (1 - t2), t = exp(-w e).
  const float gray = 0.1f;
  const float A[3] = {30.0f, 30.0f, 12.0f}, B[3] = {33.0f, 28.0f, 15.0f};
  const float eA[3] = {0.9f, 0.1f, 0.1f}, eB[3] = {0.1f, 0.2f, 1.5f};
  auto weight = [](const float* p, int x, int y) {
    const double sigma = exact_h2sigma * p[2];
    const double d2 = (x - double(p[0])) * (x - double(p[0])) + (y - double(p[1])) * (y - double(p[1]));
    return in_footprint(x, y, p[0], p[1], p[2]) ? std::exp(-d2 / (sigma * sigma)) : 0.0;
  };
  for (bool a_first : {true, false}) {
    CAPTURE(a_first);
    SplatArrays s;
    const float *first = a_first ? A : B, *second = a_first ? B : A;
    const float *e1 = a_first ? eA : eB, *e2 = a_first ? eB : eA;
    s.add(first[0], first[1], first[2], e1[0], e1[1], e1[2]);
    s.add(second[0], second[1], second[2], e2[0], e2[1], e2[2]);
    const Image img = render(s, false, 64, 64, gray);
    for (int y = 20; y < 40; ++y)
      for (int x = 20; x < 44; ++x)
        for (int c = 0; c < 3; ++c) {
          const double t1 = std::exp(-weight(first, x, y) * e1[c]), t2 = std::exp(-weight(second, x, y) * e2[c]);
          const double q1 = e1[c] / (e1[c] + gray), q2 = e2[c] / (e2[c] + gray);
          const double expected = q1 * (1 - t1) * t2 + q2 * (1 - t2);
          REQUIRE(std::fabs(img.pixel(x, y)[c] - expected) <= 1e-6);
        }
  }
  // And the order matters: the two pictures differ where the particles overlap.
  SplatArrays ab, ba;
  ab.add(A[0], A[1], A[2], eA[0], eA[1], eA[2]);
  ab.add(B[0], B[1], B[2], eB[0], eB[1], eB[2]);
  ba.add(B[0], B[1], B[2], eB[0], eB[1], eB[2]);
  ba.add(A[0], A[1], A[2], eA[0], eA[1], eA[2]);
  CHECK(max_abs_difference(render(ab, false, 64, 64, gray), render(ba, false, 64, 64, gray)) > 0.02f);
}

TEST_CASE("render_host: a picture no longer wanted (stop set) leaves the tiles it has not begun") {
  const SplatArrays s = random_splats(3000, 150, 120, 11, 40.0f);
  std::atomic<bool> stop{true};
  RenderOptions o;
  o.tile_size = 32;
  o.stop = &stop;
  Image stopped(150, 120);
  render_host(s.view(), o, stopped);
  CHECK(max_value(stopped) == 0.0f);  // every tile left
  stop = false;
  Image drawn(150, 120), whole(150, 120);
  render_host(s.view(), o, drawn);
  o.stop = nullptr;
  render_host(s.view(), o, whole);
  CHECK(max_value(whole) > 0.0f);
  CHECK(max_abs_difference(drawn, whole) == 0.0f);
}

TEST_CASE("render_host: the a_eq_e image does not depend on particle order") {
  SplatArrays s = random_splats(3000, 150, 120, 11, 40.0f);
  const Image forward = render(s, true, 150, 120);
  SplatArrays shuffled;
  std::vector<std::size_t> order(s.x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  for (std::size_t i : order) shuffled.add(s.x[i], s.y[i], s.r[i], s.e0[i], s.e1[i], s.e2[i]);
  const Image other = render(shuffled, true, 150, 120);
  CHECK(max_abs_difference(forward, other) <= 1e-6f * max_value(forward));
  CHECK(max_value(forward) > 1.0f);  // the test means something only if the splats overlap a lot
}

TEST_CASE("render_host: equals the reference renderer on edge cases") {
  SUBCASE("empty input leaves the image as it was") {
    SplatArrays none;
    Image img(17, 9);
    img.pixel(3, 4)[1] = 0.25f;
    render_host(none.view(), RenderOptions{}, img);
    CHECK(img.pixel(3, 4)[1] == 0.25f);
    CHECK(max_value(img) == 0.25f);
  }
  SUBCASE("many particles on one pixel") {
    SplatArrays s;
    for (int i = 0; i < 500; ++i) s.add(64.0f, 64.0f, 1.2f, 0.01f * float(i % 7), 0.02f, 0.001f * float(i));
    check_matches_reference(s, 128, 128);
  }
  SUBCASE("particles on tile corners and edges") {
    SplatArrays s;
    for (float X : {63.0f, 63.5f, 64.0f, 64.5f, 127.9f, 128.0f})
      for (float Y : {0.0f, 63.99f, 64.0f, 64.01f, 128.0f})
        for (float r : {1.0f, 3.0f, 17.0f}) s.add(X, Y, r, 0.3f, 0.6f, 0.9f);
    check_matches_reference(s, 200, 150);
  }
  SUBCASE("particles partly and wholly off-screen") {
    SplatArrays s;
    s.add(-5.0f, 20.0f, 12.0f, 1, 1, 1);
    s.add(20.0f, -7.5f, 14.0f, 1, 0.5f, 0);
    s.add(105.0f, 50.0f, 10.0f, 0, 1, 1);
    s.add(50.0f, 93.0f, 9.0f, 1, 0, 1);
    s.add(-100.0f, -100.0f, 5.0f, 1, 1, 1);  // wholly off
    s.add(300.0f, 40.0f, 50.0f, 1, 1, 1);    // wholly off
    check_matches_reference(s, 100, 90);
  }
  SUBCASE("huge particles covering the whole image, and tiny ones") {
    SplatArrays s;
    s.add(50.0f, 40.0f, 3000.0f, 0.2f, 0.1f, 0.3f);
    s.add(-400.0f, 900.0f, 5000.0f, 0.1f, 0.1f, 0.1f);
    s.add(10.0f, 10.0f, 0.3f, 1, 1, 1);
    s.add(70.5f, 70.5f, 0.01f, 1, 1, 1);
    check_matches_reference(s, 150, 130);
  }
  SUBCASE("a non-square image and many random particles") {
    check_matches_reference(random_splats(2000, 333, 97, 3, 30.0f), 333, 97);
  }
}

TEST_CASE("render_host: the image does not depend on the number of threads") {
  const SplatArrays s = random_splats(4000, 300, 200, 21, 25.0f);
  for (bool a_eq_e : {true, false}) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(1);
    const Image one = render(s, a_eq_e, 300, 200);
    omp_set_num_threads(3);
    const Image three = render(s, a_eq_e, 300, 200);
    omp_set_num_threads(before);
    CHECK(one.rgb == three.rgb);
  }
}

namespace {

// The same splats as the pipeline holds them, after the colour stage.
Splats splats_of(const SplatArrays& a) {
  Splats s;
  s.x = a.x;
  s.y = a.y;
  s.radius = a.r;
  s.colour[0] = a.e0;
  s.colour[1] = a.e1;
  s.colour[2] = a.e2;
  return s;
}

// Splats in the order of ascending key (stable), for the reference renderer.
template <class Keys>
SplatArrays sorted_by_key(const SplatArrays& s, const Keys& key) {
  std::vector<std::size_t> order(s.x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  SplatArrays out;
  for (std::size_t i : order) out.add(s.x[i], s.y[i], s.r[i], s.e0[i], s.e1[i], s.e2[i]);
  return out;
}

}  // namespace

TEST_CASE("render_host: with draw keys, every pixel composites in key order, equal keys in array order") {
  const SplatArrays s = random_splats(3000, 200, 150, 8, 30.0f);
  std::mt19937 rng(2);
  std::vector<std::uint32_t> key(s.x.size());
  for (auto& k : key) k = rng() % 50;  // many equal keys
  SplatView v = s.view();
  v.key = key.data();
  Image fast(200, 150);
  RenderOptions o;
  o.a_eq_e = false;
  render_host(v, o, fast);
  const Image slow = reference(sorted_by_key(s, key), false, 200, 150);
  CHECK(max_abs_difference(fast, slow) <= 1e-5f * max_value(slow));
  // The keys matter: the array order gives another picture.
  CHECK(max_abs_difference(render(s, false, 200, 150), slow) > 1e-3f);
}

TEST_CASE(
    "order_by_tile: groups splats by the tile of their centre, keeps their order within a tile, moves every array") {
  Splats s;
  const float xs[] = {70, 5, 130, 10, -40, 66, 500, 3};
  const float ys[] = {5, 70, 5, 2, 10, 1, 8, 300};
  for (int i = 0; i < 8; ++i) {
    s.x.push_back(xs[i]);
    s.y.push_back(ys[i]);
    s.radius.push_back(float(i));
    for (int c = 0; c < 3; ++c) s.colour[c].push_back(float(10 * i + c));
    s.draw_key.push_back(std::uint32_t(100 + i));
  }
  const std::vector<std::size_t> start = order_by_tile(s, 64, 150, 100);  // 3 x 2 tiles
  CHECK(start == std::vector<std::size_t>{0, 2, 4, 6, 8, 8, 8});
  // Tile 0 (x < 64, y < 64): splats 3 and 4 (x < 0 counts for column 0), in array order; tile 1:
  // 0 and 5; tile 2: 2 and 6 (x beyond the image: last tile column); tile 3 (second tile row): 1
  // and 7 (y beyond the image: last row).
  const std::vector<float> expected_radius = {3, 4, 0, 5, 2, 6, 1, 7};
  CHECK(s.radius == expected_radius);
  for (std::size_t k = 0; k < 8; ++k) {
    const int i = int(s.radius[k]);
    CHECK(s.x[k] == xs[i]);
    CHECK(s.y[k] == ys[i]);
    CHECK(s.colour[2][k] == float(10 * i + 2));
    CHECK(s.draw_key[k] == std::uint32_t(100 + i));
  }
}

TEST_CASE("render_host: ordering by tile does not change the picture (keys all different)") {
  for (bool a_eq_e : {true, false}) {
    const SplatArrays a = random_splats(4003, 260, 190, 13, 35.0f);  // not a multiple of the vector lanes
    Splats s = splats_of(a);
    if (!a_eq_e) {  // equal keys would be drawn in array order, which the tile order changes
      for (std::size_t i = 0; i < a.x.size(); ++i) s.draw_key.push_back(std::uint32_t(i));
      std::shuffle(s.draw_key.begin(), s.draw_key.end(), std::mt19937(4));
    }
    RenderOptions o;
    o.a_eq_e = a_eq_e;
    Image before(260, 190);
    render_host(view_of(s), o, before);
    // Several tiles on this small image; sizes that are not powers of two as well, for the
    // renderer's vector division by the tile size.
    for (int tile : {64, 48, 37}) {
      CAPTURE(a_eq_e);
      CAPTURE(tile);
      Splats t = s;
      o.tile_size = tile;
      const std::vector<std::size_t> tile_start = order_by_tile(t, o.tile_size, 260, 190);
      Image after(260, 190), with_starts(260, 190);
      render_host(view_of(t), o, after);
      SplatView v = view_of(t);
      v.tile_start = tile_start.data();  // the renderer lists only splats reaching beyond their tile
      render_host(v, o, with_starts);
      CHECK(max_abs_difference(before, after) <= 1e-5f * max_value(before));
      CHECK(max_abs_difference(before, with_starts) <= 1e-5f * max_value(before));
    }
  }
}

TEST_CASE("render_host: tiles listing only spilling splats keep one order for equal keys across tiles") {
  // Large splats spanning several tiles, keys with many ties: every pixel must composite in the
  // order of one stable sort by key of the (tile-ordered) arrays.
  const SplatArrays a = random_splats(1500, 300, 220, 17, 60.0f);
  Splats s = splats_of(a);
  std::mt19937 rng(6);
  for (std::size_t i = 0; i < a.x.size(); ++i) s.draw_key.push_back(std::uint32_t(rng() % 20));
  RenderOptions o;
  o.a_eq_e = false;
  o.tile_size = 64;
  const std::vector<std::size_t> tile_start = order_by_tile(s, o.tile_size, 300, 220);
  SplatView v = view_of(s);
  v.tile_start = tile_start.data();
  Image fast(300, 220);
  render_host(v, o, fast);
  SplatArrays ordered;
  for (std::size_t i = 0; i < s.x.size(); ++i)
    ordered.add(s.x[i], s.y[i], s.radius[i], s.colour[0][i], s.colour[1][i], s.colour[2][i]);
  const Image slow = reference(sorted_by_key(ordered, s.draw_key), false, 300, 220);
  CHECK(max_abs_difference(fast, slow) <= 1e-5f * max_value(slow));
}

TEST_CASE("render_host: the picture does not depend on the tile size") {
  const SplatArrays s = random_splats(3000, 600, 520, 23, 90.0f);
  for (bool a_eq_e : {true, false}) {
    CAPTURE(a_eq_e);
    RenderOptions o;
    o.a_eq_e = a_eq_e;
    Image first(600, 520);
    o.tile_size = 64;
    render_host(s.view(), o, first);
    for (int tile : {128, 256}) {
      Image other(600, 520);
      o.tile_size = tile;
      render_host(s.view(), o, other);
      CHECK(max_abs_difference(first, other) <= 1e-5f * max_value(first));
    }
  }
}

TEST_CASE("host_tile_size: the largest tile that leaves each thread enough tiles") {
  CHECK(host_tile_size(2048, 2048, 2) == 256);
  CHECK(host_tile_size(800, 800, 2) == 128);
  CHECK(host_tile_size(2048, 2048, 16) == 128);
  CHECK(host_tile_size(800, 800, 16) == 64);
  CHECK(host_tile_size(10, 10, 1) == 64);
}
