#include "splotch/serve/request_rate.h"

#include <algorithm>
#include <iterator>

namespace splotch {

RequestRate::RequestRate(double per_second, double burst, std::size_t most_peers)
    : per_second_(per_second), burst_(burst), most_peers_(std::max<std::size_t>(most_peers, 1)) {}

bool RequestRate::allow(const std::string& peer, double now) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto at = buckets_.find(peer);
  if (at == buckets_.end()) {
    // Many peers (addresses come and go): a full bucket tells nothing (a new peer starts full),
    // so those go; else the fullest, which holds back least.
    if (buckets_.size() >= most_peers_) {
      auto refilled = [&](const Bucket& b) { return std::min(burst_, b.tokens + (now - b.last) * per_second_); };
      for (auto b = buckets_.begin(); b != buckets_.end();)
        b = refilled(b->second) >= burst_ ? buckets_.erase(b) : std::next(b);
      if (buckets_.size() >= most_peers_)
        buckets_.erase(std::max_element(buckets_.begin(), buckets_.end(), [&](const auto& a, const auto& b) {
          return refilled(a.second) < refilled(b.second);
        }));
    }
    at = buckets_.emplace(peer, Bucket{burst_, now}).first;
  }
  Bucket& b = at->second;
  b.tokens = std::min(burst_, b.tokens + std::max(0.0, now - b.last) * per_second_);
  b.last = std::max(b.last, now);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace splotch
