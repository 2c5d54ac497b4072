// How long-running work (reading, rendering) reports how far it got: a callback taking the
// fraction done in [0, 1]. It is called from one thread only, often enough for a progress bar and
// rarely enough to cost nothing; an empty callback means nobody is watching.
#pragma once

#include <functional>

namespace splotch {

using ProgressCallback = std::function<void(double fraction_done)>;

}  // namespace splotch
