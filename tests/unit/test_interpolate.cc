// Interpolation between two snapshots (splotch/load/interpolate_snapshots.h) against known
// motions: circular orbits with their velocities, a particle crossing the periodic edge,
// particles in one snapshot only, and the ends of the interval.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "errors/user_error.h"
#include "io/hdf5_file.h"
#include "splotch/load/interpolate_snapshots.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/hdf5_test_file.h"
#include "tests/support/test_support.h"

using namespace splotch;

namespace {

constexpr double pi = 3.14159265358979323846;

void add(ParticleSet& p, float x, float y, float z, float hsml, float intensity) {
  p.x.push_back(x);
  p.y.push_back(y);
  p.z.push_back(z);
  p.hsml.push_back(hsml);
  p.intensity.push_back(intensity);
  p.colour[0].push_back(intensity);
}

// Particles on circles about the origin in the xy plane, radius 10 + k, a quarter turn from the
// first snapshot (scale factor a1) to the second (a2), with the velocities of that motion in the
// file's units; IDs in the second snapshot in reverse order.
struct Orbits {
  static constexpr int count = 8;
  static constexpr double turn = pi / 2;
  double a1 = 0.5, a2 = 0.6;
  InterpolationOptions options;
  ParticleSet p1, p2;
  static double radius(int k) { return 10.0 + k; }
  static double angle(int k, double f) { return 0.3 * k + turn * f; }
  Orbits() {
    options.mode = 2;
    p1.time = a1;
    p2.time = a2;
    for (int s = 0; s < 2; ++s) {
      ParticleSet& p = s ? p2 : p1;
      const double u = velocity_to_fraction(p.time, a1, a2, options);
      for (int i = 0; i < count; ++i) {
        const int k = s ? count - 1 - i : i;
        const double r = radius(k), t = angle(k, s);
        add(p, float(r * std::cos(t)), float(r * std::sin(t)), 1.0f, 1.0f + s, 2.0f + 2 * s);
        p.id.push_back(std::uint64_t(100 + k));
        // d position / d f = r turn (-sin t, cos t); the file's velocity is that over u.
        p.vx.push_back(float(-r * turn * std::sin(t) / u));
        p.vy.push_back(float(r * turn * std::cos(t) / u));
        p.vz.push_back(0.0f);
      }
    }
  }
};

// Interpolates at f, the match worked out first.
ParticleSet between(const ParticleSet& a, const ParticleSet& b, double f, const InterpolationOptions& o,
                    InterpolationCounts* counts = nullptr) {
  const SnapshotMatch match = match_snapshots(a, b);
  if (counts) *counts = match.counts;
  return interpolate_snapshots(a, b, match, f, o);
}

}  // namespace

TEST_CASE("interpolation: the cosmic time and the velocities' scale, as the original converts them") {
  InterpolationOptions o;  // h 0.7, omega 0.3, lambda 0.7
  // The age of such a universe today: 13.47 Gyr.
  CHECK(cosmic_time(1.0, o) / (3.15576e7 * 1e9) == doctest::Approx(13.47).epsilon(0.002));
  // t(a) against the integral of da / (a H(a)), H = H0 sqrt(omega / a^3 + lambda), by Simpson's rule
  // in x = a^(3/2) (dt = 2 dx / (3 x H), smooth at 0).
  const double H0 = 0.7 * 1e7 / 3.0856780e24;  // 70 km/s/Mpc in 1/s
  for (const double a : {0.1, 0.5, 0.6, 1.0}) {
    const int steps = 2000;
    const double top = std::pow(a, 1.5);
    double sum = 0;
    for (int i = 0; i <= steps; ++i) {
      const double x = top * i / steps, w = (i == 0 || i == steps) ? 1 : (i % 2 ? 4 : 2);
      sum += w * 2 / (3 * H0 * std::sqrt(0.3 + 0.7 * x * x));  // 1 / (x H) = 1 / (H0 sqrt(omega + lambda x^2))
    }
    CHECK(cosmic_time(a, o) == doctest::Approx(sum * top / steps / 3).epsilon(1e-6));
  }
  // u = v_unit / l_unit / sqrt(a) (t2 - t1) h.
  const double dt = (cosmic_time(0.6, o) - cosmic_time(0.5, o)) * 0.7;
  CHECK(velocity_to_fraction(0.5, 0.5, 0.6, o) == doctest::Approx(1e5 / 3.0856780e21 / std::sqrt(0.5) * dt));
  CHECK(dt > 0);
}

