// ParamFile: the parameter file of the original Splotch (docs/design.md section 3) plus `key=value`
// overrides from the command line.
//
// Every look-up records the value it returned and whether that value was a default, so that the
// run can write `<image>.used.par` (the picture becomes reproducible) and warn about keys that no
// stage read (typos). A value that does not parse as the type a key needs is a UserError naming
// the file, the line, the key and the value.
//
//   ParamFile p = ParamFile::read("demo.par");
//   p.set_from_command_line("xres=1024");
//   int xres = p.get<int>("xres", 800);          // 1024, recorded as given
//   double fov = p.get<double>("fov", 45.0);      // recorded as a default if absent
//   std::string in = p.get<std::string>("infile");  // required: UserError if absent
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace splotch {

class ParamFile {
 public:
  // Parses the text of a parameter file; `name` is used in messages (normally the path).
  static ParamFile parse(const std::string& text, const std::string& name);
  static ParamFile read(const std::string& path);

  // Applies one "key=value" argument; it overrides the file.
  void set_from_command_line(const std::string& assignment);
  // Sets a key from another source (a scene-file row, say); `origin` appears in messages, and
  // used.par records the value set (also where the key was looked up before).
  void set(const std::string& key, const std::string& value, const std::string& origin);

  // Typed look-ups. T is bool, int, long long, float, double or std::string.
  template <class T>
  T get(const std::string& key);  // required: UserError when absent
  template <class T>
  T get(const std::string& key, const T& fallback);

  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  // The value as written ("" when absent), neither counted as used nor recorded: for a key whose
  // value is replaced before the reading that records it (an interpolated frame's fidx).
  std::string peek(const std::string& key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? "" : it->second.value;
  }
  // "demo.par:12", "command line" or "default": where a key's value came from.
  std::string origin(const std::string& key) const;
  const std::string& name() const { return name_; }
  // Messages a user should see (duplicate keys, lines without '='), in file order.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // One run lists every problem of a file: between begin_gathering() and end_gathering(), a value
  // that does not parse as its key's type is recorded and the look-up returns its fallback (a
  // required key still throws: nothing sensible could follow), and reject() records a problem that
  // a reader of the settings found. end_gathering() throws one UserError listing them all, each
  // with its file, line, key and value. Outside a gathering, reject() throws at once.
  void begin_gathering() {
    gathering_ = true;
    problems_.clear();
  }
  void reject(const std::string& problem);
  void end_gathering(bool throw_problems = true);  // false: after another failure, forget them

  // The record (used.par) says what the run used where that differs from what was looked up: a
  // path made absolute, a count read from a header, a camera placed from the data. `note` becomes
  // the line's comment. A key not looked up yet is added.
  void resolve(const std::string& key, const std::string& value, const std::string& note);
  // Leaves a looked-up key out of the record (the scene keys, in the record of one frame).
  void leave_out_of_record(const std::string& key);

  // Keys given (in the file or on the command line) that no look-up asked for.
  std::vector<std::string> unused_keys() const;
  // " (p.par:3 gives palete0: a typo?)" when a key given and not looked up is within a typo of
  // `key` (a required key that is missing); "" otherwise.
  std::string typo_hint(const std::string& key) const;
  // Every key looked up, in order of first look-up, with its value; defaults are marked.
  void write_used(std::ostream& out) const;
  // "key = value" lines of the keys looked up after the mark (each once, in order): what one piece
  // of work read, whatever was looked up before it.
  std::size_t lookup_mark() const { return lookups_.size(); }
  std::string looked_up_since(std::size_t mark) const;

 private:
  struct Entry {
    std::string value;
    std::string origin;  // "file:line" or "command line"
    bool used = false;
  };
  struct Use {
    std::string key, value;
    bool is_default;
    std::string note;      // the record's comment, when not just "default"
    bool recorded = true;  // false: left out of used.par
  };

  const std::string* lookup(const std::string& key);
  void record(const std::string& key, const std::string& value, bool is_default);
  template <class T>
  T convert(const std::string& key, const std::string& text) const;

  std::string name_;
  std::map<std::string, Entry> entries_;
  std::vector<Use> uses_;
  std::map<std::string, std::size_t> use_index_;
  std::vector<std::size_t> lookups_;  // every look-up, as its index in uses_
  std::vector<std::string> warnings_;
  bool gathering_ = false;
  std::vector<std::string> problems_;
  int lines_without_assignment_ = 0;  // of the text parsed
};

// Edits that make `a` into `b`: a letter added, dropped or changed (case aside), or two neighbours
// swapped; how far a typo is from the word meant.
int typo_edits(const std::string& a, const std::string& b);
// Whether `typed` is within a typo of `meant`: one edit in a short key, two from 8 letters.
bool within_typo(const std::string& typed, const std::string& meant);

// Parsers shared with other text inputs (scene files); each throws UserError with `what` (say
// "demo.par:12: xres") and the offending text in the message.
bool parse_bool(const std::string& text, const std::string& what);
long long parse_integer(const std::string& text, const std::string& what);
double parse_real(const std::string& text, const std::string& what);

}  // namespace splotch
