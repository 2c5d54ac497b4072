#include "splotch/app/command_line.h"

#include "params/user_error.h"

namespace splotch {

std::string usage_text() {
  return "usage: splotch [--quiet] FILE.par [key=value ...]\n"
         "       splotch --info FILE.par [key=value ...]\n"
         "\n"
         "Renders the particle snapshot that the parameter file FILE.par names (Splotch format:\n"
         "one key=value per line, '#' starts a comment). Arguments key=value override the file.\n"
         "\n"
         "options:\n"
         "  --help      this text\n"
         "  --version   the version of splotch\n"
         "  --quiet     no progress bar and no report; warnings and errors still appear\n"
         "  --info      read the snapshot and print particle counts and field ranges; render nothing\n"
         "\n"
         "Every image is written with <image>.used.par beside it: all parameters the run used,\n"
         "defaults marked. The README lists the supported keys.\n"
         "Exit status: 0 success, 1 a problem with the input or parameters, 2 an internal error.\n";
}

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine c;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h")
      c.help = true;
    else if (a == "--version")
      c.version = true;
    else if (a == "--quiet" || a == "-q")
      c.quiet = true;
    else if (a == "--info")
      c.info = true;
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
  if (!c.help && !c.version && c.parameter_file.empty())
    throw UserError("no parameter file given (usage: splotch [--quiet] FILE.par [key=value ...]; see --help)");
  return c;
}

}  // namespace splotch
