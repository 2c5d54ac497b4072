// The MPI build's start (issue 36, section 7): MPI starts only where a launcher's variables say
// one started the process; started by hand, bin/splotch_mpi is the default build (the same
// words, statuses and picture bytes, and no MPI_Init); under mpirun, MPI's threads leave SIGINT to splotch, so
// that `--serve` stopped by Ctrl-C ends with status 0. The comparison runs against bin/splotch,
// or after `make MPI=1` (bin/splotch then the MPI build: CI) against build/default/splotch.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "splotch/mpi/launcher.h"
#include "tests/support/test_support.h"

using namespace splotch::testing;

namespace {

splotch::Launch launch_with(const std::map<std::string, std::string>& variables) {
  return splotch::mpi_launch([&](const char* name) -> const char* {
    const auto v = variables.find(name);
    return v == variables.end() ? nullptr : v->second.c_str();
  });
}

// The default build's program, or "" where the MPI build is not there to compare with it.
std::string default_build() {
  if (!file_exists("bin/splotch_mpi")) return "";
  if (run_command("cmp -s bin/splotch bin/splotch_mpi").status != 0) return "bin/splotch";
  return file_exists("build/default/splotch") ? "build/default/splotch" : "";
}

std::string small_scene(const TempDir& dir) {
  std::string raw;
  for (int i = 0; i < 3000; ++i) {
    const float v[6] = {40.0f + float(i % 20), 45.0f + float(i % 13), 50.0f + float(i % 7), 1.0f,
                        1.0f + float(i % 3),   1.0f + float(i % 5)};
    raw.append(reinterpret_cast<const char*>(v), sizeof v);
  }
  return dir.write("scene.par", "simtype = 0\nswap_endian = FALSE\ninfile = " + dir.write("p.bin", raw) +
                                    "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                                    "palette0 = testdata/palettes/fire.pal\ncamera_x = 50\ncamera_y = -40\n"
                                    "camera_z = 80\nlookat_x = 50\nlookat_y = 50\nlookat_z = 50\nfov = 50\n"
                                    "xres = 160\nrenderer = host\n");
}

// The report's lines but its times (and the image's name, which differs).
std::string without_times(const std::string& report) {
  std::string kept, line;
  for (char c : report) {
    if (c != '\n') {
      line += c;
      continue;
    }
    if (line.find(" s") == std::string::npos && line.find("wrote") == std::string::npos &&
        line.find("MiB") == std::string::npos)
      kept += line + "\n";
    line.clear();
  }
  return kept;
}

}  // namespace

