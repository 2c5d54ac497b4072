// Console: what a run tells its user. Errors are not here (main prints the one error line);
// warnings always go to stderr, the report to stdout unless --quiet, and a progress bar to stderr
// only when stderr is a terminal (a batch log should not fill up with carriage returns).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/progress.h"

namespace splotch {

class Console {
 public:
  // `process`, when given, names the MPI process speaking (frames dealt out to processes):
  // its warnings say "splotch (process 2)" and its report lines start "process 2: ".
  Console(bool quiet, bool show_progress, std::string process = "")
      : quiet_(quiet), show_progress_(show_progress && !quiet), process_(std::move(process)) {}
  // A console for work in the background (a scene reading its next snapshot): no progress, no
  // report, and warnings held until held_warnings() hands them to the console of the frame that
  // uses the work, so that they come in the frame's turn and not in the middle of another's.
  struct Holding {};
  explicit Console(Holding) : quiet_(true), show_progress_(false), holding_(true) {}
  ~Console() { end_progress(); }  // an error must not land in the middle of a progress bar
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;

  bool quiet() const { return quiet_; }
  void warning(const std::string& message) const;
  void report(const std::string& text) const;  // printed as it is

  // A callback drawing "label [#####.....]  50%" on stderr; a no-op when progress is off. Call
  // end_progress() when the work is done, to clear the line.
  ProgressCallback progress(const std::string& label);
  void end_progress();

  std::vector<std::string> held_warnings() { return std::move(held_); }

 private:
  struct Bar;
  bool quiet_, show_progress_, holding_ = false;
  std::string process_;
  mutable std::vector<std::string> held_;
  std::shared_ptr<Bar> bar_;
};

}  // namespace splotch
