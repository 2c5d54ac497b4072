#include "splotch/app/command_line.h"

#include "errors/user_error.h"
#include "params/param_file.h"

namespace splotch {

std::string usage_text() {
  return "usage: splotch [--quiet] FILE.par [key=value ...]\n"
         "       splotch [--quiet] SNAPSHOT [key=value ...]\n"
         "       splotch --init SNAPSHOT > FILE.par\n"
         "       splotch --info FILE.par|SNAPSHOT [key=value ...]\n"
         "       splotch --serve FILE.par|SNAPSHOT [--port N] [--host ADDR] [key=value ...]\n"
         "\n"
         "Renders the particle snapshot that the parameter file FILE.par names (Splotch format:\n"
         "one key=value per line, '#' starts a comment). Arguments key=value override the file.\n"
         "Given a snapshot (Gadget, HDF5, Tipsy, Phantom, Bonsai, FITS, a RAMSES output) instead,\n"
         "it chooses the keys itself, as --init prints them, and writes <snapshot name>.png in the\n"
         "working directory, with its record\n"
         "<snapshot name>.png.used.par: a parameter file to start from.\n"
         "\n"
         "options:\n"
         "  --help      this text\n"
         "  --version   the version of splotch\n"
         "  --quiet     no progress bar and no report; warnings and errors still appear\n"
         "  --info      read the snapshot and print particle counts and field ranges; render nothing\n"
         "  --init      print a commented parameter file for the snapshot (the choices splotch makes for\n"
         "              it with no parameter file); it renders as it is\n"
         "  --serve     read the snapshot once and serve a page to fly through it and tune it in a browser\n"
         "              (as server = TRUE in the file); it prints the URL to open, with its token\n"
         "  --port N    the port --serve listens on (default 8080; 0: any free one)\n"
         "  --host ADDR the address --serve listens on (default 127.0.0.1, this machine only)\n"
         "\n"
         "Every image is written with <image>.used.par beside it: all parameters the run used,\n"
         "defaults marked. docs/parameters.md lists every key; the README, the first ones.\n"
         "Exit status: 0 success, 1 a problem with the input or parameters, 2 an internal error.\n";
}

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine c;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    // --port N or --port=N (and --host).
    auto value_of = [&](const std::string& option) {
      if (a.size() > option.size() && a.compare(0, option.size() + 1, option + "=") == 0)
        return a.substr(option.size() + 1);
      if (k + 1 >= args.size()) throw UserError(option + " needs a value (see splotch --help)");
      return args[++k];
    };
    auto is = [&](const std::string& option) {
      return a == option || a.compare(0, option.size() + 1, option + "=") == 0;
    };
    if (is("--port")) {
      const std::string v = value_of("--port");
      const long long port = parse_integer(v, "--port");
      if (port < 0 || port > 65535) throw UserError("--port " + v + ": a port from 1 to 65535 (0: any free one)");
      c.port = int(port);
      c.port_given = true;
    } else if (is("--host")) {
      c.host = value_of("--host");
      if (c.host.empty()) throw UserError("--host needs an address (127.0.0.1, 0.0.0.0 or one of this machine's)");
      c.host_given = true;
    } else if (a == "--serve")
      c.serve = true;
    else if (a == "--help" || a == "-h")
      c.help = true;
    else if (a == "--version")
      c.version = true;
    else if (a == "--quiet" || a == "-q")
      c.quiet = true;
    else if (a == "--info")
      c.info = true;
    else if (a == "--init")
      c.init = true;
    else if (a.size() > 1 && a[0] == '-')
      throw UserError("unknown option '" + a + "' (see splotch --help)");
    else if (a.find('=') != std::string::npos)
      c.overrides.push_back(a);
    else if (c.parameter_file.empty())
      c.parameter_file = a;
    else
      throw UserError("two parameter files given, '" + c.parameter_file + "' and '" + a +
                      "'; overrides take the form key=value");
  }
  if (int(c.serve) + int(c.info) + int(c.init) > 1)
    throw UserError(std::string(c.init ? "--init" : "--serve") + " and " + (c.info ? "--info" : "--serve") +
                    ": give one of them");
  if (c.init && !c.overrides.empty())
    throw UserError(
        "--init prints the parameter file splotch chooses for a snapshot; key=value arguments are for "
        "rendering it (bin/splotch SNAPSHOT key=value, or edit the file)");
  if ((c.port_given || c.host_given) && c.info)
    throw UserError(std::string(c.port_given ? "--port" : "--host") + " is for --serve (see splotch --help)");
  if (!c.help && !c.version && c.parameter_file.empty())
    throw UserError(c.init ? "--init needs a snapshot: splotch --init SNAPSHOT > my.par"
                           : "no parameter file given (usage: splotch [--quiet] FILE.par [key=value ...], or splotch "
                             "SNAPSHOT for a first picture; see --help)");
  return c;
}

}  // namespace splotch
