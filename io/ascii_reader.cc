#include "io/ascii_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "errors/user_error.h"
#include "io/field_names.h"

namespace splotch {
namespace {

constexpr int catalogue_columns = 39;

bool comment(const std::string& line) {
  const std::size_t a = line.find_first_not_of(" \t\r");
  return a == std::string::npos || line[a] == '#' || line[a] == '%' || line[a] == '!';
}

// The fields of a line: comma-separated where it has commas, else by white space.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  if (line.find(',') != std::string::npos) {
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, ',');) {
      const std::size_t a = f.find_first_not_of(" \t\r"), b = f.find_last_not_of(" \t\r");
      out.push_back(a == std::string::npos ? "" : f.substr(a, b - a + 1));
    }
    return out;
  }
  std::stringstream s(line);
  for (std::string f; s >> f;) out.push_back(f);
  return out;
}

// A number, Fortran's D exponent too; false for anything else.
bool number(std::string f, double& v) {
  for (char& c : f)
    if (c == 'D' || c == 'd') c = 'E';
  char* end = nullptr;
  v = std::strtod(f.c_str(), &end);
  return !f.empty() && end == f.c_str() + f.size();
}

struct Table {
  std::vector<std::string> names;
  std::size_t rows = 0;
  bool header_line = false;  // the first non-comment line holds the names
};

// The table's columns and rows; with `values`, each wanted column's values too.
// `head_only`: stop after the first row (the names and the columns are known by then).
Table scan(const std::string& path, std::vector<std::vector<float>>* values, const std::vector<bool>* wanted,
           const ProgressCallback& progress, bool head_only = false) {
  std::ifstream in(path);
  if (!in) throw UserError("cannot open '" + path + "'");
  in.seekg(0, std::ios::end);
  const double size = double(in.tellg());
  in.seekg(0);
  Table t;
  std::string line, last_comment;
  std::size_t number_of_line = 0, columns = 0;
  while (std::getline(in, line)) {
    ++number_of_line;
    if (comment(line)) {
      if (line.find_first_not_of(" \t\r") != std::string::npos) last_comment = line;
      continue;
    }
    std::vector<std::string> f = fields_of(line);
    if (columns == 0) {  // the first row: names, or numbers (the names then from the comment before)
      double v;
      if (!number(f[0], v) || std::any_of(f.begin(), f.end(), [&](const std::string& x) { return !number(x, v); })) {
        if (std::all_of(f.begin(), f.end(), [&](const std::string& x) { return !x.empty() && !number(x, v); })) {
          t.names = f;
          t.header_line = true;
          columns = f.size();
          if (values) values->resize(columns);
          continue;
        }
      }
      columns = f.size();
      if (!t.header_line) {
        std::string c = last_comment;
        c.erase(0, c.find_first_not_of(" \t#%!"));
        std::vector<std::string> named = fields_of(c);
        if (named.size() == columns) t.names = named;
      }
      if (t.names.empty())
        for (std::size_t k = 0; k < columns; ++k) t.names.push_back("col" + std::to_string(k + 1));
      if (values) values->resize(columns);
    }
    if (f.size() != columns)
      throw UserError("'" + path + "' line " + std::to_string(number_of_line) + ": " + std::to_string(f.size()) +
                      " values where the table has " + std::to_string(columns) +
                      " columns (a row of another table, or a value with a space in it?)");
    if (values)
      for (std::size_t k = 0; k < columns; ++k) {
        if (!(*wanted)[k]) continue;
        double v;
        if (!number(f[k], v))
          throw UserError("'" + path + "' line " + std::to_string(number_of_line) + ", column " +
                          std::to_string(k + 1) + " (" + t.names[k] + "): '" + f[k] + "' is not a number");
        (*values)[k].push_back(float(v));
      }
    ++t.rows;
    if (head_only) return t;
    if (progress && t.rows % 100000 == 0 && size > 0) progress(double(in.tellg()) / size);
  }
  if (columns == 0) throw UserError("'" + path + "' holds no row of numbers: not a table");
  return t;
}

// Which column is each position and the smoothing lengths (the original's catalogue: 16, 17, 18).
struct Roles {
  std::size_t axis[3];
  std::size_t hsml;
  bool catalogue;
};

Roles roles_of(const Table& t, const AsciiLayout& layout, const std::string& path) {
  Roles r{};
  r.catalogue = layout.x.empty();
  if (r.catalogue) {
    if (t.names.size() != catalogue_columns)
      throw UserError("'" + path + "' has " + std::to_string(t.names.size()) +
                      " columns and no key x names the positions' (the original's catalogue has 39): give x, y, z " +
                      "(column numbers from 1, or the header's names)");
    r.axis[0] = 15, r.axis[1] = 16, r.axis[2] = 17;
  } else {
    r.axis[0] = table_column(layout.x, t.names, path, "x");
    r.axis[1] = table_column(layout.y, t.names, path, "y");
    r.axis[2] = table_column(layout.z, t.names, path, "z");
  }
  r.hsml = table_column(layout.hsml, t.names, path, "r");
  return r;
}

