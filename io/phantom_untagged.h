// The names of an untagged Phantom or sphNG dump's values. Dumps without tags (sphNG's, and
// Phantom's before its tagged format) hold the header's values and the arrays in a fixed order;
// the names here are the order Phantom's and SPLASH's readers give them (facts of the format).
// A value whose place has no known meaning gets "" (header) or a name from its place (arrays:
// "real4_3", the third 4-byte real array of the block; "b4_real4_1" in block 4).
#pragma once

#include <string>

namespace splotch {

// The header's and the arrays' data types, in the dump's order.
enum class DumpKind { int_default, int1, int2, int4, int8, real, real4, real8 };

struct DumpDialect {
  bool phantom = true;  // Phantom's, else sphNG's (by the fileident: "Phantom" in it)
  bool small = false;   // a small dump (fileident "S..."): fewer arrays, 4-byte reals for some
};

// The j-th (from 0) header value of kind `k` among `count` of that kind.
std::string untagged_header_tag(const DumpDialect& dialect, DumpKind k, int j, int count);

// The j-th (from 0) array of kind `k` in array block `block` (from 0: 0 the particles, 1 the sinks
// in Phantom and sphNG's point-mass list, 3 the magnetic fields), among `count` of that kind.
std::string untagged_array_name(const DumpDialect& dialect, int block, DumpKind k, int j, int count);

}  // namespace splotch
