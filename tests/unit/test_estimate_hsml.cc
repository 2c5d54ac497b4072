// The hsml stage (splotch/load/estimate_hsml.h): which render types get nearest-neighbour smoothing
// lengths, among which particles, times which factor.
#include <doctest/doctest.h>

#include "splotch/load/estimate_hsml.h"
#include "splotch/util/console.h"

namespace splotch {

TEST_CASE("hsml stage: sizes only the render types that ask, each among its own particles") {
  // Type 0 keeps its smoothing lengths; type 1 (20 particles on a line, spacing 1) is sized by its
  // 4 nearest (itself included), times size_fac 2; the type-0 particles between them do not count.
  ParticleSet p;
  for (int i = 0; i < 30; ++i) {
    const bool dm = i >= 10;
    p.x.push_back(dm ? float(i - 10) : 0.5f + float(i));
    p.y.push_back(0);
    p.z.push_back(0);
    p.hsml.push_back(7.0f);
    p.intensity.push_back(1);
    p.colour[0].push_back(1);
    p.type.push_back(dm ? 1 : 0);
  }
  SnapshotRequest input;
  input.format = SnapshotFormat::gadget;
  input.periodic = false;
  input.typed.types.resize(2);
  input.typed.types[1].size_estimate = SizeEstimate::knn;
  input.typed.types[1].neighbours = 4;
  input.typed.types[1].size.factor = 2.0f;
  Console console(true, false);
  std::vector<std::string> notes;
  std::vector<std::string> warnings;
  const std::vector<bool> which = types_to_estimate(p, input, false, notes, warnings);
  CHECK(which == std::vector<bool>{false, true});
  CHECK(notes.empty());
  estimate_smoothing_lengths(p, input, which, notes, console);
  CHECK(notes.empty());
  for (int i = 0; i < 10; ++i) CHECK(p.hsml[std::size_t(i)] == 7.0f);
  // On a line of spacing 1, the 3rd nearest other particle is 2 away (1 and 2 on each side), or 3
  // at the ends.
  for (int j = 0; j < 20; ++j) {
    const float expected = (j == 0 || j == 19) ? 3.0f : 2.0f;
    CHECK(p.hsml[std::size_t(10 + j)] == 2.0f * expected);
  }
}

namespace {

// `count` particles of one render type on a line of spacing 1, with smoothing lengths `h(i)`.
ParticleSet line_of(int count, float (*h)(int)) {
  ParticleSet p;
  for (int i = 0; i < count; ++i) {
    p.x.push_back(float(i));
    p.y.push_back(0);
    p.z.push_back(0);
    p.hsml.push_back(h(i));
    p.intensity.push_back(1);
    p.colour[0].push_back(1);
  }
  return p;
}

SnapshotRequest auto_sizes(int neighbours) {
  SnapshotRequest input;
  input.format = SnapshotFormat::tipsy;
  input.periodic = false;
  input.typed.types.resize(1);
  RenderTypeRequest& r = input.typed.types[0];
  r.size_fix = 0;
  r.size.label = "hsmooth";
  r.estimate_if_constant = true;
  r.neighbours = neighbours;
  return input;
}

}  // namespace

TEST_CASE("hsml stage: size_estimate = auto keeps the file's varying smoothing lengths, estimates one value for all") {
  Console console(true, false);
  std::vector<std::string> notes;
  // Varying: SPH smoothing lengths, kept as read.
  ParticleSet varying = line_of(10, [](int i) { return 0.5f + 0.1f * float(i); });
  std::vector<std::string> warnings;
  CHECK(types_to_estimate(varying, auto_sizes(4), false, notes, warnings) == std::vector<bool>{false});
  CHECK(notes.empty());
  CHECK(varying.hsml[3] == doctest::Approx(0.8f));
  // One value for all (ChaNGa's hsmooth holds the softening; zeros would be dropped as invalid):
  // the placeholder 1 now, then the 4 nearest, and a note naming the field and the value.
  ParticleSet softening = line_of(10, [](int) { return 0.0f; });
  const std::vector<bool> which = types_to_estimate(softening, auto_sizes(4), false, notes, warnings);
  CHECK(which == std::vector<bool>{true});
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("the file's hsmooth of type 0 is one value for all 10 particles (0)") != std::string::npos);
  CHECK(notes[0].find("estimated from the 4 nearest neighbours") != std::string::npos);
  CHECK(softening.hsml[5] == 1.0f);
  estimate_smoothing_lengths(softening, auto_sizes(4), which, notes, console);
  CHECK(softening.hsml[5] == 2.0f);
  CHECK(softening.hsml[0] == 3.0f);
  // An MPI process's share cannot look for neighbours elsewhere: it keeps the values (and warns).
  notes.clear();
  ParticleSet share = line_of(10, [](int) { return 0.25f; });
  CHECK(warnings.empty());
  CHECK(types_to_estimate(share, auto_sizes(4), true, notes, warnings) == std::vector<bool>{false});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("they are drawn with it, as the estimate from neighbours needs one process") !=
        std::string::npos);
  CHECK(notes.empty());
  CHECK(share.hsml[5] == 0.25f);
}

TEST_CASE("hsml stage: a type of one particle gets a hundredth of the particles' extent; an empty type nothing") {
  Console console(true, false);
  std::vector<std::string> notes;
  // Type 0: 5 particles from x = 0 to 40; type 1: one particle at x = 100; type 2: none.
  ParticleSet p;
  for (int i = 0; i < 6; ++i) {
    p.x.push_back(i < 5 ? float(10 * i) : 100.0f);
    p.y.push_back(0);
    p.z.push_back(0);
    p.hsml.push_back(1);
    p.intensity.push_back(1);
    p.colour[0].push_back(1);
    p.type.push_back(i < 5 ? 0 : 1);
  }
  SnapshotRequest input;
  input.format = SnapshotFormat::gadget;
  input.periodic = false;
  input.typed.types.resize(3);
  for (RenderTypeRequest& r : input.typed.types) r.size_estimate = SizeEstimate::knn, r.neighbours = 2;
  estimate_smoothing_lengths(p, input, {true, true, true}, notes, console);
  CHECK(p.hsml[0] == 10.0f);  // the nearest other particle of its type
  CHECK(p.hsml[5] == 1.0f);   // 100 / 100
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].rfind("render type 1 has one particle", 0) == 0);
}

}  // namespace splotch
