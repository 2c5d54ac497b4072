// The command line of bin/splotch (DESIGN.md section 2):
//   splotch [--quiet] FILE.par [key=value ...]
//   splotch --info FILE.par [key=value ...]
//   splotch --help | --version
#pragma once

#include <string>
#include <vector>

namespace splotch {

struct CommandLine {
  bool help = false, version = false, quiet = false, info = false;
  std::string parameter_file;
  std::vector<std::string> overrides;  // "key=value", in order
};

// Throws UserError for an unknown option or a missing parameter file.
CommandLine parse_command_line(const std::vector<std::string>& args);

std::string usage_text();

}  // namespace splotch
