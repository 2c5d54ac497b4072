#include "io/read_ahead.h"

#include <utility>

namespace splotch {

ReadAhead::ReadAhead(std::vector<Range> ranges, std::size_t ahead, Hint hint)
    : ranges_(std::move(ranges)), ahead_(ahead), hint_(std::move(hint)) {
  std::size_t total = 0;
  for (const Range& r : ranges_) {
    end_.push_back(total += r.bytes);
    any_cold_ = any_cold_ || r.file->cold();
  }
  hint_before(ahead_);
}

void ReadAhead::reading(std::size_t k) {
  if (k < ranges_.size()) hint_before(end_[k] + ahead_);
}

void ReadAhead::hint_before(std::size_t limit) {
  if (!any_cold_) return;
  // Each range is claimed by one thread (compare_exchange moves `next` past it) and hinted there.
  std::size_t j = next_.load(std::memory_order_relaxed);
  while (j < ranges_.size() && end_[j] - ranges_[j].bytes < limit) {
    if (next_.compare_exchange_weak(j, j + 1, std::memory_order_relaxed)) {
      hint_(ranges_[j]);
      ++j;
    }
  }
}

}  // namespace splotch
