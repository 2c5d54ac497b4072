#include "io/interrupt_cleanup.h"

#include <limits.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace splotch {
namespace {

constexpr int kSlots = 16;
constexpr std::size_t kDoingBytes = 512;  // a longer note is cut: it is only said

// A slot's life: free -> filling (its note being written) -> live -> free, or live -> taken by the
// handler, which then ends the process. Only the handler reads a live slot's text; only the
// note that filled it frees it.
enum SlotState : int { free_slot, filling, live, taken };

struct Slot {
  std::atomic<int> state{free_slot};
  std::uint64_t order = 0;  // the newest live note is said
  char doing[kDoingBytes];
  char temporary[PATH_MAX];
};

struct Table {
  Slot slots[kSlots];
  std::atomic<std::uint64_t> next_order{1};
  std::atomic<bool> speak{false}, newline_first{false};
  std::atomic<bool> ending{false};  // a handler is ending the process
};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free &&
                  std::atomic<std::uint64_t>::is_always_lock_free,
              "the signal handler may only use lock-free atomics");

// Global mutable state, which the project otherwise has none of: a signal handler reaches nothing
// but globals, so what it must remove and say lies here.
Table table;

// Copies `text` into `to` of `size` bytes, cut and always terminated.
void copy_text(char* to, std::size_t size, const std::string& text) {
  std::size_t n = 0;
  for (; n + 1 < size && n < text.size(); ++n) to[n] = text[n];
  to[n] = '\0';
}

// A line being put together in the handler: no allocation, only async-signal-safe calls.
struct Line {
  char text[kDoingBytes + 64];
  std::size_t length = 0;
  void add(const char* s) {
    while (*s && length + 1 < sizeof text) text[length++] = *s++;
  }
};

void say(int signal, const Slot* newest) {
  Line line;
  if (table.newline_first) line.add("\n");  // off the terminal's "^C" and any progress bar
  line.add("splotch: interrupted (");
  line.add(signal == SIGINT ? "SIGINT" : "SIGTERM");
  line.add(")");
  if (newest) {
    line.add(" while ");
    line.add(newest->doing);
  }
  line.add("\n");
  for (std::size_t at = 0; at < line.length;) {
    const ssize_t n = ::write(STDERR_FILENO, line.text + at, line.length - at);
    if (n <= 0) break;
    at += std::size_t(n);
  }
}

// Ends the process by `signal` itself: its default action, with the signal unblocked in this
// thread (the handler's mask blocks it here).
[[noreturn]] void end_by(int signal) {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal, &default_action, nullptr);
  ::pthread_kill(::pthread_self(), signal);
  sigset_t just;
  sigemptyset(&just);
  sigaddset(&just, signal);
  ::pthread_sigmask(SIG_UNBLOCK, &just, nullptr);
  ::_exit(128 + signal);  // (not reached)
}

void on_interrupt(int signal) {
  // A second signal, on another thread: the first is ending the process.
  if (table.ending.exchange(true))
    for (;;) ::pause();
  const Slot* newest = nullptr;
  for (Slot& slot : table.slots) {
    int expected = live;
    if (!slot.state.compare_exchange_strong(expected, taken)) continue;
    if (slot.temporary[0] != '\0') ::unlink(slot.temporary);
    if (!newest || slot.order > newest->order) newest = &slot;
  }
  if (table.speak) say(signal, newest);
  end_by(signal);
}

// Installs on_interrupt for `signal` unless the process was started ignoring it; `before` keeps
// what was there.
void install(int signal, struct sigaction& before) {
  ::sigaction(signal, nullptr, &before);
  if (before.sa_handler == SIG_IGN) return;
  struct sigaction action = {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time on a thread
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;
  ::sigaction(signal, &action, nullptr);
}

}  // namespace

InterruptHandling::InterruptHandling(bool speak) {
  table.speak = speak;
  table.newline_first = ::isatty(STDERR_FILENO) != 0;
  install(SIGINT, before_int_);
  install(SIGTERM, before_term_);
}

InterruptHandling::~InterruptHandling() {
  ::sigaction(SIGINT, &before_int_, nullptr);
  ::sigaction(SIGTERM, &before_term_, nullptr);
}

InterruptNote::InterruptNote(const std::string& doing, const std::string& temporary) {
  // A name too long for a path is one no file can be created under.
  if (temporary.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = table.slots[i];
    int expected = free_slot;
    if (!slot.state.compare_exchange_strong(expected, filling)) continue;
    copy_text(slot.doing, sizeof slot.doing, doing);
    copy_text(slot.temporary, sizeof slot.temporary, temporary);
    slot.order = table.next_order++;
    slot.state = live;
    slot_ = i;
    return;
  }
  throw std::logic_error("more than " + std::to_string(kSlots) + " InterruptNotes at once");
}

void InterruptNote::end() {
  if (slot_ < 0) return;
  int expected = live;
  // Taken: a handler on another thread is removing the file and ending the process.
  if (!table.slots[slot_].state.compare_exchange_strong(expected, free_slot))
    for (;;) ::pause();
  slot_ = -1;
}

}  // namespace splotch
