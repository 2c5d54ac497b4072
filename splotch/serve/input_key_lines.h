// The keys that chose and read a snapshot (FramePlan::input_keys: ParamFile::looked_up_since's
// "key = value" lines) compared, so that the server tells whether a browser's frame needs the
// snapshot it holds as it is, other fields of it alone (splotch/load/values_reread.h), or another.
#pragma once

#include <set>
#include <string>

namespace splotch {

// The keys whose lines differ (or that one side lacks).
std::set<std::string> differing_keys(const std::string& a, const std::string& b);
// Whether `key` chooses a type's colour or intensity field, of a picture or a map.
bool values_key(const std::string& key);
// Whether `key` only adds what interpolation between snapshots reads besides: the particles' IDs
// (and velocities); the particles are the same without.
bool motion_key(const std::string& key);
// Whether every one of `keys` passes `test`.
bool all_keys(const std::set<std::string>& keys, bool (*test)(const std::string&));

}  // namespace splotch
