// What a frame drawn from the server's held particles checks between its steps (a browser's
// picture): whether it is still wanted (ViewCancelled thrown, before the read or normalisation,
// the projection and the copy to the GPU, once `cancelled` is set), and whether the pixels its
// splats cover are within `work_budget` (BadRequest beyond), once they are known: after the
// projection, or before a GPU projects them, estimated from a sample (splotch/serve/work_budget.h).
#pragma once

#include <atomic>
#include <cmath>

namespace splotch {

struct DrawLimits {
  const std::atomic<bool>* cancelled = nullptr;
  double work_budget = HUGE_VAL;

  void still_wanted() const;                // throws ViewCancelled once cancelled
  void within_budget(double pixels) const;  // throws BadRequest beyond the budget
};

}  // namespace splotch
