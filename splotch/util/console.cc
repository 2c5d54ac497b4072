#include "splotch/util/console.h"

#include <algorithm>
#include <cstdio>

namespace splotch {

struct Console::Bar {
  std::string label;
  int shown = -1;  // the percentage on screen
};

void Console::warning(const std::string& message) const {
  if (holding_) {
    held_.push_back(message);
    return;
  }
  if (process_.empty())
    std::fprintf(stderr, "splotch: warning: %s\n", message.c_str());
  else
    std::fprintf(stderr, "splotch (%s): warning: %s\n", process_.c_str(), message.c_str());
}

void Console::report(const std::string& text) const {
  if (quiet_) return;
  if (process_.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {  // every line named, written at once so that other processes' lines do not cut in
    std::string named;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size() - 1) + 1;
      named += process_ + ": " + text.substr(at, end - at);
      at = end;
    }
    std::fputs(named.c_str(), stdout);
  }
  std::fflush(stdout);
}

ProgressCallback Console::progress(const std::string& label) {
  if (!show_progress_) return {};
  end_progress();
  bar_ = std::make_shared<Bar>();
  bar_->label = label;
  std::shared_ptr<Bar> bar = bar_;
  return [bar](double fraction) {
    const int percent = fraction <= 0 ? 0 : fraction >= 1 ? 100 : int(fraction * 100);
    if (percent == bar->shown) return;
    bar->shown = percent;
    const int width = 30, filled = percent * width / 100;
    std::string cells(std::size_t(filled), '#');
    cells.append(std::size_t(width - filled), '.');
    std::fprintf(stderr, "\r  %-10s [%s] %3d%%", bar->label.c_str(), cells.c_str(), percent);
    std::fflush(stderr);
  };
}

void Console::end_progress() {
  if (!bar_) return;
  if (bar_->shown >= 0) std::fprintf(stderr, "\r%60s\r", "");
  bar_.reset();
}

}  // namespace splotch
