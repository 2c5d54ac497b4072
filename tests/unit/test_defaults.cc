// Defaults where a key is absent, never where it is given (issue 36, point 2), and pictures that
// are right the first time (point 3): smoothing lengths from the file or estimated, exposure =
// auto with neither exposure nor a brightness given, a camera that frames the particles rather
// than their outliers (a preview framed as the full render), a type with no particles skipped,
// the warnings of a picture that is probably wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "io/image_reader.h"
#include "tests/support/gadget_test_file.h"
#include "tests/support/snapshot_test_data.h"
#include "tests/support/test_support.h"
#include "tests/support/tipsy_test_file.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A Gadget file: `n` particles of type `type` from `position(i)`, with HSML (gas) or without.
template <class Position>
std::string write_gadget(const TempDir& dir, const std::string& name, int type, int n, Position position,
                         bool with_hsml) {
  GadgetTestFile f;
  f.npart[std::size_t(type)] = std::uint32_t(n);
  f.npart_total = f.npart;
  f.mass[std::size_t(type)] = 1.0;
  f.time = 0.8;
  f.redshift = 0;
  GadgetTestBlock pos{"POS", {}, 4}, rho{"RHO", {}, 4}, hsml{"HSML", {}, 4};
  for (int i = 0; i < n; ++i) {
    const auto [x, y, z] = position(i);
    pos.values.insert(pos.values.end(), {x, y, z});
    rho.values.push_back(1.0 + i % 7);
    hsml.values.push_back(0.05 + 0.001 * (i % 13));
  }
  f.blocks = {pos};
  if (type == 0) f.blocks.push_back(rho);
  if (with_hsml) f.blocks.push_back(hsml);
  const std::string path = dir.path(name);
  f.write(path);
  return path;
}

// A parameter file naming `snapshot` (Gadget), with `keys` after the common ones.
std::string par_for(const TempDir& dir, const std::string& snapshot, const std::string& keys) {
  return dir.write("p.par",
                   "simtype = 2\ninfile = " + snapshot + "\npalette0 = fire\nxres = 96\nrenderer = host\n" + keys);
}

CommandResult run_splotch(const std::string& par, const std::string& args) {
  return run_command("bin/splotch " + par + " " + args);
}

// A cube of side 1 about the origin, particles on a grid of 10 x 10 x 10.
std::array<double, 3> in_cube(int i) {
  return {0.1 * (i % 10) - 0.45, 0.1 * (i / 10 % 10) - 0.45, 0.1 * (i / 100) - 0.45};
}

}  // namespace

TEST_CASE("defaults: with no size key the file's smoothing lengths, else an estimate; size_labelN alone reads it") {
  TempDir dir;
  const std::string gas = write_gadget(dir, "gas", 0, 1000, in_cube, true);
  const std::string par = par_for(dir, gas, "");
  const CommandResult none = run_splotch(par, "outfile=" + dir.path("none.png"));
  REQUIRE(none.status == 0);
  CHECK(contains(none.out, "note: smoothing lengths: ptype0 = 0 (gas): the file's HSML (no size key given)\n"));
  CHECK(!contains(none.out, "  hsml "));  // read, not estimated
  // The same picture as reading them by name, as size_fix0 = 0 does, and as size_label0 alone does.
  const CommandResult fix = run_splotch(par, "size_fix0=0 outfile=" + dir.path("fix.png"));
  CHECK(contains(fix.out, "note: smoothing lengths: ptype0 = 0 (gas): the file's HSML (size_fix0 = 0)\n"));
  const CommandResult label = run_splotch(par, "size_label0=HSML outfile=" + dir.path("label.png"));
  CHECK(contains(label.out, "the file's HSML (no size key given)") == false);
  CHECK(read_file(dir.path("none.png")) == read_file(dir.path("fix.png")));
  CHECK(read_file(dir.path("label.png")) == read_file(dir.path("fix.png")));
  // A given size_fix is as given (one length for all).
  const CommandResult one = run_splotch(par, "size_fix0=0.2 outfile=" + dir.path("one.png"));
  INFO(one.out);
  CHECK(contains(one.out, "ptype0 = 0 (gas): 0.2 for every particle (size_fix0)"));
  CHECK(read_file(dir.path("one.png")) != read_file(dir.path("fix.png")));

  // No smoothing lengths in the file: estimated from the 32 nearest, as size_estimate0 = knn does.
  const std::string dark = write_gadget(dir, "dark", 1, 1000, in_cube, false);
  const std::string dark_par = par_for(dir, dark, "ptype0 = 1\n");
  const CommandResult knn = run_splotch(dark_par, "outfile=" + dir.path("knn.png"));
  REQUIRE(knn.status == 0);
  CHECK(contains(knn.out,
                 "ptype0 = 1 (dark matter): estimated from the 32 nearest neighbours (no size key given): "
                 "the file has no smoothing lengths for it"));
  CHECK(contains(knn.out, "  hsml "));
  CHECK(run_splotch(dark_par, "size_estimate0=knn outfile=" + dir.path("knn2.png")).status == 0);
  CHECK(read_file(dir.path("knn.png")) == read_file(dir.path("knn2.png")));
  // Before, h = 1 for every particle: the whole cube one blur. An explicit none keeps that.
  CHECK(run_splotch(dark_par, "size_estimate0=none outfile=" + dir.path("blur.png")).status == 0);
  CHECK(read_file(dir.path("blur.png")) != read_file(dir.path("knn.png")));
}