TEST_CASE("interpolation: circular orbits, mode 1 on the chord, mode 2 on the circle") {
  Orbits o;
  for (const double f : {0.0, 0.25, 0.5, 1.0}) {
    INFO("f = " << f);
    double worst_linear = 0, worst_hermite = 0;
    for (int mode : {1, 2}) {
      o.options.mode = mode;
      InterpolationCounts counts;
      const ParticleSet p = between(o.p1, o.p2, f, o.options, &counts);
      CHECK(counts.matched == Orbits::count);
      REQUIRE(p.size() == Orbits::count);
      for (int k = 0; k < Orbits::count; ++k) {
        // In the first snapshot's order, or at f = 1 the second snapshot itself (its order reversed).
        const int i = f == 1.0 ? Orbits::count - 1 - k : k;
        const double r = Orbits::radius(k), t = Orbits::angle(k, f);
        const double miss = std::hypot(p.x[i] - r * std::cos(t), p.y[i] - r * std::sin(t)) / r;
        double& worst = mode == 1 ? worst_linear : worst_hermite;
        worst = std::max(worst, miss);
        if (mode == 1) {  // on the chord, exactly
          const double t0 = Orbits::angle(k, 0), t1 = Orbits::angle(k, 1);
          CHECK(p.x[i] == doctest::Approx((1 - f) * r * std::cos(t0) + f * r * std::cos(t1)).epsilon(1e-5));
          CHECK(p.y[i] == doctest::Approx((1 - f) * r * std::sin(t0) + f * r * std::sin(t1)).epsilon(1e-5));
        }
        if (mode == 2 && f == 0.5)  // the cubic's midpoint for a quarter turn: radius sqrt 2 (4 + pi/2) / 8
          CHECK(std::hypot(p.x[i], p.y[i]) / r == doctest::Approx(std::sqrt(2.0) * (4 + pi / 2) / 8).epsilon(1e-5));
        CHECK(p.z[i] == 1.0f);
        CHECK(p.hsml[i] == doctest::Approx(1 + f));
        CHECK(p.intensity[i] == doctest::Approx(2 + 2 * f));
      }
    }
    if (f == 0.0 || f == 1.0) {
      CHECK(worst_linear < 1e-6);
      CHECK(worst_hermite < 1e-6);
    } else {
      // The chord's sag at f = 0.5 is 1 - cos 45 degrees = 0.29 of the radius; the Hermite curve
      // with the true tangents stays within 1.6% of the circle over a quarter turn (less for the
      // shorter arcs between a movie's snapshots: the error falls as the angle's fourth power).
      CHECK(worst_linear > 0.1);
      CHECK(worst_hermite < 0.016);
      CHECK(worst_hermite < worst_linear / 10);
    }
  }
}

TEST_CASE("interpolation: mode 2 in a run of physical time (header times 0 and 0.8, redshift 0)") {
  // A non-cosmological Gadget pair: the times are no scale factors (a = 0 would divide by zero).
  // Particles in uniform motion, x = x0 + v t: the cubic with the velocities as tangents is the
  // line itself, at every fraction.
  ParticleSet a, b;
  a.time = 0, b.time = 0.8;
  a.redshift = b.redshift = 0;
  for (int k = 0; k < 4; ++k) {
    const float v[3] = {2.0f + k, -1.0f, 0.5f * k};
    for (ParticleSet* p : {&a, &b}) {
      const float t = float(p->time);
      add(*p, float(k) + v[0] * t, 5 + v[1] * t, 1 + v[2] * t, 1, 1);
      p->id.push_back(std::uint64_t(k));
      p->vx.push_back(v[0]);
      p->vy.push_back(v[1]);
      p->vz.push_back(v[2]);
    }
  }
  CHECK(!comoving_times(a, b));
  InterpolationOptions o;
  o.mode = 2;
  o.periodic = false;
  for (const double f : {0.25, 0.5, 0.9}) {
    const ParticleSet p = between(a, b, f, o);
    REQUIRE(p.size() == 4);
    for (int k = 0; k < 4; ++k) {
      const double t = 0.8 * f;
      CHECK(p.x[std::size_t(k)] == doctest::Approx(k + (2.0 + k) * t).epsilon(1e-5));
      CHECK(p.y[std::size_t(k)] == doctest::Approx(5 - t).epsilon(1e-5));
      CHECK(p.z[std::size_t(k)] == doctest::Approx(1 + 0.5 * k * t).epsilon(1e-5));
    }
  }
  // Times that are scale factors: with the header's redshift 1/a - 1, or with none given.
  ParticleSet c = a, d = b;
  c.time = 0.5, d.time = 0.6;
  c.redshift = 1.0, d.redshift = 1 / 0.6 - 1;
  CHECK(comoving_times(c, d));
  c.redshift = d.redshift = -1;
  CHECK(comoving_times(c, d));
  c.redshift = 0;  // a time of 0.5 at redshift 0: physical
  CHECK(!comoving_times(c, d));
}

