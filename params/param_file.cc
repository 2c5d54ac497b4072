#include "params/param_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "errors/user_error.h"

namespace splotch {
namespace {

std::string trim(const std::string& s) {
  const char* space = " \t\r\n\v\f";
  std::size_t b = s.find_first_not_of(space);
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(space);
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "key = value # comment" -> key, value; false for a line with no '='.
bool split_assignment(const std::string& line, std::string& key, std::string& value) {
  std::size_t eq = line.find('=');
  if (eq == std::string::npos) return false;
  key = trim(line.substr(0, eq));
  value = trim(line.substr(eq + 1));
  return true;
}

std::string format_value(bool v) { return v ? "TRUE" : "FALSE"; }
std::string format_value(int v) { return std::to_string(v); }
std::string format_value(long long v) { return std::to_string(v); }
std::string format_value(const std::string& v) { return v; }
// Shortest text that reads back as the same number, so used.par reproduces the run exactly.
template <class F>
std::string format_real(F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}
std::string format_value(float v) { return format_real(v); }
std::string format_value(double v) { return format_real(v); }

}  // namespace

bool parse_bool(const std::string& text, const std::string& what) {
  // The original accepts t/f, y/n, true/false and .true./.false.; we add yes/no and 1/0.
  const std::string v = lower(trim(text));
  if (v == "true" || v == "t" || v == "yes" || v == "y" || v == "1" || v == ".true.") return true;
  if (v == "false" || v == "f" || v == "no" || v == "n" || v == "0" || v == ".false.") return false;
  throw UserError(what + " = '" + text + "' is not a boolean (use TRUE or FALSE)");
}

long long parse_integer(const std::string& text, const std::string& what) {
  std::string v = trim(text);
  const char* begin = v.c_str();
  if (begin[0] == '+' && begin[1] != '-') ++begin;
  long long out = 0;
  auto res = std::from_chars(begin, v.c_str() + v.size(), out);
  if (v.empty() || res.ec != std::errc() || res.ptr != v.c_str() + v.size()) {
    if (res.ec == std::errc::result_out_of_range)
      throw UserError(what + " = '" + text + "' is out of range for an integer");
    throw UserError(what + " = '" + text + "' is not an integer");
  }
  return out;
}

double parse_real(const std::string& text, const std::string& what) {
  std::string v = trim(text);
  if (v.empty()) throw UserError(what + " has an empty value; a number is needed");
  errno = 0;
  char* end = nullptr;
  double out = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size()) throw UserError(what + " = '" + text + "' is not a number");
  if (errno == ERANGE && std::isinf(out)) throw UserError(what + " = '" + text + "' is out of range for a number");
  if (std::isnan(out)) throw UserError(what + " = '" + text + "' is not a number");
  return out;
}

ParamFile ParamFile::parse(const std::string& text, const std::string& name) {
  ParamFile p;
  p.name_ = name;
  // A UTF-8 byte-order mark (some Windows editors write one) is no part of the first key.
  const bool bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0;
  std::istringstream in(bom ? text.substr(3) : text);
  std::string line;
  int lines_without_assignment = 0;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty()) continue;
    const std::string where = name + ":" + std::to_string(lineno);
    std::string key, value;
    if (!split_assignment(line, key, value)) {
      // Said for the first few lines; a text that is mostly something else is not a parameter file.
      constexpr int said = 10;
      p.lines_without_assignment_ = ++lines_without_assignment;
      if (lines_without_assignment <= said)
        p.warnings_.push_back(where + ": line '" + line + "' has no '=' and is ignored");
      else if (lines_without_assignment == said + 1)
        p.warnings_.push_back(name + ": more lines without '=' follow, also ignored");
      continue;
    }
    if (key.empty()) throw UserError(where + ": no key before '=' in '" + line + "'");
    auto it = p.entries_.find(key);
    if (it != p.entries_.end())
      p.warnings_.push_back(where + ": " + key + " is set again (first at " + it->second.origin +
                            "); the last value, '" + value + "', is used");
    p.entries_[key] = Entry{value, where, false};
  }
  return p;
}

