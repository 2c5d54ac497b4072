// Arrays a caller lends (io/particle_array.h: lend_array; io/memory_arrays.h): used in place,
// kept alive as long as an array on them lives, never written (a step that changes them copies
// them first: own), and read as a snapshot's columns by the render's labels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/column_reader.h"
#include "io/memory_arrays.h"
#include "io/particle_array.h"
#include "io/particle_set.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

// Values lent with a keeper that says when it is let go.
struct Lender {
  std::vector<float> values;
  std::shared_ptr<bool> released = std::make_shared<bool>(false);
  std::shared_ptr<const void> keeper() {
    std::shared_ptr<bool> flag = released;
    return std::shared_ptr<const void>(new int(0), [flag](const void* p) {
      *flag = true;
      delete static_cast<const int*>(p);
    });
  }
};

TEST_CASE("a lent array uses the lender's memory, and keeps it until the last array on it goes") {
  Lender lender{{1, 2, 3, 4}};
  {
    ParticleArray<float> a = lend_array(lender.values.data(), 4, lender.keeper());
    CHECK(a.data() == lender.values.data());
    CHECK(is_lent(a));
    CHECK(a == std::vector<float>{1, 2, 3, 4});
    ParticleArray<float> moved = std::move(a);  // (moved: still the lender's)
    CHECK(moved.data() == lender.values.data());
    CHECK(is_lent(moved));
    ParticleArray<float> again = lend_again(moved);
    CHECK(again.data() == lender.values.data());
    ParticleArray<float> copy = moved;  // (a copy: memory of its own)
    CHECK(copy.data() != lender.values.data());
    CHECK_FALSE(is_lent(copy));
    CHECK(copy == std::vector<float>{1, 2, 3, 4});
    moved = ParticleArray<float>{};
    CHECK_FALSE(*lender.released);  // (`again` still uses it)
  }
  CHECK(*lender.released);
  CHECK(lender.values == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("large arrays of one set start at different places within a page, and their memory is freed whole") {
  // (arrays all on 2 MiB boundaries put the values a loop walks together into the same cache sets)
  ParticleSet p;
  const std::size_t n = std::size_t(1) << 20;  // 4 MiB a field: on huge pages
  std::vector<std::size_t> offsets;
  for (ParticleArray<float>* a : p.float_fields()) {
    a->resize(n);
    (*a)[0] = 1, (*a)[n - 1] = 2;  // (the first and last values are the array's own)
    offsets.push_back(reinterpret_cast<std::uintptr_t>(a->data()) % 4096);
    CHECK(offsets.back() % 64 == 0);  // (a cache line's start)
  }
  std::sort(offsets.begin(), offsets.end());
  CHECK(std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end());
  // Grown past their memory, moved and freed: the allocator finds each allocation's start again.
  p.x.resize(3 * n);
  CHECK(p.x[0] == 1);
  CHECK(p.x[n - 1] == 2);
  ParticleArray<float> moved = std::move(p.y);
  CHECK(moved[n - 1] == 2);
  p = ParticleSet();
  moved = ParticleArray<float>(5, 3.0f);
  CHECK(moved.size() == 5);
}

TEST_CASE("nothing written to a lent array reaches the lender's memory") {
  Lender lender{{5, 6, 7}};
  ParticleArray<float> a = lend_array(lender.values.data(), 3, lender.keeper());
  SUBCASE("own() before a step writes") {
    own(a);
    CHECK_FALSE(is_lent(a));
    a[0] = 50;
  }
  SUBCASE("an assignment of other values") {
    ParticleArray<float> other(3);
    other[0] = 9, other[1] = 9, other[2] = 9;
    a = other;  // (fits in the lent memory's size: still a fresh array)
    CHECK(a.data() != lender.values.data());
    CHECK(a == std::vector<float>{9, 9, 9});
  }
  SUBCASE("a particle set's steps") {
    ParticleSet p;
    p.x = std::move(a);
    p.own_all();
    p.x[1] = 60;
  }
  CHECK(lender.values == std::vector<float>{5, 6, 7});
}

TEST_CASE("fields in memory are named as a snapshot's, and what is wrong with them is said") {
  std::string label;
  int component = 0;
  memory_field_label("y", label, component);
  CHECK((label == "POS" && component == 1));
  memory_field_label("h", label, component);
  CHECK((label == "HSML" && component == -1));
  memory_field_label("SmoothingLength", label, component);
  CHECK(label == "HSML");
  memory_field_label("Density", label, component);
  CHECK(label == "RHO");
  memory_field_label("mass", label, component);
  CHECK(label == "MASS");
  memory_field_label("vz", label, component);
  CHECK((label == "VEL" && component == 2));
  memory_field_label("temperature", label, component);
  CHECK(label == "TEMP");
  memory_field_label("metals_of_mine", label, component);
  CHECK(label.empty());

  std::vector<float> x = {0, 1, 2}, y = {1, 1, 1}, z = {2, 2, 2}, h = {0.5f, 0.6f, 0.7f}, short_field = {1, 2};
  auto field = [](const std::string& name, std::vector<float>& v) {
    return MemoryField{name, v.data(), v.size(), nullptr, "float32"};
  };
  const ColumnSnapshot s =
      memory_snapshot("mine", {MemoryType{0, "gas", {field("x", x), field("y", y), field("z", z), field("h", h)}}});
  REQUIRE(s.types.size() == 1);
  CHECK(s.types[0].count == 3);
  CHECK(s.types[0].find("POS", 3).size() == 3);
  CHECK(s.types[0].find("HSML", 1).front()->values.data() == h.data());

  CHECK_THROWS_WITH_AS(memory_snapshot("m", {MemoryType{0, "", {field("x", x), field("y", short_field)}}}),
                       "type 0 (particles): the field 'y' has 2 values, but 'x' has 3: every field of a type has "
                       "one value per particle",
                       UserError);
  CHECK_THROWS_WITH_AS(memory_snapshot("m", {MemoryType{0, "", {field("x", x), field("y", y)}}}),
                       "type 0 (particles) has no positions 'z': give x, y and z (or pos, an (N, 3) array)", UserError);
  CHECK_THROWS_WITH_AS(memory_snapshot("m", {}), doctest::Contains("no particles were given"), UserError);
}

TEST_CASE("the render's positions and sizes use the arrays in place where one type is drawn whole") {
  std::vector<float> x = {0, 1, 2, 3}, y = {1, 1, 1, 1}, z = {2, 2, 2, 2}, h = {0.5f, 0.6f, 0.7f, 0.8f},
                     rho = {1, 2, 3, 4};
  auto field = [](const std::string& name, std::vector<float>& v) {
    return MemoryField{name, v.data(), v.size(), nullptr, "float32"};
  };
  const ColumnSnapshot s = memory_snapshot(
      "mine", {MemoryType{0, "gas", {field("x", x), field("y", y), field("z", z), field("h", h), field("rho", rho)}},
               MemoryType{4, "stars", {field("x", x), field("y", y), field("z", z)}}});
  TypedSnapshotRequest request;
  RenderTypeRequest gas;
  gas.size_fix = 0;
  gas.size.label = "HSML";
  gas.colour.label = "rho";
  request.types = {gas};
  const ParticleSet lent = particles_from_columns(s, request, {}, true);
  CHECK(lent.x.data() == x.data());
  CHECK(lent.z.data() == z.data());
  CHECK(lent.hsml.data() == h.data());
  CHECK(is_lent(lent.y));
  CHECK(lent.colour[0].data() != rho.data());  // (normalised later: the render's own)
  CHECK(lent.colour[0] == rho);

  const ParticleSet copied = particles_from_columns(s, request);  // (a file's columns: copied)
  CHECK(copied.x.data() != x.data());
  CHECK(copied.x == x);

  RenderTypeRequest stars;
  stars.file_type = 4;
  request.types = {gas, stars};  // (two types: joined in one array)
  const ParticleSet both = particles_from_columns(s, request, {}, true);
  CHECK(both.size() == 8);
  CHECK_FALSE(is_lent(both.x));
  CHECK(both.x == std::vector<float>{0, 1, 2, 3, 0, 1, 2, 3});
}

}  // namespace
}  // namespace splotch
