// Whether an MPI launcher started this process, from the variables launchers set in each
// process's environment: the MPI build starts MPI only then, so that started by hand it costs
// what the default build costs (MPI_Init alone, as a singleton, took 0.35 s on 2 cores and 0.55 s
// on the H100 node, even for --version).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace splotch {

// A variable's value, or nullptr where it is not set (std::getenv's contract).
using Environment = std::function<const char*(const char*)>;

struct Launch {
  // The variable that says a launcher started the process ("" for none).
  std::string by;
  // Why a launch that looks like one of several tasks is not joined into one job (srun without
  // PMI: each task would run alone), "" when nothing is amiss.
  std::string warning;
  // Variables to set before MPI starts, where the user has not: Open MPI's transport between
  // processes (OMPI_MCA_pml = ob1) for a job of one node, whose processes meet in shared memory.
  // Open MPI's own choice tries the network's first (UCX, libfabric, PSM: 0.2 s of a 0.23 s
  // MPI_Init on 2 cores here and on the 2 x H200 node); across nodes it is kept.
  std::vector<std::pair<std::string, std::string>> settings;
};

Launch mpi_launch(const Environment& environment);

}  // namespace splotch
