#include "io/visivo_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/field_names.h"
#include "io/input_file.h"

namespace splotch {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trimmed(std::string s) {
  const std::size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The header's and the binary's paths for `path` (either of them).
std::pair<std::string, std::string> paths_of(const std::string& path) {
  if (ends_with(path, ".bin.head")) return {path.substr(0, path.size() - 5), path};
  if (ends_with(path, ".head")) return {path.substr(0, path.size() - 5), path};
  return {path, path + ".head"};
}

// The positions' columns: the keys x, y, z, else the columns named x, y, z (or x_coordinate, ...).
std::array<std::size_t, 3> axes_of(const VisivoHeader& h, const AsciiLayout& layout) {
  std::array<std::size_t, 3> axis{};
  const char* const keys[] = {"x", "y", "z"};
  const std::string* given[] = {&layout.x, &layout.y, &layout.z};
  for (int d = 0; d < 3; ++d) {
    if (!given[d]->empty()) {
      axis[std::size_t(d)] = table_column(*given[d], h.names, h.head_path, keys[d]);
      continue;
    }
    axis[std::size_t(d)] = std::string::npos;
    for (std::size_t c = 0; c < h.names.size(); ++c) {
      const std::string n = lower_case(h.names[c]);
      if (n == keys[d] || n == std::string(keys[d]) + "_coordinate" || n == std::string("pos") + keys[d])
        axis[std::size_t(d)] = c;
    }
    if (axis[std::size_t(d)] == std::string::npos) {
      std::string list;
      for (const std::string& n : h.names) list += (list.empty() ? "" : ", ") + n;
      throw UserError("'" + h.head_path + "' names no column " + keys[d] + " (its columns: " + list +
                      "): give x, y, z (column numbers from 1, or these names)");
    }
  }
  return axis;
}

ColumnSnapshot assemble(const VisivoHeader& h, const AsciiLayout& layout) {
  ColumnSnapshot s;
  s.path = h.bin_path;
  char size[96];
  std::snprintf(size, sizeof size, "%lld x %lld x %lld cells of %g x %g x %g", h.cells[0], h.cells[1], h.cells[2],
                h.cell_size[0], h.cell_size[1], h.cell_size[2]);
  s.description = "VisIVO " + std::string(h.volume ? "volume" : "table") + " (" + std::to_string(h.rows) + " rows of " +
                  std::to_string(h.names.size()) + " columns, " + (h.doubles ? "double" : "float") + ", " +
                  (h.big_endian ? "big" : "little") + "-endian" + (h.volume ? ", " + std::string(size) : "") + ")";
  s.units.code = "VisIVO";
  ColumnType t;
  t.file_type = 0;
  t.name = h.volume ? "cells" : "rows";
  t.count = std::size_t(h.rows);
  const std::size_t hsml = table_column(layout.hsml, h.names, h.head_path, "r");
  std::array<std::size_t, 3> axis{std::string::npos, std::string::npos, std::string::npos};
  if (h.volume) {
    for (int d = 0; d < 3; ++d) {
      Column c;
      c.name = std::string("position_") + "xyz"[d];
      c.label = "POS";
      c.component = d;
      c.type = "float64";
      t.columns.push_back(c);
    }
    Column side;
    side.name = "smoothing_length";
    side.label = "HSML";
    side.type = "float64";
    t.columns.push_back(side);
    side.name = "cell_size";
    side.label.clear();
    t.columns.push_back(side);
  } else {
    axis = axes_of(h, layout);
  }
  for (std::size_t k = 0; k < h.names.size(); ++k) {
    Column c;
    c.name = h.names[k];
    c.type = h.doubles ? "float64" : "float32";
    for (int d = 0; d < 3; ++d)
      if (axis[std::size_t(d)] == k) c.label = "POS", c.component = d;
    if (c.label.empty()) c.label = k == hsml ? "HSML" : table_column_label(c.name);
    t.columns.push_back(c);
  }
  for (const Column& c : t.columns) t.all_fields.push_back(c.name);
  s.types.push_back(t);
  return s;
}

}  // namespace

VisivoHeader read_visivo_header(const std::string& path) {
  VisivoHeader h;
  std::tie(h.bin_path, h.head_path) = paths_of(path);
  std::ifstream in(h.head_path);
  if (!in)
    throw UserError("cannot open '" + h.head_path + "', the header of the VisIVO table '" + h.bin_path +
                    "': a VisIVO Binary Table is NAME.bin and its header NAME.bin.head, side by side");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line) && lines.size() < 1000000;)
    if (!trimmed(line).empty()) lines.push_back(trimmed(line));
  auto bad = [&](std::size_t line, const std::string& why) {
    return UserError("'" + h.head_path + "', line " + std::to_string(line + 1) + " ('" +
                     (line < lines.size() ? lines[line] : std::string()) + "'): " + why +
                     " (a VisIVO header: float or double, the columns, the rows, little or big, the names)");
  };
  if (lines.size() < 4) throw bad(lines.size(), "the header ends early");
  const std::string type = lower_case(lines[0]);
  if (type == "float" || type == "f")
    h.doubles = false;
  else if (type == "double" || type == "d")
    h.doubles = true;
  else
    throw bad(0, "not a type");
  char* end = nullptr;
  const long long columns = std::strtoll(lines[1].c_str(), &end, 10);
  if (end == lines[1].c_str() || *end != '\0' || columns < 1 || columns > 100000)
    throw bad(1, "not a number of columns");
  std::istringstream rows(lines[2]);
  long long n = -1;
  if (!(rows >> n) || n < 0) throw bad(2, "not a number of rows");
  h.rows = std::uint64_t(n);
  long long cells[3];
  double sizes[3];
  if (rows >> cells[0]) {  // a volume: its cells along x, y, z and their sizes
    if (!(rows >> cells[1] >> cells[2] >> sizes[0] >> sizes[1] >> sizes[2]) || cells[0] < 1 || cells[1] < 1 ||
        cells[2] < 1 || !(sizes[0] > 0 && sizes[1] > 0 && sizes[2] > 0))
      throw bad(2, "not the rows, the cells along x, y, z and their sizes of a volume");
    if ((unsigned __int128)(cells[0]) * (unsigned __int128)(cells[1]) * (unsigned __int128)(cells[2]) != h.rows)
      throw bad(2, "the volume's cells do not multiply to its rows");
    h.volume = true;
    std::copy(cells, cells + 3, h.cells);
    std::copy(sizes, sizes + 3, h.cell_size);
  }
  const std::string order = lower_case(lines[3]);
  if (order == "little" || order == "l")
    h.big_endian = false;
  else if (order == "big" || order == "b")
    h.big_endian = true;
  else
    throw bad(3, "not little or big");
  if (lines.size() < 4 + std::size_t(columns))
    throw bad(lines.size(), "the header names " + std::to_string(lines.size() - 4) + " of its " +
                                std::to_string(columns) + " columns");
  h.names.assign(lines.begin() + 4, lines.begin() + 4 + columns);
  return h;
}

