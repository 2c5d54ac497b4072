// libFuzzer harness for the Enzo reader's text (io/enzo_run.h): the hierarchy, as it is, beside a
// fixed parameter file. Any input must end in a tree of grids (and their leaf cells counted) or in
// a splotch::UserError; any other exception, a crash, a hang or a sanitizer report is a finding.
// The HDF5 data files are the HDF5 library's to parse (this harness is built without it, so a
// load ends in the error saying so).
//
// Built and run by tests/fuzz/run.sh. Seeds: a hierarchy of a root grid and two levels written here.
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "errors/user_error.h"
#include "io/enzo_reader.h"
#include "io/enzo_run.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace splotch;

const std::string& output_dir() { return fuzzing::snapshot_path("enzo"); }
std::string hierarchy_path() { return output_dir() + "/DD0001.hierarchy"; }

void remove_files() {
  std::remove(hierarchy_path().c_str());
  std::remove((output_dir() + "/DD0001").c_str());
  ::rmdir(output_dir().c_str());
}

std::string grid(int id, const char* dims, const char* end, const char* left, const char* right, int particles) {
  return "\nGrid = " + std::to_string(id) + "\nTask = 0\nGridRank = 3\nGridDimension = " + dims +
         "\nGridStartIndex = 3 3 3\nGridEndIndex = " + end + "\nGridLeftEdge = " + left + "\nGridRightEdge = " + right +
         "\nTime = 1\nNumberOfBaryonFields = 2\nBaryonFileName = ./DD0001/DD0001.cpu0000\nNumberOfParticles = " +
         std::to_string(particles) + "\nParticleFileName = ./DD0001/DD0001.cpu0000\n";
}

void write_seeds(const std::string& dir) {
  const std::string s = grid(1, "14 14 14", "10 10 10", "0 0 0", "1 1 1", 5) +
                        "Pointer: Grid[1]->NextGridThisLevel = 0\nPointer: Grid[1]->NextGridNextLevel = 2\n" +
                        grid(2, "10 10 10", "6 6 6", "0.5 0.5 0.5", "0.75 0.75 0.75", 0) +
                        "Pointer: Grid[2]->NextGridThisLevel = 3\nPointer: Grid[2]->NextGridNextLevel = 4\n" +
                        grid(3, "10 8 10", "6 4 6", "0 0 0", "0.25 0.125 0.25", 2) +
                        "Pointer: Grid[3]->NextGridThisLevel = 0\nPointer: Grid[3]->NextGridNextLevel = 0\n" +
                        grid(4, "10 10 10", "6 6 6", "0.5 0.5 0.5", "0.625 0.625 0.625", 1) +
                        "Pointer: Grid[4]->NextGridThisLevel = 0\nPointer: Grid[4]->NextGridNextLevel = 0\n"
                        "\nNumberOfStarParticles = 1\n";
  fuzzing::write(dir + "/seed0", reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  ::mkdir(output_dir().c_str(), 0755);
  const std::string parameters =
      "InitialTime = 1\nTopGridRank = 3\nTopGridDimensions = 8 8 8\nDomainLeftEdge = 0 0 0\nDomainRightEdge = 1 1 1\n"
      "LeftFaceBoundaryCondition = 3 3 3\nComovingCoordinates = 0\n";
  fuzzing::write(output_dir() + "/DD0001", reinterpret_cast<const std::uint8_t*>(parameters.data()), parameters.size());
  return fuzzing::initialize(argc, argv, write_seeds, hierarchy_path(), remove_files);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzzing::write(hierarchy_path(), data, size);
  try {
    const EnzoRun run = open_enzo_run(output_dir());
    std::uint64_t cells = 0;
    for (const EnzoGrid& g : run.grids) {
      cells += g.cells();
      if (g.level < 0 || g.level > int(run.grids.size())) std::abort();
      if (g.cells() <= (std::size_t(1) << 22)) {  // (the masks of small grids: their count agrees)
        const std::vector<std::uint8_t> covered = covered_cells(run, g);
        if (covered.size() != g.cells()) std::abort();
      }
    }
    if (enzo_leaf_cells(run) > cells) std::abort();
  } catch (const UserError&) {}
  try {
    enzo_outline(output_dir());
  } catch (const UserError&) {}
  return 0;
}
