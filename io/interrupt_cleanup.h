// What a run ended by SIGINT (Ctrl-C) or SIGTERM (a batch system at the job's wall-time limit)
// leaves: no temporary file of a picture being written, and one line on stderr saying what was
// interrupted ("splotch: interrupted (SIGTERM) while writing out.png; no picture written"). The
// process then ends by the signal itself, so that a shell's $? is 130 or 143 and a shell script
// running it stops too (a child that merely exits 130 lets a script's loop go on to the next run).
#pragma once

#include <signal.h>

#include <string>

namespace splotch {

// While one lives, SIGINT and SIGTERM end the process as above; a signal that the process was
// started ignoring (a background job of a script) stays ignored. main() makes one; `speak`:
// whether this process says the line (rank 0 of an MPI run).
class InterruptHandling {
 public:
  explicit InterruptHandling(bool speak);
  ~InterruptHandling();  // the handling before it back
  InterruptHandling(const InterruptHandling&) = delete;
  InterruptHandling& operator=(const InterruptHandling&) = delete;

 private:
  struct sigaction before_int_ = {}, before_term_ = {};
};

// While it lives, what the line says the process was doing (the newest note living: "writing
// out.png; no picture written"), and `temporary`, a file being written under a temporary name ("" for
// none), which is removed if the process is interrupted. Make it before the file is created. At
// most 16 live at once (beyond: std::logic_error).
class InterruptNote {
 public:
  explicit InterruptNote(const std::string& doing, const std::string& temporary = "");
  ~InterruptNote() { end(); }
  InterruptNote(const InterruptNote&) = delete;
  InterruptNote& operator=(const InterruptNote&) = delete;

  // Ends the note before its destruction (the file has its final name).
  void end();

 private:
  int slot_ = -1;
};

}  // namespace splotch
