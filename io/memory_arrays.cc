#include "io/memory_arrays.h"

#include <set>

#include "errors/user_error.h"
#include "io/field_names.h"
#include "io/particle_array.h"

namespace splotch {

void memory_field_label(const std::string& name, std::string& label, int& component) {
  const std::string n = lower_case(name);
  component = -1;
  const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    if (n == axes[a]) {
      label = "POS";
      component = a;
      return;
    }
    if (n == std::string("v") + axes[a] || n == std::string("vel_") + axes[a] ||
        n == std::string("velocity_") + axes[a]) {
      label = "VEL";
      component = a;
      return;
    }
  }
  if (n == "h") {
    label = "HSML";
    return;
  }
  if (n == "m") {
    label = "MASS";
    return;
  }
  label = gadget_block_label(name);
  if (label == name) label.clear();  // (a name of its own: found by that name alone)
}

ColumnSnapshot memory_snapshot(const std::string& name, std::vector<MemoryType> types) {
  ColumnSnapshot s;
  s.path = name;
  s.description = "arrays in memory";
  std::set<int> numbers;
  for (MemoryType& t : types) {
    const std::string which =
        "type " + std::to_string(t.file_type) + " (" + (t.name.empty() ? "particles" : t.name) + ")";
    if (t.file_type < 0 || t.file_type > 255)
      throw UserError("the particles' type " + std::to_string(t.file_type) + " is not a type number from 0 to 255");
    if (!numbers.insert(t.file_type).second)
      throw UserError("two sets of particles are given as type " + std::to_string(t.file_type) +
                      ": give each its own type");
    ColumnType c;
    c.file_type = t.file_type;
    c.name = t.name.empty() ? "particles" : t.name;
    bool counted = false;
    std::set<std::string> names;
    for (MemoryField& f : t.fields) {
      if (!names.insert(lower_case(f.name)).second)
        throw UserError(which + ": two fields are named '" + f.name + "' (names compare without case): rename one");
      if (!counted) {
        c.count = f.count;
        counted = true;
      } else if (f.count != c.count) {
        throw UserError(which + ": the field '" + f.name + "' has " + std::to_string(f.count) + " values, but '" +
                        t.fields.front().name + "' has " + std::to_string(c.count) +
                        ": every field of a type has one value per particle");
      }
      Column col;
      col.name = f.name;
      memory_field_label(f.name, col.label, col.component);
      col.type = f.held_as;
      col.values = lend_array(f.values, f.count, std::move(f.keeper));
      c.all_fields.push_back(f.name);
      c.columns.push_back(std::move(col));
    }
    for (const char* axis : {"x", "y", "z"})
      if (c.find(axis, 1).empty() || c.find(axis, 1).front()->label != "POS")
        throw UserError(which + " has no positions '" + axis + "': give x, y and z (or pos, an (N, 3) array)");
    s.types.push_back(std::move(c));
  }
  if (s.types.empty()) throw UserError("no particles were given: give x, y and z (or pos) of at least one type");
  return s;
}

}  // namespace splotch