TEST_CASE("defaults: Tipsy gas whose hsmooth is one value for all (a softening) is estimated instead, and said") {
  TempDir dir;
  TipsyTestFile t;
  for (int i = 0; i < 500; ++i) {  // mass, pos, vel, rho, temp, hsmooth, metals, phi
    const auto [x, y, z] = in_cube(i);
    t.records[0].push_back({1, x, y, z, 0, 0, 0, 1.0 + i % 5, 1e4, 0.00125, 0, 0});
  }
  t.write(dir.path("run.000010"));
  const std::string par = dir.write("t.par", "simtype = 11\ninfile = " + dir.path("run.000010") +
                                                 "\ncolor_label0 = rho\npalette0 = fire\nxres = 96\nrenderer = host\n");
  const CommandResult r = run_splotch(par, "outfile=" + dir.path("auto.png"));
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out,
                 "the file's hsmooth of type 0 is one value for all 500 particles (0.00125): a softening or a "
                 "placeholder, not SPH smoothing lengths, so they are estimated from the 32 nearest "
                 "neighbours instead"));
  CHECK(run_splotch(par, "size_estimate0=knn outfile=" + dir.path("knn.png")).status == 0);
  CHECK(read_file(dir.path("auto.png")) == read_file(dir.path("knn.png")));
  // size_fix0 = 0 given: the file's, as given.
  const CommandResult given = run_splotch(par, "size_fix0=0 outfile=" + dir.path("given.png"));
  CHECK(!contains(given.out, "one value for all"));
  CHECK(read_file(dir.path("given.png")) != read_file(dir.path("auto.png")));
}

TEST_CASE("defaults: neither exposure nor a brightness given: exposure = auto, with a note; either given: as given") {
  TempDir dir;
  const std::string gas = write_gadget(dir, "gas", 0, 1000, in_cube, true);
  const std::string par = par_for(dir, gas, "color_label0 = RHO\n");
  const CommandResult untuned = run_splotch(par, "outfile=" + dir.path("untuned.png"));
  REQUIRE(untuned.status == 0);
  CHECK(contains(untuned.out,
                 "note: exposure = auto (neither exposure nor a brightnessN is given): every brightness "
                 "times "));
  CHECK(contains(read_file(dir.path("untuned.png.used.par")), "exposure = "));
  CHECK(run_splotch(par, "exposure=auto outfile=" + dir.path("auto.png")).status == 0);
  CHECK(read_file(dir.path("untuned.png")) == read_file(dir.path("auto.png")));
  const CommandResult bright = run_splotch(par, "brightness0=1 outfile=" + dir.path("bright.png"));
  CHECK(!contains(bright.out, "exposure = auto"));
  CHECK(read_file(dir.path("bright.png")) != read_file(dir.path("untuned.png")));
  // exposure = auto with a brightness given: the note says what the brightness then does.
  const CommandResult weighed = run_splotch(par, "exposure=auto brightness0=2 outfile=" + dir.path("weighed.png"));
  CHECK(contains(weighed.out, "so brightness0 changes nothing here: give exposure a number to set how bright"));
  CHECK(read_file(dir.path("weighed.png")) == read_file(dir.path("auto.png")));
  // A colour field with no value above 0 under color_log: said (every particle gets one colour).
  const CommandResult zero =
      run_splotch(par, "color_label0=RHO color_log0=TRUE color_fac0=0 outfile=" + dir.path("z.png"));
  CHECK(contains(zero.err, "no colour value of type 0 (RHO) is above 0, and color_log0 takes their log10"));
  // With a_eq_e = FALSE no single factor applies: nothing changes there.
  const CommandResult composite = run_splotch(par, "a_eq_e=FALSE outfile=" + dir.path("composite.png"));
  CHECK(composite.status == 0);
  CHECK(!contains(composite.out, "exposure = auto"));
}