ParamFile ParamFile::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError("cannot open parameter file '" + path + "': " + std::strerror(errno));
  // A parameter file is a page or two of text: a device or a large file given by mistake is read
  // no further than this.
  constexpr std::size_t max_bytes = std::size_t(1) << 20;
  std::string text(max_bytes + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  if (in.bad()) throw UserError("cannot read parameter file '" + path + "'");
  text.resize(std::size_t(in.gcount()));
  // The first byte that is not text is said once, escaped, with its line.
  int line = 1;
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') ++line;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", unsigned(c));
      throw UserError(path + ":" + std::to_string(line) + ": byte " + hex +
                      " is not text: is this the file you "
                      "meant? (a parameter file is key = value lines)");
    }
  }
  if (text.size() > max_bytes)
    throw UserError("'" + path +
                    "' is larger than 1 MiB, which no parameter file is: is it the file you meant? (a "
                    "parameter file is key = value lines)");
  ParamFile p = parse(text, path);
  // A text of a few keys among many other lines (a README, notes) is not meant as a parameter file:
  // said at once, rather than as dozens of warnings and then what its stray keys lack.
  if (!p.entries_.empty() && p.lines_without_assignment_ >= 10 &&
      std::size_t(p.lines_without_assignment_) > 2 * p.entries_.size())
    throw UserError("'" + path + "' is mostly lines that are no key = value (" +
                    std::to_string(p.lines_without_assignment_) + ", and " + std::to_string(p.entries_.size()) +
                    " keys): is it the file you meant? (" + p.warnings_.front() + ")");
  if (p.entries_.empty() && !p.warnings_.empty()) {
    // Rows of numbers: a table, which a parameter file of simtype 15 reads.
    std::size_t start = text.find_first_not_of(" \t\r\n");
    while (start != std::string::npos && (text[start] == '#' || text[start] == '%')) {
      const std::size_t end = text.find('\n', start);
      start = end == std::string::npos ? end : text.find_first_not_of(" \t\r\n", end);
    }
    const std::string first = start == std::string::npos ? "" : text.substr(start, text.find('\n', start) - start);
    char* end = nullptr;
    std::strtod(first.c_str(), &end);
    if (!first.empty() && end != first.c_str())
      throw UserError("'" + path + "' is rows of numbers, a table and no parameter file: read it with a parameter " +
                      "file of simtype = 15, infile = " + path + ", and x = 1, y = 2, z = 3 (its columns of the " +
                      "positions; docs/parameters.md, ASCII tables)");
    throw UserError("'" + path + "' holds no key = value line: is it the file you meant? (" + p.warnings_.front() +
                    ")");
  }
  return p;
}

void ParamFile::set_from_command_line(const std::string& assignment) {
  std::string key, value;
  if (!split_assignment(assignment, key, value) || key.empty())
    throw UserError("command-line argument '" + assignment + "' is not of the form key=value");
  const auto given = entries_.find(key);
  if (given != entries_.end() && given->second.origin == "command line")
    warnings_.push_back("command line: " + key + " is given twice ('" + given->second.value + "', then '" + value +
                        "'); the last, '" + value + "', is used");
  set(key, value, "command line");
}

void ParamFile::set(const std::string& key, const std::string& value, const std::string& origin) {
  entries_[key] = Entry{value, origin, false};
  // Looked up before (a scene's keys, before its rows set theirs): used.par records this value,
  // where it recorded the one before.
  auto it = use_index_.find(key);
  if (it != use_index_.end()) {
    Use& u = uses_[it->second];
    u.value = value;
    u.is_default = false;
    u.note.clear();
  }
}

std::string ParamFile::origin(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? "default" : it->second.origin;
}

const std::string* ParamFile::lookup(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  it->second.used = true;
  return &it->second.value;
}

void ParamFile::record(const std::string& key, const std::string& value, bool is_default) {
  auto it = use_index_.find(key);
  if (it != use_index_.end()) {  // the first look-up decides what used.par says
    lookups_.push_back(it->second);
    return;
  }
  use_index_[key] = uses_.size();
  lookups_.push_back(uses_.size());
  uses_.push_back(Use{key, value, is_default, "", true});
}

std::string ParamFile::looked_up_since(std::size_t mark) const {
  std::vector<bool> listed(uses_.size(), false);
  std::string out;
  for (std::size_t i = mark; i < lookups_.size(); ++i) {
    const std::size_t u = lookups_[i];
    if (listed[u]) continue;
    listed[u] = true;
    out += uses_[u].key + " = " + uses_[u].value + "\n";
  }
  return out;
}

template <class T>
T ParamFile::convert(const std::string& key, const std::string& text) const {
  const std::string what = origin(key) + ": " + key;
  if constexpr (std::is_same_v<T, std::string>) {
    return text;
  } else if constexpr (std::is_same_v<T, bool>) {
    return parse_bool(text, what);
  } else if constexpr (std::is_integral_v<T>) {
    long long v = parse_integer(text, what);
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
      throw UserError(what + " = '" + text + "' is out of range for an integer");
    return T(v);
  } else {
    double v = parse_real(text, what);
    if (std::is_same_v<T, float> && std::isinf(float(v)))
      throw UserError(what + " = '" + text + "' is out of range for a single-precision number");
    return T(v);
  }
}

