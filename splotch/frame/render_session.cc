#include "splotch/frame/render_session.h"

namespace splotch {

SnapshotCache& RenderSession::keep_snapshots() {
  if (!cache_) cache_ = std::make_unique<SnapshotCache>();
  return *cache_;
}

}  // namespace splotch
