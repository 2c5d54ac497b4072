// Every key splotch reads, with the kind of value it takes: for a did-you-mean beside an unknown key
// (`palete0`, `colour_label0`, a scene file's `lookat_zz`), and for checking a scene file's values
// before its first frame (a word where a number belongs is found at once, not after 499 frames).
#pragma once

#include <string>
#include <vector>

namespace splotch {

enum class KeyKind { number, integer, boolean, text };

// The kind of value `key` takes (a per-type key with any type number), or none for a key splotch
// does not read.
const KeyKind* key_kind(const std::string& key);

// The keys splotch reads, per-type ones for types 0 to types - 1.
std::vector<std::string> known_keys(int types);

// The known key a typo of `key` most likely meant ("" when none is within a typo's reach).
std::string did_you_mean(const std::string& key, int types);

// Whether `value` is a value of the kind `kind`; false with `why` ("not a number") otherwise.
bool value_of_kind(const std::string& value, KeyKind kind, std::string& why);

}  // namespace splotch