TEST_CASE("interpolation: a particle crossing the periodic box's edge moves the short way") {
  ParticleSet a, b;
  a.box_size = b.box_size = 100;
  add(a, 99, 50, 2, 1, 1);
  add(b, 1, 50, 98, 1, 1);
  a.id = {7};
  b.id = {7};
  InterpolationOptions o;
  const ParticleSet mid = between(a, b, 0.5, o);
  CHECK(mid.x[0] == doctest::Approx(100));  // 99 -> 101, the edge at 100: not 50
  CHECK(mid.y[0] == doctest::Approx(50));
  CHECK(mid.z[0] == doctest::Approx(0));  // 2 -> -2
  CHECK(between(a, b, 0.25, o).x[0] == doctest::Approx(99.5));
  o.periodic = false;
  CHECK(between(a, b, 0.5, o).x[0] == doctest::Approx(50));
}

// The particles between carry the header's numbers of the time between (the server's time and
// redshift, a map's units): a cosmological Gadget run's scale factor and its redshift; SWIFT's
// cosmic times, with the scale factor in its units; a run without redshifts.
TEST_CASE("interpolation: the particles between take the time's scale factor, redshift and units") {
  ParticleSet a, b;
  add(a, 1, 2, 3, 1, 1);
  add(b, 2, 2, 3, 1, 1);
  a.id = b.id = {5};
  a.units.comoving = b.units.comoving = true;
  a.units.length_cm = b.units.length_cm = 3.085678e21;
  InterpolationOptions o;
  // Gadget: times are scale factors (a = 1 / (1 + z)).
  a.time = 0.5, a.redshift = 1, a.units.scale_factor = 0.5;
  b.time = 0.8, b.redshift = 0.25, b.units.scale_factor = 0.8;
  const ParticleSet g = between(a, b, 0.5, o);
  CHECK(g.time == doctest::Approx(0.65));
  CHECK(g.units.scale_factor == doctest::Approx(0.65));
  CHECK(g.redshift == doctest::Approx(1 / 0.65 - 1));
  CHECK(g.units.length_cm == a.units.length_cm);
  // SWIFT: cosmic times (here 3 and 6), the scale factors in the units.
  a.time = 3, b.time = 6;
  const ParticleSet w = between(a, b, 0.25, o);
  CHECK(w.time == doctest::Approx(3.75));
  CHECK(w.units.scale_factor == doctest::Approx(0.575));
  CHECK(w.redshift == doctest::Approx(1 / 0.575 - 1));
  // No redshift in either header: none between.
  a.redshift = -1;
  CHECK(between(a, b, 0.5, o).redshift == -1);
}