TEST_CASE("defaults: a scene keeps the first frame's exposure where it was chosen by default (no flicker)") {
  TempDir dir;
  const std::string gas = write_gadget(dir, "gas", 0, 1000, in_cube, true);
  const std::string par = par_for(dir, gas,
                                  "camera_x = 0\ncamera_y = -3\ncamera_z = 0\nlookat_x = 0\nlookat_y = 0\n"
                                  "lookat_z = 0\n");
  const std::string scene = dir.write("s.txt", "camera_y\n-3\n-6\n");
  const CommandResult r = run_splotch(par, "scene_file=" + scene + " outfile=" + dir.path("f.png"));
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "and the frames after it keep that"));
  // Frame 2 is drawn with frame 1's factor (both used.par files give the same number).
  auto exposure_of = [&](const std::string& used) {
    const std::string text = read_file(used);
    const std::size_t at = text.find("\nexposure = ");
    return at == std::string::npos ? std::string() : text.substr(at + 12, text.find_first_of(" \n", at + 12) - at - 12);
  };
  CHECK(!exposure_of(dir.path("f0000.png.used.par")).empty());
  CHECK(exposure_of(dir.path("f0000.png.used.par")) == exposure_of(dir.path("f0001.png.used.par")));
  const std::string second = read_file(dir.path("f0001.png"));
  // Resumed after frame 1: frame 2, drawn again, keeps frame 1's factor (by itself it would
  // choose another, its view being another), and says where the factor came from.
  REQUIRE(std::remove(dir.path("f0001.png").c_str()) == 0);
  const CommandResult resumed = run_splotch(par, "scene_file=" + scene + " resume=TRUE outfile=" + dir.path("f.png"));
  REQUIRE(resumed.status == 0);
  CHECK(contains(resumed.out, "as the first frame chose it (" + dir.path("f0000.png.used.par") + ")"));
  CHECK(read_file(dir.path("f0001.png")) == second);
  const CommandResult alone = run_splotch(par, "camera_y=-6 outfile=" + dir.path("alone.png"));
  CHECK(exposure_of(dir.path("alone.png.used.par")) != exposure_of(dir.path("f0001.png.used.par")));
}

TEST_CASE("pictures: the camera frames the particles, not a few far ones, and a preview is framed as the full render") {
  TempDir dir;
  // 990 particles in a cube of side 1 about the origin, 10 escaped 1000 away.
  const std::string snap = write_gadget(
      dir, "escaped", 0, 1000,
      [](int i) {
        if (i >= 990) return std::array<double, 3>{1000.0 + i, -500.0, 800.0};
        return in_cube(i);
      },
      true);
  const std::string par = par_for(dir, snap, "");
  const CommandResult r = run_splotch(par, "outfile=" + dir.path("full.png"));
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "; 10 of the 1000 particles (1%) lie outside it, as far as"));
  // The camera stands a few sides of the cube away, not a thousand.
  const std::string used = read_file(dir.path("full.png.used.par"));
  const std::size_t at = used.find("\ncamera_y = ");
  REQUIRE(at != std::string::npos);
  const double camera_y = std::stod(used.substr(at + 12));
  CHECK(camera_y > 0.5);
  CHECK(camera_y < 5);
  // Lit: the cube fills the picture (before, it was a dot).
  const Image8 picture = read_image(dir.path("full.png"));
  std::size_t lit = 0;
  for (std::size_t p = 0; p < picture.rgb.size() / 3; ++p)
    lit += std::max({picture.rgb[3 * p], picture.rgb[3 * p + 1], picture.rgb[3 * p + 2]}) >= 13;
  CHECK(double(lit) / double(picture.rgb.size() / 3) > 0.2);
  // A preview of a third of the particles: the same camera.
  const CommandResult preview = run_splotch(par, "boost_fraction=0.3 outfile=" + dir.path("preview.png"));
  REQUIRE(preview.status == 0);
  auto camera_line = [](const std::string& out) {
    const std::size_t from = out.find("note: no camera given");
    return from == std::string::npos ? std::string() : out.substr(from, out.find('\n', from) - from);
  };
  CHECK(!camera_line(r.out).empty());
  CHECK(camera_line(preview.out) == camera_line(r.out));
  // A periodic box: a group across its edge is framed as one (not as pieces at both sides).
  GadgetTestFile f;
  f.npart = {400, 0, 0, 0, 0, 0};
  f.npart_total = f.npart;
  f.mass = {1, 0, 0, 0, 0, 0};
  f.box_size = 100;
  GadgetTestBlock pos{"POS", {}, 4};
  for (int i = 0; i < 400; ++i)  // x from 97 to 103, wrapped into the box: 97..100 and 0..3
    pos.values.insert(pos.values.end(), {std::fmod(97.0 + 0.015 * i, 100.0), 50.0 + 0.01 * (i % 7), 50.0});
  f.blocks = {pos};
  f.write(dir.path("edge"));
  const CommandResult edge = run_splotch(par_for(dir, dir.path("edge"), ""), "outfile=" + dir.path("edge.png"));
  REQUIRE(edge.status == 0);
  INFO(edge.out);
  CHECK(contains(edge.out, "the box framed is (-3"));
}

