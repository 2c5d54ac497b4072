#include "io/palette.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "errors/user_error.h"
#include "io/file_start.h"

namespace splotch {
namespace {

// The original Splotch's own palettes use 256 for full intensity; anything beyond is a typo.
constexpr float kMaxComponent = 256.0f;
constexpr float kComponentScale = 255.0f;  // 255 -> 1.0, as the original divides

std::string_view trim(std::string_view text) {
  const char* blanks = " \t\r\f\v";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(blanks);
  return text.substr(first, last - first + 1);
}

// Reads a palette line by line, dropping the '\r' of Windows line ends and counting lines so that
// every error can say where it is.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path) {
    errno = 0;
    in_.open(path);
    if (!in_) { throw UserError("cannot open palette '" + path + "': " + reason()); }
  }

  bool next(std::string& line) {
    if (!std::getline(in_, line)) {
      // A directory opens fine on Linux and only fails here, with errno = EISDIR.
      if (in_.bad()) throw UserError("cannot read palette '" + path_ + "': " + reason());
      return false;
    }
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  // The next line, which the header must have; `what` says what belongs there.
  std::string require(const std::string& what) {
    std::string line;
    if (next(line)) return line;
    const std::string state =
        number_ == 0 ? "the file is empty" : "the file ends after line " + std::to_string(number_);
    throw UserError("palette '" + path_ + "': " + state + "; expected " + what + " on line " +
                    std::to_string(number_ + 1));
  }

  // "palette 'x.pal' line 7", the prefix of every error about the current line.
  std::string where() const { return "palette '" + path_ + "' line " + std::to_string(number_); }

 private:
  static std::string reason() { return errno != 0 ? std::strerror(errno) : "unknown error"; }

  std::string path_;
  std::ifstream in_;
  int number_ = 0;
};

int parse_count(std::string_view text, const std::string& where) {
  int count = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, count);
  if (error != std::errc() || stop != end || count < 1) {
    throw UserError(where + ": the count '" + std::string(text) +
                    "' is not a positive integer (line 3 of a .pal file is the number of colours)");
  }
  return count;
}

// from_chars rather than strtof: the decimal point must not depend on the user's locale.
bool parse_number(const std::string& token, float& value) {
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value);
  return error == std::errc() && stop == end && std::isfinite(value);
}

void check_range(float value, const std::string& token, const std::string& where) {
  if (value < 0.0f || value > kMaxComponent) {
    throw UserError(where + ": the value '" + token + "' is outside 0..256 (R G B are 0..255)");
  }
}

Rgb parse_entry(std::string_view text, const std::string& where) {
  std::istringstream fields{std::string(text)};
  std::string tokens[3], extra;
  float values[3] = {};
  bool ok = static_cast<bool>(fields >> tokens[0] >> tokens[1] >> tokens[2]) && !(fields >> extra);
  for (int i = 0; ok && i < 3; ++i) ok = parse_number(tokens[i], values[i]);
  if (!ok) { throw UserError(where + ": expected three numbers R G B, got '" + std::string(text) + "'"); }
  for (int i = 0; i < 3; ++i) check_range(values[i], tokens[i], where);
  return {values[0] / kComponentScale, values[1] / kComponentScale, values[2] / kComponentScale};
}

// Every non-blank line after the header is a colour; blank lines (trailing ones, or a gap an
// editor left) carry nothing, and the original, reading with >>, skips them too.
std::vector<Rgb> read_entries(LineReader& lines) {
  std::vector<Rgb> colours;
  std::string line;
  while (lines.next(line)) {
    const std::string_view text = trim(line);
    if (!text.empty()) colours.push_back(parse_entry(text, lines.where()));
  }
  return colours;
}

}  // namespace

Palette::Palette(std::string name, std::vector<Rgb> colours) : name_(std::move(name)), padded_(std::move(colours)) {
  if (padded_.empty()) { throw std::invalid_argument("Palette '" + name_ + "' needs at least one colour"); }
  scale_ = static_cast<float>(padded_.size() - 1);
  padded_.push_back(padded_.back());
}

namespace {

// A binary file (a snapshot, an image, a program) named as a palette: said whole, rather than as
// the bytes of its third line.
void refuse_binary(const std::string& path) {
  if (looks_binary(file_start(path)))
    throw UserError("palette '" + path +
                    "' is a binary file, not a palette: a .pal file is text, a name line, a version line (0100), "
                    "the number of colours, then a line 'R G B' (0 to 255) for each; or name one of the project's "
                    "palettes (fire, ice, temperature, bluered, grey)");
}

}  // namespace

Palette Palette::read(const std::string& path) {
  LineReader lines(path);
  refuse_binary(path);
  std::string name(trim(lines.require("the palette's name")));
  lines.require("a version token such as '0100'");  // not checked: the original skips it too
  // Two statements: where() must see the line number after require() has read the count.
  const std::string count_line = lines.require("the number of colours");
  const int count = parse_count(trim(count_line), lines.where());
  std::vector<Rgb> colours = read_entries(lines);
  if (colours.size() != static_cast<std::size_t>(count)) {
    throw UserError("palette '" + path + "': the header says " + std::to_string(count) + " colours but the file has " +
                    std::to_string(colours.size()) + "; correct the count on line 3 or the list of colours");
  }
  return Palette(std::move(name), std::move(colours));
}

}  // namespace splotch