TEST_CASE("interpolation: particles in one snapshot only stay where it has them, faded in or out, and are counted") {
  ParticleSet a, b;
  add(a, 1, 0, 0, 1, 4);   // ID 1: gone by the second
  add(a, 2, 0, 0, 1, 4);   // ID 2
  add(a, 3, 0, 0, 1, 4);   // ID 3
  add(b, 30, 0, 0, 1, 8);  // ID 3
  add(b, 40, 0, 0, 1, 8);  // ID 4: new
  add(b, 20, 0, 0, 1, 8);  // ID 2
  a.id = {1, 2, 3};
  b.id = {3, 4, 2};
  InterpolationCounts counts;
  const ParticleSet p = between(a, b, 0.25, {}, &counts);
  CHECK(counts.matched == 2);
  CHECK(counts.only_first == 1);
  CHECK(counts.only_second == 1);
  REQUIRE(p.size() == 4);
  CHECK(p.x[0] == 1.0f);  // ID 1, unmoved, fading out
  CHECK(p.intensity[0] == doctest::Approx(0.75 * 4));
  CHECK(p.x[1] == doctest::Approx(0.75 * 2 + 0.25 * 20));  // ID 2
  CHECK(p.x[2] == doctest::Approx(0.75 * 3 + 0.25 * 30));  // ID 3
  CHECK(p.intensity[2] == doctest::Approx(0.75 * 4 + 0.25 * 8));
  CHECK(p.x[3] == 40.0f);  // ID 4, where the second snapshot has it, fading in
  CHECK(p.intensity[3] == doctest::Approx(0.25 * 8));
  CHECK(p.colour[0][3] == 8.0f);
  // A repeated ID pairs in order of appearance: two of the three 5s find a partner.
  ParticleSet r1, r2;
  for (float x : {1.0f, 2.0f, 3.0f}) add(r1, x, 0, 0, 1, 1);
  for (float x : {10.0f, 20.0f}) add(r2, x, 0, 0, 1, 1);
  r1.id = {5, 5, 5};
  r2.id = {5, 5};
  const SnapshotMatch repeated = match_snapshots(r1, r2);
  CHECK(repeated.counts.matched == 2);
  CHECK(repeated.counts.only_first == 1);
  CHECK(repeated.partner[0] == 0);
  CHECK(repeated.partner[1] == 1);
  CHECK(repeated.partner[2] == no_partner);
}

TEST_CASE("interpolation: the ends of the interval are the snapshots themselves; what cannot be matched is an error") {
  Orbits o;
  for (int mode : {1, 2}) {
    o.options.mode = mode;
    const ParticleSet at0 = between(o.p1, o.p2, 0.0, o.options);
    const ParticleSet at1 = between(o.p1, o.p2, 1.0, o.options);
    CHECK(std::vector<float>(at0.x.begin(), at0.x.end()) == std::vector<float>(o.p1.x.begin(), o.p1.x.end()));
    CHECK(std::vector<float>(at1.x.begin(), at1.x.end()) == std::vector<float>(o.p2.x.begin(), o.p2.x.end()));
    CHECK(std::vector<float>(at1.hsml.begin(), at1.hsml.end()) ==
          std::vector<float>(o.p2.hsml.begin(), o.p2.hsml.end()));
  }
  // Without IDs (Tipsy) particles match by order, which needs the same count.
  ParticleSet a, b;
  add(a, 0, 0, 0, 1, 1);
  add(b, 2, 0, 0, 1, 1);
  CHECK(between(a, b, 0.5, {}).x[0] == doctest::Approx(1));
  add(b, 3, 0, 0, 1, 1);
  CHECK_THROWS_WITH_AS(between(a, b, 0.5, {}), doctest::Contains("they hold 1 and 2 particles"), UserError);
  // Mode 2 needs velocities.
  Orbits no_velocity;
  no_velocity.p2.vx.clear();
  CHECK_THROWS_WITH_AS(between(no_velocity.p1, no_velocity.p2, 0.5, no_velocity.options),
                       doctest::Contains("interpolation_mode = 2 needs both snapshots' velocities"), UserError);
}

