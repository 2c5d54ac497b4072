// bin/splotch: parses the command line, runs the pipeline, and turns every failure into one line
// on stderr and an exit status (0 success, 1 user error, 2 internal error). This is the only place
// that catches exceptions.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <new>

#include "params/param_file.h"
#include "params/user_error.h"
#include "splotch/command_line.h"
#include "splotch/console.h"
#include "splotch/pipeline.h"
#include "splotch/scene_run.h"
#include "splotch/snapshot_info.h"
#include "splotch/version.h"

namespace {

int run(int argc, char** argv) {
  using namespace splotch;
  const CommandLine cl = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  if (cl.help) {
    std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  if (cl.version) {
    std::printf("splotch %s\n", SPLOTCH_VERSION);
    return 0;
  }
  ParamFile params = cl.info ? info_parameters(cl.parameter_file) : ParamFile::read(cl.parameter_file);
  for (const std::string& o : cl.overrides) params.set_from_command_line(o);
  Console console(cl.quiet, ::isatty(STDERR_FILENO) != 0);
  if (cl.info) {
    print_snapshot_info(params, console, std::cout);
    return 0;
  }
  if (!params.get<std::string>("scene_file", "").empty()) {
    const SceneSummary summary = render_scene(params, console);
    console.report(summary.text());
    return summary.failed > 0 ? 1 : 0;  // the frames that failed said why as they went
  }
  const RunReport report = render_frame(params, console);
  console.report(report.text());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const splotch::UserError& e) {
    std::fprintf(stderr, "splotch: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "splotch: error: out of memory (fewer particles, a smaller image, or a larger machine)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "splotch: internal error: %s\n", e.what());
    return 2;
  }
}
