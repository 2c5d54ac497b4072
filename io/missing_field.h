// The error of a reader asked for a field (block, dataset, record field) that its file does not
// hold for a particle type. It is a UserError, but a distinct one: the planner of the readers
// (io/read_plan.h) takes a missing colour or intensity as absent, as the original does, and only a
// missing position or smoothing length stops the run.
#pragma once

#include "errors/user_error.h"

namespace splotch {

class MissingField : public UserError {
 public:
  using UserError::UserError;
};

}  // namespace splotch
