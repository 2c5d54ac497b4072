// The command line of bin/splotch (docs/design.md section 2):
//   splotch [--quiet] FILE.par [key=value ...]
//   splotch --info FILE.par [key=value ...]
//   splotch --serve FILE.par [--port N] [--host ADDR] [key=value ...]
//   splotch SNAPSHOT [key=value ...]          (no parameter file: the choices of --init)
//   splotch --init SNAPSHOT > my.par
//   splotch --help | --version
#pragma once

#include <string>
#include <vector>

namespace splotch {

struct CommandLine {
  bool help = false, version = false, quiet = false, info = false, serve = false;
  bool init = false;               // --init: the parameter file splotch would choose for the snapshot, on stdout
  int port = 8080;                 // --serve: the port (0: any free one, printed)
  std::string host = "127.0.0.1";  // --serve: the address listened on
  bool port_given = false, host_given = false;
  std::string parameter_file;
  std::vector<std::string> overrides;  // "key=value", in order
};

// Throws UserError for an unknown option or a missing parameter file.
CommandLine parse_command_line(const std::vector<std::string>& args);

std::string usage_text();

}  // namespace splotch
