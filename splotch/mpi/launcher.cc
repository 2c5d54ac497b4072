#include "splotch/mpi/launcher.h"

#include <cstdlib>
#include <string>

namespace splotch {
namespace {

// Each set in every process a launcher starts: Open MPI's mpirun (and prterun, Open MPI 5),
// PMIx servers (Slurm's srun --mpi=pmix, PRRTE), PMI-1 and PMI-2 (MPICH's and Intel MPI's Hydra,
// srun --mpi=pmi2), Hydra's own, MVAPICH2's mpirun_rsh, Cray's PALS (aprun's successor) and ALPS,
// Flux.
constexpr const char* launcher_variables[] = {
    "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",           "PMI_RANK",    "PMI_SIZE",    "PMI_FD",
    "MPI_LOCALRANKID",      "MV2_COMM_WORLD_RANK", "PALS_RANKID", "ALPS_APP_PE", "FLUX_TASK_RANK"};

int count(const char* text) { return text ? std::atoi(text) : 0; }

}  // namespace

Launch mpi_launch(const Environment& environment) {
  Launch launch;
  // SPLOTCH_MPI = 1 or 0 decides where a launcher sets none of these (or to start MPI alone).
  if (const char* forced = environment("SPLOTCH_MPI")) {
    if (std::string(forced) == "1") launch.by = "SPLOTCH_MPI";
    if (std::string(forced) == "1" || std::string(forced) == "0") return launch;
  }
  for (const char* name : launcher_variables)
    if (environment(name)) {
      launch.by = name;
      // Open MPI's processes all on one node (its launcher counts those of the node).
      const int size = count(environment("OMPI_COMM_WORLD_SIZE"));
      if (size > 0 && count(environment("OMPI_COMM_WORLD_LOCAL_SIZE")) == size && !environment("OMPI_MCA_pml"))
        launch.settings.push_back({"OMPI_MCA_pml", "ob1"});
      return launch;
    }
  // srun sets these for every task, MPI or not; without a process-management interface the tasks
  // cannot find each other.
  const int tasks = count(environment("SLURM_STEP_NUM_TASKS"));
  if (environment("SLURM_PROCID") && tasks > 1)
    launch.warning = "started by srun as one of " + std::to_string(tasks) +
                     " tasks, without an MPI process-management interface: each task renders alone "
                     "(srun --mpi=pmix joins them into one MPI job; SPLOTCH_MPI=1 starts MPI all the same)";
  return launch;
}

}  // namespace splotch
