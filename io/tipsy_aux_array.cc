#include "io/tipsy_aux_array.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "errors/user_error.h"
#include "io/byte_order.h"

namespace splotch {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The whitespace-separated words of a text file, read a piece at a time, with the line of each.
class Words {
 public:
  explicit Words(const InputFile& file) : file_(file) {}

  // The next word (valid until the next call), or false at the end of the file.
  bool next(std::string_view& word) {
    for (;;) {
      while (at_ < text_.size() && is_space(text_[at_])) {
        if (text_[at_] == '\n') ++line_;
        ++at_;
      }
      std::size_t end = at_;
      while (end < text_.size() && !is_space(text_[end])) ++end;
      const bool all_read = read_ == file_.size();
      if (end < text_.size() || (all_read && end > at_)) {
        word = std::string_view(text_.data() + at_, end - at_);
        at_ = end;
        return true;
      }
      if (all_read) return false;
      // A word may go on in the next piece: keep it, drop what is done.
      if (end - at_ > longest_word)
        throw UserError("auxiliary array '" + file_.path() + "' line " + std::to_string(line_) + ": more than " +
                        std::to_string(longest_word) + " characters without a space, which is no text array");
      text_.erase(0, at_);
      at_ = 0;
      fill();
    }
  }
  std::size_t line() const { return line_; }

 private:
  static constexpr std::size_t piece = std::size_t(1) << 20, longest_word = 4096;

  void fill() {
    const std::size_t n = std::min(piece, file_.size() - read_), old = text_.size();
    text_.resize(old + n);
    file_.read_at(&text_[old], n, read_);
    read_ += n;
  }

  const InputFile& file_;
  std::string text_;
  std::size_t at_ = 0, read_ = 0, line_ = 1;
};

bool parse_count(std::string_view word, std::uint64_t& n) {
  const auto r = std::from_chars(word.data(), word.data() + word.size(), n);
  return r.ec == std::errc() && r.ptr == word.data() + word.size();
}

}  // namespace

TipsyAuxArray::TipsyAuxArray(const std::string& path, std::uint64_t particles, bool swapped)
    : file_(path), particles_(particles) {
  const std::size_t size = file_.size();
  auto fail = [&](const std::string& why) { throw UserError("auxiliary array '" + path + "': " + why); };
  if (size == 0) fail("the file is empty");
  std::optional<bool> count_order;  // the byte order in which a binary count equals `particles`
  if (size >= 4) {
    unsigned char start[4];
    file_.read_at(start, 4, 0);
    for (bool swap : {swapped, !swapped}) {
      const std::uint64_t n = load<std::uint32_t>(start, swap);
      for (int bytes : {4, 8})
        if (n == particles && size == 4 + n * std::uint64_t(bytes)) {
          binary_ = true;
          swapped_ = swap;
          value_bytes_ = bytes;
          return;
        }
      if (n == 3 * particles && size == 4 + 4 * n)
        fail("a binary array of 3 values per particle (a vector); only one value per particle can be read");
      if (n == particles && !count_order) count_order = swap;
    }
  }

  Words words(file_);
  std::string_view first;
  std::uint64_t count = 0;
  if (words.next(first) && parse_count(first, count)) {
    if (count != particles)
      fail("its first line gives the count " + std::to_string(count) + ", but the snapshot has " +
           std::to_string(particles) + " particles");
    return;
  }
  if (count_order)
    fail("it starts with the count " + std::to_string(particles) + " of a binary array but is " + std::to_string(size) +
         " bytes, not 4 + 4 x " + std::to_string(particles) + " (float) or 4 + 8 x " + std::to_string(particles) +
         " (double): truncated?");
  fail("neither an ASCII array (the particle count, " + std::to_string(particles) +
       ", on the first line, then a value per line) nor a binary one (a 4-byte count, then float values)");
}

TipsyRecords TipsyAuxArray::records(std::uint64_t from) const {
  return {&file_, 4 + std::size_t(from) * std::size_t(value_bytes_), std::size_t(value_bytes_), swapped_};
}

void TipsyAuxArray::read_text(std::uint64_t first, std::size_t count, float* out, float factor) const {
  if (count == 0) return;
  Words words(file_);
  std::string_view word;
  words.next(word);  // the count, checked when opened
  const std::uint64_t end = first + count;
  for (std::uint64_t v = 0; v < end; ++v) {
    if (!words.next(word))
      throw UserError("auxiliary array '" + path() + "' ends after " + std::to_string(v) +
                      " values, but its count is " + std::to_string(particles_));
    if (v < first) continue;
    // from_chars takes no '+'; doubles, so that values beyond the float range become inf or 0.
    const char* begin = word.data() + (word[0] == '+' && word.size() > 1 ? 1 : 0);
    const char* stop = word.data() + word.size();
    double value = 0;
    const auto r = std::from_chars(begin, stop, value);
    if (r.ec != std::errc() || r.ptr != stop)
      throw UserError("auxiliary array '" + path() + "' line " + std::to_string(words.line()) + ": '" +
                      std::string(word.substr(0, 40)) + "' is not a number");
    out[v - first] = float(value) * factor;
  }
}

}  // namespace splotch