TEST_CASE("interpolation: into a step before's memory, the same particles as into fresh memory") {
  Orbits o;
  o.options.mode = 1;
  const SnapshotMatch match = match_snapshots(o.p1, o.p2);
  ParticleSet held = interpolate_snapshots(o.p1, o.p2, match, 0.25, o.options);
  const float* memory = held.x.data();
  const ParticleSet fresh = interpolate_snapshots(o.p1, o.p2, match, 0.75, o.options);
  held = interpolate_snapshots(o.p1, o.p2, match, 0.75, o.options, std::move(held));
  CHECK(held.x.data() == memory);  // (written over, not made anew)
  CHECK(held.x == fresh.x);
  CHECK(held.y == fresh.y);
  CHECK(held.hsml == fresh.hsml);
  CHECK(held.intensity == fresh.intensity);
  CHECK(held.colour[0] == fresh.colour[0]);
  CHECK(held.x[0] == doctest::Approx(0.25 * o.p1.x[0] + 0.75 * o.p2.x[std::size_t(Orbits::count - 1)]));
  // At an end of the interval, a copy of that snapshot into the memory held.
  held = interpolate_snapshots(o.p1, o.p2, match, 1.0, o.options, std::move(held));
  CHECK(held.x == o.p2.x);
  // Memory too small is not used, nor a caller's (lent) memory, which must stay as it is.
  std::vector<float> lender(Orbits::count, -7.0f);
  ParticleSet lent;
  lent.x = lend_array(lender.data(), lender.size(), nullptr);
  const ParticleSet into_lent = interpolate_snapshots(o.p1, o.p2, match, 0.75, o.options, std::move(lent));
  CHECK(into_lent.x == fresh.x);
  CHECK(std::all_of(lender.begin(), lender.end(), [](float v) { return v == -7.0f; }));
}

namespace {

// A Gadget snapshot (and its HDF5 twin) of the same gas particles, moved by `shift` in x, with the
// same smoothing lengths, colours and intensities; with `shuffled`, listed in another order (as
// codes that move particles between processes write them), the IDs telling them apart.
void write_moved_snapshot(const std::string& path, double shift, double time, bool shuffled = false) {
  splotch::testing::GadgetTestFile g;
  const int n = 3000;
  g.npart = {std::uint32_t(n), 0, 0, 0, 0, 0};
  g.npart_total = g.npart;
  g.time = time;
  splotch::testing::GadgetTestBlock pos{"POS", {}, 4}, u{"U", {}, 4}, rho{"RHO", {}, 4}, hsml{"HSML", {}, 4};
  splotch::testing::GadgetTestBlock ids{"ID", {}, 8, true}, vel{"VEL", {}, 4};
  for (int k = 0; k < n; ++k) {
    const int i = shuffled ? (k * 7919) % n : k;  // 7919 is prime: a permutation of 0 .. n-1
    const double t = 0.002 * i;
    pos.values.insert(pos.values.end(), {40 + 10 * std::cos(7 * t) + shift, 50 + 10 * std::sin(5 * t), 50 + 5 * t});
    u.values.push_back(1 + (i % 17));
    rho.values.push_back(1 + (i % 5));
    hsml.values.push_back(0.8 + 0.001 * (i % 100));
    ids.values.push_back(1000000000000.0 + i);  // beyond 32 bits and a float's precision
    vel.values.insert(vel.values.end(), {0.0, 0.0, 0.0});
  }
  g.blocks = {pos, vel, ids, u, rho, hsml};
  g.write(path);
  if (splotch::hdf5_supported()) splotch::testing::Hdf5TestWriter::write(g, path + ".hdf5");
}

const std::string movie_keys =
    "simtype = 2\nptypes = 1\nptype0 = 0\nsize_fix0 = 0\nsize_label0 = HSML\ncolor_label0 = U\ncolor_log0 = TRUE\n"
    "intensity_label0 = RHO\nintensity_log0 = TRUE\npalette0 = testdata/palettes/fire.pal\nbrightness0 = 0.5\n"
    "camera_x = 50\ncamera_y = -40\ncamera_z = 80\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\nfov = 50\n"
    "xres = 120\nrenderer = host\n";

}  // namespace

