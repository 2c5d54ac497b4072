// A file's first bytes, and whether they are text: what tells a palette, a parameter file or a
// snapshot from a binary file given in their place, before it is read as one.
#pragma once

#include <cstddef>
#include <string>

namespace splotch {

// At most `bytes` bytes from the file's start ("" where it cannot be read).
std::string file_start(const std::string& path, std::size_t bytes = 4096);

// Whether `bytes` are no text: a NUL, or more than one in 10 of them control characters (a text
// with a stray byte is a text, whose reading names the byte and its line).
bool looks_binary(const std::string& bytes);

}  // namespace splotch
