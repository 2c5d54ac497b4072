// bin/splotch --serve FILE.par (or server = TRUE in it): reads the snapshot once, draws the
// .par's own view, and serves the page that flies through it (splotch/serve/http_server.h) until
// Ctrl-C (SIGINT) or SIGTERM.
#pragma once

#include <string>

#include "params/param_file.h"
#include "splotch/serve/http_server.h"
#include "splotch/util/console.h"

namespace splotch {

struct ServeOptions {
  HttpOptions http;               // the token is made here when empty
  std::string palette_directory;  // testdata/palettes beside the program
};

// Serves until a signal; returns the exit status. The first picture's errors are thrown as
// bin/splotch's would be (UserError): the server does not start.
int serve(ParamFile params, ServeOptions options, Console& console);

// The URL a browser opens, and the lines that tell the user how (an ssh tunnel to a remote
// machine), as printed at the start.
std::string serve_url(const HttpOptions& http, int port);
std::string serve_banner(const std::string& parameter_file, const HttpOptions& http, int port);

// A browser's picture's work budget (splotch/serve/view_server.h) for this process's threads of
// the host renderer: about 10 s of drawing, whatever the machine.
double serve_work_budget();

// The palettes offered besides the .par's: testdata/palettes of the tree the program was built
// in (bin/../testdata/palettes), when it is there.
std::string default_palette_directory();

}  // namespace splotch
