// Keys of the original Splotch that this splotch reads no value from, and why: its parameter files
// carry them (GPU memory sizes, server and interpolation settings), and a run names them apart from
// the unknown keys that may be typos, so that a user of the original is not sent looking for
// mistakes that are not there.
#pragma once

#include <string>

namespace splotch {

// Why the original's `key` has no effect here, or "" for a key the original does not have either.
std::string original_key_without_effect(const std::string& key);

}  // namespace splotch