ColumnSnapshot assemble(const std::string& path, const Table& t, const Roles& roles,
                        std::vector<std::vector<float>>* values) {
  ColumnSnapshot s;
  s.path = path;
  s.description = "ASCII table (" + std::to_string(t.rows) + " rows of " + std::to_string(t.names.size()) + " columns" +
                  (roles.catalogue ? ", the original's catalogue" : "") + ")";
  s.units.code = "ASCII";
  ColumnType type;
  type.file_type = 0;
  type.name = "rows";
  type.count = t.rows;
  std::vector<std::string> names = t.names;
  if (roles.catalogue) {
    const char* mags[] = {"gDES", "rDES", "iDES", "zDES"};
    const std::size_t at[] = {28, 30, 32, 34};
    for (int k = 0; k < 4; ++k) names[at[k]] = mags[k];
  }
  for (std::size_t c = 0; c < names.size(); ++c) {
    Column col;
    col.name = names[c];
    col.type = "text";
    for (int d = 0; d < 3; ++d)
      if (roles.axis[d] == c) col.label = "POS", col.component = d;
    if (col.label.empty()) col.label = c == roles.hsml ? "HSML" : table_column_label(names[c]);
    type.all_fields.push_back(col.name);
    if (values) {
      if ((*values)[c].size() != t.rows) continue;  // (not read)
      col.values.assign((*values)[c].begin(), (*values)[c].end());
      std::vector<float>().swap((*values)[c]);
    }
    type.columns.push_back(std::move(col));
  }
  if (roles.catalogue) {  // the original's colours: g - r, g - i, g - z
    const char* colours[] = {"gDES-rDES", "gDES-iDES", "gDES-zDES"};
    const std::size_t other[] = {30, 32, 34};
    for (int k = 0; k < 3; ++k) {
      Column col;
      col.name = colours[k];
      col.type = "derived";
      type.all_fields.push_back(col.name);
      if (values) {
        const std::vector<const Column*> g = type.find("gDES", 1), o = type.find(names[other[k]], 1);
        if (g.empty() || o.empty()) continue;
        col.values.resize(t.rows);
        for (std::size_t i = 0; i < t.rows; ++i) col.values[i] = g[0]->values[i] - o[0]->values[i];
      }
      type.columns.push_back(std::move(col));
    }
  }
  s.types.push_back(std::move(type));
  return s;
}

}  // namespace

std::size_t table_column(const std::string& spec, const std::vector<std::string>& names, const std::string& path,
                         const char* key) {
  if (spec.empty()) return std::string::npos;
  char* end = nullptr;
  const long k = std::strtol(spec.c_str(), &end, 10);
  if (end != spec.c_str() && *end == '\0') {
    if (k < 1 || std::size_t(k) > names.size())
      throw UserError(std::string(key) + " = " + spec + ": '" + path + "' has columns 1 to " +
                      std::to_string(names.size()));
    return std::size_t(k - 1);
  }
  for (std::size_t c = 0; c < names.size(); ++c)
    if (lower_case(names[c]) == lower_case(spec)) return c;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw UserError(std::string(key) + " = " + spec + ": '" + path + "' has no column of that name (it has: " + list +
                  "; or give a column number from 1)");
}

std::string table_column_label(const std::string& name) {
  const std::string block = gadget_block_label(name);
  if (lower_case(name) == "h" || lower_case(name) == "smoothing_length" || lower_case(block) == "hsml") return "HSML";
  if (lower_case(name) == "m") return "MASS";
  return block != name ? block : "";
}

std::vector<std::string> ascii_column_names(const std::string& path) {
  return scan(path, nullptr, nullptr, {}, true).names;
}

std::string catalogue_quantity(int k) {
  static const char* const q[] = {"gDES", "rDES", "iDES", "zDES", "", "gDES-rDES", "gDES-iDES", "gDES-zDES"};
  return k >= 0 && k < 8 ? q[k] : "";
}

ColumnSnapshot ascii_outline(const std::string& path, const AsciiLayout& layout) {
  const Table t = scan(path, nullptr, nullptr, {});
  return assemble(path, t, roles_of(t, layout, path), nullptr);
}

ColumnSnapshot load_ascii(const std::string& path, const AsciiLayout& layout, const ColumnWanted& wanted,
                          const ProgressCallback& progress) {
  // The names and columns first, from the head; then the one pass over the rows.
  const Table head = scan(path, nullptr, nullptr, {}, true);
  const Roles roles = roles_of(head, layout, path);
  const ColumnSnapshot outline = assemble(path, head, roles, nullptr);
  std::vector<bool> take(head.names.size(), false);
  const ColumnType& type = outline.types[0];
  for (std::size_t c = 0; c < head.names.size(); ++c) {
    const Column& col = type.columns[c];
    take[c] = col.label == "POS" || wanted.wants(col.name, col.label, col.component);
  }
  if (roles.catalogue)
    for (int k = 0; k < 3; ++k)
      if (wanted.all || wanted.wants(catalogue_quantity(5 + k), "", -1))
        take[28] = take[std::size_t(30 + 2 * k)] = true;
  std::vector<std::vector<float>> values;
  const Table t = scan(path, &values, &take, progress);
  return assemble(path, t, roles, &values);
}

}  // namespace splotch
