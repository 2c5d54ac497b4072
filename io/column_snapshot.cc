#include "io/column_snapshot.h"

#include <algorithm>

#include "io/field_names.h"

namespace splotch {

bool column_matches(const std::string& label, int components, const std::string& name, const std::string& column_label,
                    int component) {
  const std::string l = lower_case(label), n = lower_case(name);
  if (components <= 1) {
    if (l == n) return true;
    return component < 0 && !column_label.empty() && gadget_block_label(label) == column_label;
  }
  // A vector: the components the label names (POS, Velocities), or name_x, name_y, name_z.
  if (component < 0) return false;
  if (!column_label.empty() && gadget_block_label(label) == column_label) return true;
  static const char* const axes[] = {"_x", "_y", "_z"};
  return n == l + axes[component];
}

std::vector<const Column*> ColumnType::find(const std::string& label, int components) const {
  std::vector<const Column*> found(std::size_t(std::max(components, 1)), nullptr);
  for (const Column& c : columns)
    if (column_matches(label, components, c.name, c.label, c.component)) {
      const std::size_t k = components <= 1 ? 0 : std::size_t(c.component);
      if (k < found.size() && !found[k]) found[k] = &c;
    }
  if (std::find(found.begin(), found.end(), nullptr) != found.end()) return {};
  return found;
}

std::string ColumnType::field_list() const {
  std::string s;
  for (const std::string& f : all_fields) s += (s.empty() ? "" : ", ") + f;
  if (!s.empty()) return s;
  for (const Column& c : columns) s += (s.empty() ? "" : ", ") + c.name;
  if (!id_name.empty()) s += (s.empty() ? "" : ", ") + id_name;
  return s.empty() ? "none" : s;
}

void ColumnType::drop_unread() {
  columns.erase(
      std::remove_if(columns.begin(), columns.end(), [&](const Column& c) { return c.values.size() != count; }),
      columns.end());
}

const ColumnType* ColumnSnapshot::type(int file_type) const {
  for (const ColumnType& t : types)
    if (t.file_type == file_type) return &t;
  return nullptr;
}

bool ColumnWanted::wants_type(int t) const {
  return all || types.empty() || std::find(types.begin(), types.end(), t) != types.end();
}

bool ColumnWanted::wants(const std::string& name, const std::string& label, int component) const {
  if (all) return true;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (column_matches(labels[i], components[i], name, label, component)) return true;
  return false;
}

}  // namespace splotch