TEST_CASE("interpolated movie: a 10-frame scene between two snapshots reads each once; its ends are the snapshots") {
  using namespace splotch::testing;
  TempDir dir;
  write_moved_snapshot(dir.file("snap_000"), 0, 0.5);
  write_moved_snapshot(dir.file("snap_001"), 10, 0.6, true);
  write_moved_snapshot(dir.file("half_000"), 5, 0.55);  // where mode 1 puts the particles at fidx 0.5
  const std::string par = dir.write("movie.par", movie_keys + "infile = " + dir.file("snap_") + "\n");
  const std::string frames = dir.write("frames.txt", "fidx\n0\n0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n0.7\n0.8\n0.9\n1\n");
  const CommandResult movie = run_command("bin/splotch " + par + " interpolation_mode=1 scene_file=" + frames +
                                          " outfile=" + dir.file("movie.tga"));
  INFO(movie.out);
  INFO(movie.err);
  REQUIRE(movie.status == 0);
  // Frames 0 to 0.9 need snapshots 0 and 1, frame 1 snapshot 1 alone: two reads in all.
  CHECK(movie.out.find("; 2 snapshot reads,") != std::string::npos);
  // The plain renders of each snapshot, and of the snapshot halfway.
  for (const auto& [name, infile] : {std::pair<std::string, std::string>{"first", dir.file("snap_")},
                                     {"second", dir.file("snap_")},
                                     {"half", dir.file("half_")}}) {
    const std::string fidx = name == "second" ? "1" : "0";
    REQUIRE(run_command("bin/splotch " + par + " infile=" + infile + " fidx=" + fidx +
                        " outfile=" + dir.file(name + ".tga"))
                .status == 0);
  }
  CHECK(read_file(dir.file("movie0000.tga")) == read_file(dir.file("first.tga")));
  CHECK(read_file(dir.file("movie0010.tga")) == read_file(dir.file("second.tga")));
  // Halfway: the particles where the snapshot halfway has them (to a float's rounding).
  const std::string mid = read_file(dir.file("movie0005.tga")), half = read_file(dir.file("half.tga"));
  REQUIRE(mid.size() == half.size());
  int worst = 0;
  std::size_t lit = 0;
  for (std::size_t i = 18; i < mid.size(); ++i) {
    worst = std::max(worst, std::abs(int(std::uint8_t(mid[i])) - int(std::uint8_t(half[i]))));
    lit += std::uint8_t(half[i]) > 10;
  }
  CHECK(worst <= 1);
  CHECK(lit > 1000);
  CHECK(read_file(dir.file("movie0005.tga")) != read_file(dir.file("first.tga")));
  // Across three snapshots, the next pair's new snapshot read while a frame renders.
  write_moved_snapshot(dir.file("snap_002"), 20, 0.7);
  const std::string across = dir.write("across.txt", "fidx\n0.5\n1\n1.5\n");
  const CommandResult pairs =
      run_command("bin/splotch " + par + " interpolation_mode=1 scene_read_ahead=TRUE scene_file=" + across +
                  " outfile=" + dir.file("across.tga"));
  INFO(pairs.out);
  CHECK(pairs.status == 0);
  CHECK(pairs.out.find("; 3 snapshot reads, 1 of them while a frame rendered;") != std::string::npos);
  CHECK(read_file(dir.file("across0001.tga")) == read_file(dir.file("second.tga")));
  // Backwards, the snapshot of the earlier pair that is not kept is the one read ahead.
  const std::string back = dir.write("back.txt", "fidx\n1.5\n1.4\n0.5\n0.4\n");
  const CommandResult backwards = run_command("bin/splotch " + par + " interpolation_mode=1 scene_read_ahead=TRUE " +
                                              "scene_file=" + back + " outfile=" + dir.file("back.tga"));
  INFO(backwards.out);
  CHECK(backwards.status == 0);
  CHECK(backwards.out.find("; 3 snapshot reads, 1 of them while a frame rendered;") != std::string::npos);
  // A preview keeps the same particles of both snapshots (chosen by ID).
  const CommandResult preview =
      run_command("bin/splotch " + par + " interpolation_mode=1 boost_fraction=0.3 " +
                  "scene_file=" + dir.write("one.txt", "fidx\n0.5\n") + " outfile=" + dir.file("preview.tga"));
  CHECK(preview.status == 0);
  CHECK(preview.out.find(" particles matched, 0 only in 0, 0 only in 1)") != std::string::npos);
  // Mode 2 with the velocities read (all 0 here: the cubic's midpoint is the chord's), and the
  // HDF5 twins (ParticleIDs, Velocities) give the same frames.
  const std::string half_frame = dir.write("half.txt", "fidx\n0.5\n");
  const CommandResult cubic = run_command("bin/splotch " + par + " interpolation_mode=2 scene_file=" + half_frame +
                                          " outfile=" + dir.file("cubic.tga"));
  INFO(cubic.err);
  CHECK(cubic.status == 0);
  CHECK(cubic.out.find("(snapshots 0 to 1 at 50%: 3000 particles matched, 0 only in 0, 0 only in 1)") !=
        std::string::npos);
  CHECK(read_file(dir.file("cubic0000.tga")) == read_file(dir.file("movie0005.tga")));
  if (splotch::hdf5_supported()) {
    const CommandResult h =
        run_command("bin/splotch " + par + " simtype=8 interpolation_mode=1 scene_file=" + half_frame +
                    " outfile=" + dir.file("hdf5.tga"));
    INFO(h.err);
    CHECK(h.status == 0);
    CHECK(read_file(dir.file("hdf50000.tga")) == read_file(dir.file("movie0005.tga")));
  }
  // The frame's record keeps its own fidx.
  CHECK(read_file(dir.file("movie0003.tga.used.par")).find("fidx = 0.3") != std::string::npos);
}