bool is_visivo_table(const std::string& path) {
  const auto [bin, head] = paths_of(path);
  if (!is_file(head) || !is_file(bin)) return false;
  std::ifstream in(head);
  std::string first;
  if (!std::getline(in, first)) return false;
  const std::string t = lower_case(trimmed(first));
  return t == "float" || t == "double";
}

ColumnSnapshot visivo_outline(const std::string& path, const AsciiLayout& layout) {
  return assemble(read_visivo_header(path), layout);
}

ColumnSnapshot load_visivo(const std::string& path, const AsciiLayout& layout, const ColumnWanted& wanted,
                           const ProgressCallback& progress) {
  const VisivoHeader h = read_visivo_header(path);
  ColumnSnapshot s = assemble(h, layout);
  ColumnType& t = s.types[0];
  const std::size_t bytes = h.doubles ? 8 : 4;
  const InputFile f(h.bin_path);
  const unsigned __int128 need = (unsigned __int128)(h.rows) * h.names.size() * bytes;
  if (need != f.size())
    throw UserError("'" + h.bin_path + "' holds " + std::to_string(f.size()) + " bytes, and its header's " +
                    std::to_string(h.names.size()) + " columns of " + std::to_string(h.rows) + " " +
                    (h.doubles ? "doubles" : "floats") + " need " + std::to_string(std::uint64_t(need)) +
                    (need > f.size() ? ": the file is truncated" : ": the header is not this file's"));
  const bool swap = h.big_endian != host_is_big_endian;
  const std::size_t first_field = h.volume ? 5 : 0;  // (a volume's positions and sizes come first)
  const std::size_t n = std::size_t(h.rows);
  std::size_t wanted_columns = 0, done = 0;
  for (const Column& c : t.columns) wanted_columns += c.label == "POS" || wanted.wants(c.name, c.label, c.component);
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    Column& c = t.columns[k];
    if (!(c.label == "POS" || wanted.wants(c.name, c.label, c.component))) continue;
    c.values.resize(n);
    if (k < first_field) {  // a volume's cell centres (x fastest) and sides
      const double side = std::max({h.cell_size[0], h.cell_size[1], h.cell_size[2]});
      const std::size_t nx = std::size_t(h.cells[0]), ny = std::size_t(h.cells[1]);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t index[3] = {i % nx, (i / nx) % ny, i / (nx * ny)};
        c.values[i] = k < 3 ? float((double(index[k]) + 0.5) * h.cell_size[k]) : float(side);
      }
    } else {
      const std::size_t column = k - first_field;
      const std::size_t step = std::size_t(1) << 20;
      std::vector<unsigned char> buffer(std::min(n, step) * bytes);
      for (std::size_t at = 0; at < n; at += step) {
        const std::size_t m = std::min(step, n - at);
        f.read_at(buffer.data(), m * bytes, (column * n + at) * bytes);
        for (std::size_t i = 0; i < m; ++i)
          c.values[at + i] =
              h.doubles ? float(load<double>(buffer.data() + i * 8, swap)) : load<float>(buffer.data() + i * 4, swap);
      }
    }
    if (progress) progress(double(++done) / double(std::max<std::size_t>(wanted_columns, 1)));
  }
  t.drop_unread();
  return s;
}

}  // namespace splotch
