// The one exception type for problems the user can fix: a bad parameter, an unreadable or
// malformed input file. main() prints "splotch: error: <what>" and exits with status 1; every
// other exception is an internal error (status 2). The message names the file, line, key or
// value, so that the user knows where to look without a debugger.
#pragma once

#include <stdexcept>
#include <string>

namespace splotch {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace splotch
