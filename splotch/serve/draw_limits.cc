#include "splotch/serve/draw_limits.h"

#include "splotch/serve/browser_keys.h"
#include "splotch/serve/view_queue.h"
#include "splotch/serve/work_budget.h"

namespace splotch {

void DrawLimits::still_wanted() const {
  if (cancelled && *cancelled) throw ViewCancelled();
}

void DrawLimits::within_budget(double pixels) const {
  if (pixels > work_budget) throw BadRequest(over_budget_text(pixels, work_budget));
}

}  // namespace splotch
