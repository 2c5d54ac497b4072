// Writing small text files (used.par) with the same care as images: a temporary name, then a
// rename, so that a reader never sees half a file.
#pragma once

#include <string>

namespace splotch {

void write_text_file(const std::string& path, const std::string& content);

}  // namespace splotch
