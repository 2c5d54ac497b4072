// bin/splotch: parses the command line, runs the pipeline, and turns every failure into one line
// on stderr and an exit status (0 success, 1 user error, 2 internal error; SIGINT and SIGTERM end
// it as io/interrupt_cleanup.h says). This is the only place that catches exceptions.
#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "errors/user_error.h"
#include "io/interrupt_cleanup.h"
#include "params/param_file.h"
#include "splotch/app/command_line.h"
#include "splotch/app/input_kind.h"
#include "splotch/app/process_end.h"
#include "splotch/app/snapshot_info.h"
#include "splotch/app/thread_waiting.h"
#include "splotch/app/version.h"
#include "splotch/frame/pipeline.h"
#include "splotch/frame/render_session.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/scene/scene_run.h"
#include "splotch/serve/serve_run.h"
#include "splotch/settings/settings.h"
#include "splotch/util/console.h"

namespace {

// a_eq_e = TRUE (the default), without a word about a value that is no boolean: the settings
// report that among all the file's problems.
bool a_eq_e_given_true(splotch::ParamFile params) {
  try {
    return params.get<bool>("a_eq_e", true);
  } catch (const splotch::UserError&) { return false; }
}

// `session`: what the run's frames share (the GPU's start, the particles kept), kept by the
// caller beyond the run (see main()).
int run(int argc, char** argv, const splotch::Comm& comm, splotch::RenderSession& session) {
  using namespace splotch;
  const CommandLine cl = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  if (!comm.root() && (cl.help || cl.version || cl.info || cl.init)) return 0;  // said once, by rank 0
  if (cl.help) {
    std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  if (cl.version) {
    std::printf("splotch %s\n", SPLOTCH_VERSION);
    return 0;
  }
  if (cl.init) {  // the parameter file splotch would choose for a snapshot alone
    std::fputs(init_parameter_text(cl.parameter_file).c_str(), stdout);
    return 0;
  }
  // What a SIGINT or SIGTERM says was interrupted (the picture's writer says more).
  const InterruptNote reading("reading " + cl.parameter_file);
  if (cl.info && print_auxiliary_info(cl.parameter_file, std::cout)) return 0;
  ParamFile params =
      cl.info ? info_parameters(cl.parameter_file) : read_parameter_file(cl.parameter_file, cl.overrides);
  for (const std::string& o : cl.overrides) params.set_from_command_line(o);
  // The other processes of an MPI run say nothing: rank 0 speaks for all.
  std::optional<Console> speaking, silent;
  if (comm.root())
    speaking.emplace(cl.quiet, ::isatty(STDERR_FILENO) != 0);
  else
    silent.emplace(Console::Holding{});
  Console& console = comm.root() ? *speaking : *silent;
  // A process that reaches no GPU but its own sees that one alone, so that the driver starts one GPU
  // instead of all (splotch/render/gpu_startup.h); before any CUDA call. One alone on its node here
  // (its GPU the first it sees, gpu_index() 0, which stays); a scene's processes with frames dealt
  // out, and a frame's with a_eq_e = TRUE, below.
  if (comm.node_size() == 1) see_own_gpu_only(comm.gpu_index());
  const bool serving = cl.serve || (!cl.info && params.get<bool>("server", false));
  if ((cl.port_given || cl.host_given) && !serving)
    throw UserError(std::string(cl.port_given ? "--port" : "--host") +
                    " is for --serve (or server = TRUE in the parameter file); see splotch --help");
  if (serving) {
    if (comm.size() > 1)
      throw UserError(std::string(cl.serve ? "--serve" : params.origin("server") + ": server = TRUE") +
                      " runs as one process: start it without mpirun");
    ServeOptions options;
    options.http.host = cl.host;
    options.http.port = cl.port;
    options.palette_directory = default_palette_directory();
    return serve(std::move(params), options, console);
  }
  if (cl.info || analysis_only(params)) {
    if (!cl.info && !comm.root()) return 0;
    if (!cl.info)
      console.report("splotch: " +
                     std::string(params.has("AnalyzeSimulationOnly") ? "AnalyzeSimulationOnly = TRUE" : "ptypes = 0") +
                     ": what the snapshot holds (nothing is rendered; this is bin/splotch --info)\n");
    print_snapshot_info(params, console, std::cout);
    return 0;
  }
  if (snapshot_ids_only(params)) {
    if (comm.root()) print_snapshot_ids(params, std::cout);
    return 0;
  }
  if (!params.get<std::string>("scene_file", "").empty()) {
    // Each process's own voice, for frames dealt out to processes (no progress bars: they would
    // draw over each other).
    Console own(cl.quiet, comm.size() == 1 && ::isatty(STDERR_FILENO) != 0,
                comm.size() > 1 ? "process " + std::to_string(comm.rank()) : "");
    const InterruptNote rendering("rendering the frames of " + cl.parameter_file + " (each picture written is whole)");
    SceneSummary summary = render_scene(params, console, session, &comm, &own);
    console.report(summary.text());
    return summary.failed > 0 ? 1 : 0;  // the frames that failed said why as they went
  }
  if (read_mpi_mode(params) == MpiMode::frames)
    throw UserError(params.origin("mpi_mode") +
                    ": mpi_mode = frames deals out the frames of a scene file, and "
                    "there is no scene_file");
  FrameOptions frame;
  frame.comm = &comm;
  // Only a_eq_e = FALSE's split between the GPUs reaches another process's GPU (its memory); images
  // are combined through host memory.
  frame.device = a_eq_e_given_true(params) ? see_own_gpu_only(comm.gpu_index()) : comm.gpu_index();
  frame.share_by_model = read_mpi_mode(params) == MpiMode::automatic;
  const InterruptNote rendering("rendering " + cl.parameter_file);
  const RunReport report = render_frame(params, console, session, frame);
  console.report(report.text());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  splotch::start_again_with_sleeping_threads(argv);  // returns where it need not or cannot
  // The passes that split work by thread (tile order, bucket sorts, the MPI split) count on the
  // threads they ask for.
  omp_set_dynamic(0);
  std::optional<splotch::Comm> comm;
  try {
    comm.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "splotch: error: MPI did not start: %s\n", e.what());
    return 1;
  }
  if (!comm->launch_warning().empty()) std::fprintf(stderr, "splotch: warning: %s\n", comm->launch_warning().c_str());
  // A node's processes share its cores: without OMP_NUM_THREADS each would take all it may run on.
  if (comm->thread_share() > 0 && !std::getenv("OMP_NUM_THREADS")) omp_set_num_threads(comm->thread_share());
  if (comm->root() && !comm->binding_warning().empty())
    std::fprintf(stderr, "splotch: warning: %s\n", comm->binding_warning().c_str());
  // After MPI's start, whose threads must not take these signals (splotch/mpi/mpi_comm.cc).
  const splotch::InterruptHandling interrupts(comm->root());
  // Errors of an MPI run's processes are agreed on (splotch/mpi/comm.h): every process throws the
  // same one, and rank 0 says it. What only one process meets is said by it, with its rank.
  const bool root = comm->root();
  const std::string who = root ? "splotch" : "splotch (process " + std::to_string(comm->rank()) + ")";
  // A user error is met by every process alike (a bad key) or agreed on; any other failure may be
  // this process's alone while the others wait for it in MPI, so the job is ended outright.
  auto end = [&](int status) {
    if (comm && comm->size() > 1) comm->abort(status);  // (comm is gone once MPI has ended)
    return status;
  };
  try {
    // A run that started the GPU ends without waiting for its teardown (splotch/app/process_end.h):
    // the picture and the report are out by then.
    splotch::RenderSession session;
    const int status = run(argc, argv, *comm, session);
    if (session.gpu() && session.gpu()->teardown_may_be_left()) {
      comm.reset();  // MPI's end first (MPI_Finalize waits for every process): the GPU's is left
      splotch::end_leaving_gpu_teardown(status);
    }
    return status;
  } catch (const splotch::UserError& e) {
    if (root) std::fprintf(stderr, "splotch: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory (fewer particles, a smaller image, or a larger machine)\n",
                 who.c_str());
    return end(1);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", who.c_str(), e.what());
    return end(2);
  }
}