TEST_CASE("pictures: a type with no particles in the snapshot is a warning, and the other types are drawn") {
  TempDir dir;
  const std::string gas = write_gadget(dir, "gas", 0, 1000, in_cube, true);
  const std::string par = par_for(dir, gas, "ptypes = 2\nptype1 = 4\npalette1 = ice\n");
  const CommandResult r = run_splotch(par, "outfile=" + dir.path("two.png"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.err, "splotch: warning: " + par + ":7: ptype1 = 4: '" + gas +
                            "' holds no particles of type 4 (it holds 1000 of type 0 (gas)): render type 1 is skipped "
                            "(choose another ptype1 or fewer ptypes)"));
  CHECK(run_splotch(par, "ptypes=1 outfile=" + dir.path("one.png")).status == 0);
  // None of the types asked for: an error naming what the snapshot has.
  const CommandResult none = run_splotch(par, "ptypes=1 ptype0=4");
  CHECK(none.status == 1);
  CHECK(contains(none.err, "holds no particles of the types asked for (ptype0 = 4); it holds 1000 of type 0 (gas)"));
  // An HDF5 snapshot of a code built with fewer types: a type beyond those its header lists is none.
  const std::string data = real_data_dir();
  if (data.empty()) return;
  const std::string g4 = data + "/gadget4_lcdm_gas_snapshot_004.hdf5";
  const CommandResult beyond = run_splotch(g4, "xres=64 ptypes=2 ptype1=4 palette1=ice outfile=" + dir.path("g4.png"));
  CHECK(beyond.status == 0);
  CHECK(contains(beyond.err,
                 "holds no particles of type 4 (it holds 32768 of type 0 (gas), 32768 of type 1 (dark "
                 "matter)): render type 1 is skipped"));
}

TEST_CASE("pictures: smoothing lengths estimated for a small group are not warned about as huge") {
  TempDir dir;
  // 1000 stars within 0.034 (the placeholder h = 1 before the estimate is 30 times that).
  const std::string stars = write_gadget(
      dir, "stars", 4, 1000,
      [](int i) {
        return std::array<double, 3>{0.0034 * (i % 10), 0.0034 * (i / 10 % 10), 0.0034 * (i / 100)};
      },
      false);
  const CommandResult r =
      run_splotch(par_for(dir, stars, "ptype0 = 4\nsize_estimate0 = knn\n"), "outfile=" + dir.path("s.png"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(!contains(r.err, "over 10 times the extent"));
  // A smoothing length that really is huge still is.
  const CommandResult huge =
      run_splotch(par_for(dir, stars, "ptype0 = 4\nsize_fix0 = 5\n"), "outfile=" + dir.path("h.png"));
  CHECK(contains(huge.err, "over 10 times the extent"));
}

TEST_CASE("pictures: nearly black by how little is lit; intensities all below intensity_min say so") {
  TempDir dir;
  const std::string gas = write_gadget(dir, "gas", 0, 1000, in_cube, true);
  const std::string par = par_for(dir, gas, "");
  // Far away: one lit speck.
  const CommandResult far = run_splotch(par,
                                        "camera_x=0 camera_y=-3000 camera_z=0 lookat_x=0 lookat_y=0 lookat_z=0 "
                                        "outfile=" +
                                            dir.path("far.png"));
  REQUIRE(far.status == 0);
  CHECK(contains(far.err, "the picture is nearly black: only "));
  CHECK(contains(far.err, "the particles cover a speck of the view; bring the camera closer"));
  // Every intensity below the range's bottom: no brightness helps, and the warning says so.
  const CommandResult clamped =
      run_splotch(par, "intensity_label0=RHO intensity_min0=100 outfile=" + dir.path("clamped.png"));
  REQUIRE(clamped.status == 0);
  CHECK(contains(clamped.err,
                 "nearly black (its brightest value is 0 of 255): every intensity of type 0 lies at or "
                 "below the bottom of its range, 100 (intensity_min0; the data reach 7), so all are "
                 "drawn with intensity 0, which no brightness lifts"));
  CHECK(!contains(clamped.err, "raise the brightnesses"));
}
