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
  CHECK(needs_hsml_estimate(input));
  Console console(true, false);
  estimate_smoothing_lengths(p, input, console);
  for (int i = 0; i < 10; ++i) CHECK(p.hsml[std::size_t(i)] == 7.0f);
  // On a line of spacing 1, the 3rd nearest other particle is 2 away (1 and 2 on each side), or 3
  // at the ends.
  for (int j = 0; j < 20; ++j) {
    const float expected = (j == 0 || j == 19) ? 3.0f : 2.0f;
    CHECK(p.hsml[std::size_t(10 + j)] == 2.0f * expected);
  }
}

}  // namespace splotch