TEST_CASE("mpi_launch: a launcher known by the variables it sets in each process; srun without PMI warned of") {
  CHECK(launch_with({}).by == "");
  CHECK(launch_with({}).warning == "");
  CHECK(launch_with({{"HOME", "/root"}, {"OMPI_MCA_plm", "x"}}).by == "");  // an MCA setting is no launch
  CHECK(launch_with({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "2"}}).by == "OMPI_COMM_WORLD_SIZE");
  CHECK(launch_with({{"PMIX_RANK", "0"}}).by == "PMIX_RANK");
  CHECK(launch_with({{"PMI_RANK", "3"}, {"PMI_SIZE", "8"}}).by == "PMI_RANK");
  CHECK(launch_with({{"MPI_LOCALRANKID", "0"}}).by == "MPI_LOCALRANKID");
  // srun: with PMIx (srun --mpi=pmix) a launch; without, a task alone, and with others a warning.
  const splotch::Launch pmix = launch_with({{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "4"}, {"PMIX_RANK", "1"}});
  CHECK(pmix.by == "PMIX_RANK");
  CHECK(pmix.warning == "");
  const splotch::Launch bare = launch_with({{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "4"}});
  CHECK(bare.by == "");
  CHECK(bare.warning.find("one of 4 tasks") != std::string::npos);
  CHECK(bare.warning.find("srun --mpi=pmix") != std::string::npos);
  CHECK(launch_with({{"SLURM_PROCID", "0"}, {"SLURM_STEP_NUM_TASKS", "1"}}).warning == "");
  // Open MPI's processes all on one node: they meet in shared memory (pml ob1) unless the user
  // chose; across nodes Open MPI chooses.
  using Settings = std::vector<std::pair<std::string, std::string>>;
  CHECK(launch_with({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}}).settings ==
        Settings{{"OMPI_MCA_pml", "ob1"}});
  CHECK(launch_with({{"OMPI_COMM_WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}}).settings.empty());
  CHECK(launch_with({{"OMPI_COMM_WORLD_SIZE", "2"}}).settings.empty());
  CHECK(launch_with({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}, {"OMPI_MCA_pml", "ucx"}})
            .settings.empty());
  CHECK(launch_with({{"PMIX_RANK", "0"}}).settings.empty());
  // MVAPICH2's mpirun_rsh, Cray's PALS and ALPS, Flux.
  CHECK(launch_with({{"MV2_COMM_WORLD_RANK", "1"}}).by == "MV2_COMM_WORLD_RANK");
  CHECK(launch_with({{"PALS_RANKID", "0"}}).by == "PALS_RANKID");
  CHECK(launch_with({{"ALPS_APP_PE", "3"}}).by == "ALPS_APP_PE");
  CHECK(launch_with({{"FLUX_TASK_RANK", "2"}}).by == "FLUX_TASK_RANK");
  // SPLOTCH_MPI decides where it is given: 1 starts MPI, 0 not (even under a known launcher).
  CHECK(launch_with({{"SPLOTCH_MPI", "1"}}).by == "SPLOTCH_MPI");
  CHECK(launch_with({{"SPLOTCH_MPI", "0"}, {"OMPI_COMM_WORLD_SIZE", "4"}}).by == "");
  CHECK(launch_with({{"SPLOTCH_MPI", "0"}, {"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "4"}}).warning == "");
}

TEST_CASE("mpi: bin/splotch_mpi started without a launcher is the default build: the same words, statuses, picture") {
  const std::string plain = default_build();
  if (plain.empty()) {
    MESSAGE(
        "skipped: bin/splotch_mpi or the default build to compare it with is not built (make MPI=1 test builds both)");
    return;
  }
  INFO(plain << " against bin/splotch_mpi");
  TempDir dir;
  const std::string par = small_scene(dir);
  for (const std::string& args : {std::string("--version"), std::string("--help"), "--info " + par,
                                  par + " infile=" + dir.file("none.bin"), par + " fov=500"}) {
    INFO(args);
    const CommandResult a = run_command(plain + " " + args), b = run_command("bin/splotch_mpi " + args);
    CHECK(a.status == b.status);
    CHECK(a.out == b.out);
    CHECK(a.err == b.err);
  }
  const CommandResult a = run_command(plain + " " + par + " outfile=" + dir.file("plain.tga"));
  const CommandResult b = run_command("bin/splotch_mpi " + par + " outfile=" + dir.file("mpi.tga"));
  CHECK(a.status == 0);
  CHECK(b.status == 0);
  CHECK(a.err == b.err);
  CHECK(without_times(a.out) == without_times(b.out));
  CHECK(without_times(a.out).find("particles  3000 read") != std::string::npos);
  CHECK(read_file(dir.file("plain.tga")) == read_file(dir.file("mpi.tga")));
  CHECK(read_file(dir.file("plain.tga")).size() > 160 * 120 * 3);

  // MPI is not started: Open MPI's MPI_Init fails with a transport that does not exist, and none
  // is asked for.
  const CommandResult no_mpi =
      run_command("OMPI_MCA_pml=no_such_transport bin/splotch_mpi " + par + " outfile=" + dir.file("no_mpi.tga"));
  CHECK(no_mpi.status == 0);
  CHECK(no_mpi.err == "");
  CHECK(read_file(dir.file("no_mpi.tga")) == read_file(dir.file("mpi.tga")));

  // srun's tasks without PMI are not joined: each renders alone, and the MPI build says so.
  const CommandResult srun =
      run_command("SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=2 bin/splotch_mpi " + par + " outfile=" + dir.file("srun.tga"));
  CHECK(srun.status == 0);
  CHECK(srun.err.rfind("splotch: warning: started by srun as one of 2 tasks", 0) == 0);
  CHECK(read_file(dir.file("srun.tga")) == read_file(dir.file("mpi.tga")));
}

TEST_CASE("mpi: bin/splotch_mpi --serve under mpirun -np 1: Ctrl-C to the process stops the server, status 0") {
  if (!file_exists("bin/splotch_mpi") || run_command("command -v mpirun").status != 0) {
    MESSAGE("skipped: no bin/splotch_mpi or no mpirun (make deps MPI=1)");
    return;
  }
  TempDir dir;
  const std::string par = small_scene(dir), pid_file = dir.file("pid");
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t mpirun = ::fork();
  REQUIRE(mpirun >= 0);
  if (mpirun == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    // The shell gives the process's pid and becomes bin/splotch_mpi.
    const std::string command =
        "exec mpirun -q --allow-run-as-root --oversubscribe --bind-to none -np 1 sh -c 'echo $$ > " + pid_file +
        "; exec bin/splotch_mpi --serve " + par + " --port 0 outfile=" + dir.file("served.png") + "' 2>" +
        dir.file("err");
    ::execl("/bin/sh", "sh", "-c", command.c_str(), (char*)nullptr);
    ::_exit(127);
  }
  ::close(out[1]);
  std::string banner;
  char c;
  while (banner.find("above there.") == std::string::npos && ::read(out[0], &c, 1) == 1) banner += c;
  INFO(banner << read_file(dir.file("err")));
  REQUIRE(banner.find("above there.") != std::string::npos);  // serving
  const pid_t server = std::stoi(read_file(pid_file));
  ::kill(server, SIGINT);
  std::string rest;
  while (::read(out[0], &c, 1) == 1) rest += c;
  ::close(out[0]);
  int status = 0;
  ::waitpid(mpirun, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(rest.find("splotch: the server stopped") != std::string::npos);
}
