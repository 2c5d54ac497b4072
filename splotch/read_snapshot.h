// Reads the snapshot the input settings name, whatever its format (one reader per simtype).
#pragma once

#include "io/particle_set.h"
#include "io/progress.h"
#include "splotch/settings.h"

namespace splotch {

ParticleSet read_snapshot(const InputSettings& input, const ProgressCallback& progress = {});

}  // namespace splotch