template <class T>
T ParamFile::get(const std::string& key) {
  const std::string* text = lookup(key);
  if (!text) throw UserError(name_ + ": required parameter '" + key + "' is missing" + typo_hint(key));
  T v = convert<T>(key, *text);
  record(key, *text, false);
  return v;
}

template <class T>
T ParamFile::get(const std::string& key, const T& fallback) {
  const std::string* text = lookup(key);
  if (!text) {
    record(key, format_value(fallback), true);
    return fallback;
  }
  T v = fallback;
  try {
    v = convert<T>(key, *text);
  } catch (const UserError& e) {
    reject(e.what());  // gathering: the fallback stands in, and the run ends after the reading
  }
  record(key, *text, false);
  return v;
}

void ParamFile::reject(const std::string& problem) {
  if (!gathering_) throw UserError(problem);
  if (std::find(problems_.begin(), problems_.end(), problem) == problems_.end()) problems_.push_back(problem);
}

void ParamFile::end_gathering(bool throw_problems) {
  gathering_ = false;
  std::vector<std::string> problems;
  problems.swap(problems_);
  if (problems.empty() || !throw_problems) return;
  if (problems.size() == 1) throw UserError(problems[0]);
  // In the file's order: the problems of its lines first, by line, then the others (the command
  // line's, missing keys) as they came.
  auto line_of = [&](const std::string& problem) {
    const std::string head = name_ + ":";
    if (problem.compare(0, head.size(), head) != 0) return std::numeric_limits<long>::max();
    return std::strtol(problem.c_str() + head.size(), nullptr, 10);
  };
  std::stable_sort(problems.begin(), problems.end(),
                   [&](const std::string& a, const std::string& b) { return line_of(a) < line_of(b); });
  std::string text = std::to_string(problems.size()) + " problems with the parameters of " + name_ + ":";
  for (const std::string& p : problems) text += "\n  " + p;
  throw UserError(text);
}

void ParamFile::resolve(const std::string& key, const std::string& value, const std::string& note) {
  auto it = use_index_.find(key);
  if (it == use_index_.end()) {
    use_index_[key] = uses_.size();
    uses_.push_back(Use{key, value, false, note, true});
    return;
  }
  Use& u = uses_[it->second];
  if (u.value == value && !u.is_default) return;
  u.value = value;
  u.is_default = false;
  u.note = note;
  u.recorded = true;
}

void ParamFile::leave_out_of_record(const std::string& key) {
  auto it = use_index_.find(key);
  if (it != use_index_.end()) uses_[it->second].recorded = false;
}

std::string ParamFile::typo_hint(const std::string& key) const {
  for (const auto& [given, entry] : entries_)
    if (!entry.used && within_typo(given, key))
      return " (" + entry.origin + " gives " + given + ": a typo of " + key + "?)";
  return "";
}

int typo_edits(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = int(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = int(j);
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

bool within_typo(const std::string& typed, const std::string& meant) {
  if (typed == meant) return false;
  return typo_edits(typed, meant) <= (meant.size() >= 8 ? 2 : 1);  // (0: the case alone differs: Xres)
}

std::vector<std::string> ParamFile::unused_keys() const {
  std::vector<std::string> out;
  for (const auto& [key, entry] : entries_)
    if (!entry.used) out.push_back(key + " (" + entry.origin + ")");
  return out;
}

void ParamFile::write_used(std::ostream& out) const {
  out << "# Parameters used by this run of splotch, from " << name_ << ".\n"
      << "# Lines marked 'default' were not given; rendering this file reproduces the image.\n";
  for (const Use& u : uses_) {
    if (!u.recorded) continue;
    out << u.key << " = " << u.value;
    if (!u.note.empty())
      out << "  # " << u.note;
    else if (u.is_default)
      out << "  # default";
    out << '\n';
  }
}

#define SPLOTCH_PARAM_TYPE(T)                       \
  template T ParamFile::get<T>(const std::string&); \
  template T ParamFile::get<T>(const std::string&, const T&);
SPLOTCH_PARAM_TYPE(bool)
SPLOTCH_PARAM_TYPE(int)
SPLOTCH_PARAM_TYPE(long long)
SPLOTCH_PARAM_TYPE(float)
SPLOTCH_PARAM_TYPE(double)
SPLOTCH_PARAM_TYPE(std::string)
#undef SPLOTCH_PARAM_TYPE

}  // namespace splotch