TEST_CASE(
    "interpolated movie under MPI: frames dealt out as one process renders them; data-parallel says what to use") {
  using namespace splotch::testing;
  if (!file_exists("bin/splotch_mpi") || run_command("command -v mpirun").status != 0) {
    MESSAGE("MPI tests skipped: bin/splotch_mpi or mpirun missing (make deps MPI=1)");
    return;
  }
  TempDir dir;
  write_moved_snapshot(dir.file("snap_000"), 0, 0.5);
  write_moved_snapshot(dir.file("snap_001"), 10, 0.6, true);
  const std::string par = dir.write("movie.par", movie_keys + "infile = " + dir.file("snap_") + "\n");
  const std::string frames = dir.write("frames.txt", "fidx\n0.25\n0.5\n0.75\n1\n");
  const std::string mpirun =
      "mpirun -q --oversubscribe --bind-to none --allow-run-as-root -x OMP_NUM_THREADS=1 -np 2 bin/splotch_mpi ";
  REQUIRE(run_command("bin/splotch " + par + " interpolation_mode=1 scene_file=" + frames +
                      " outfile=" + dir.file("one.tga"))
              .status == 0);
  const CommandResult dealt = run_command(mpirun + par + " interpolation_mode=1 mpi_mode=frames scene_file=" + frames +
                                          " outfile=" + dir.file("two.tga"));
  INFO(dealt.err);
  CHECK(dealt.status == 0);
  for (int k = 0; k < 4; ++k) {
    const std::string name = "000" + std::to_string(k) + ".tga";
    CHECK(read_file(dir.file("one" + name)) == read_file(dir.file("two" + name)));
  }
  const CommandResult shared = run_command(mpirun + par + " interpolation_mode=1 mpi_mode=data scene_file=" + frames +
                                           " outfile=" + dir.file("data.tga"));
  INFO(shared.out << shared.err);
  CHECK(shared.status == 1);
  CHECK(shared.err.find("run the scene with mpi_mode = frames") != std::string::npos);
  // Said once, before the first frame (not as each frame between snapshots fails among the others).
  CHECK(shared.err.find("frames.txt:2: fidx = 0.25 (interpolation_mode = 1) is a frame between two snapshots") !=
        std::string::npos);
  CHECK(std::count(shared.err.begin(), shared.err.end(), '\n') == 1);
  CHECK(!file_exists(dir.file("data0003.tga")));
  // mpi_mode = auto with no more frames than processes deals them out all the same (shares
  // cannot draw them), and says so.
  const CommandResult automatic = run_command(mpirun + par + " interpolation_mode=1 last_scene=1 scene_file=" + frames +
                                              " outfile=" + dir.file("auto.tga"));
  INFO(automatic.out << automatic.err);
  CHECK(automatic.status == 0);
  CHECK(automatic.out.find("note: mpi_mode = auto: the frames are dealt out to the processes (the scene has 2 "
                           "frames for 2 processes, but its frames between two snapshots need whole snapshots)") !=
        std::string::npos);
  for (int k = 0; k < 2; ++k) {
    const std::string name = "000" + std::to_string(k) + ".tga";
    CHECK(read_file(dir.file("one" + name)) == read_file(dir.file("auto" + name)));
  }
}
