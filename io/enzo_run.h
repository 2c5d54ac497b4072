// An Enzo output's text files (simtype 3): the parameter file (DD0018/DD0018: TopGridRank, the
// domain, the cosmology and units) and the text hierarchy (DD0018.hierarchy: every grid's edges,
// active cells, files and particle count, and the pointers that make the grids a tree). From them
// alone it is known which cells of each grid are leaves (not covered by a finer grid), so --info
// and the survey count the cells before a byte of data is read. The HDF5 data files are
// io/enzo_data_file.h's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace splotch {

struct EnzoGrid {
  int id = 0;  // "Grid = N", from 1
  int rank = 3;
  int level = 0;
  std::array<int, 3> dims{1, 1, 1};                 // GridDimension, ghost zones included
  std::array<int, 3> start{0, 0, 0}, end{0, 0, 0};  // GridStartIndex, GridEndIndex: the active cells
  std::array<double, 3> left{0, 0, 0}, right{1, 1, 1};
  int baryon_fields = 0;
  std::string baryon_file, particle_file;  // as the hierarchy writes them ("./DD0018/DD0018.cpu0000")
  std::uint64_t particles = 0;
  std::vector<int> children;  // the grids one level down inside this one, by id

  int active(int d) const { return d < rank ? end[std::size_t(d)] - start[std::size_t(d)] + 1 : 1; }
  std::size_t cells() const { return std::size_t(active(0)) * std::size_t(active(1)) * std::size_t(active(2)); }
  double width(int d) const;  // a cell's side along d (1 beyond the rank, as the domain's)
  double volume() const;      // a cell's volume (the product over the rank's axes), code units
};

struct EnzoRun {
  std::string parameter_path, hierarchy_path;
  std::string directory;                          // of the hierarchy, with a trailing '/'
  std::string name;                               // "DD0018"
  std::map<std::string, std::string> parameters;  // every "key = value" line of the parameter file
  int rank = 3;
  std::array<int, 3> top_dims{1, 1, 1};
  std::array<double, 3> domain_left{0, 0, 0}, domain_right{1, 1, 1};
  double time = 0;  // InitialTime, code units
  bool cosmological = false;
  double redshift = -1, hubble = 0;  // CosmologyCurrentRedshift, CosmologyHubbleConstantNow
  int hydro_method = -1;
  bool dual_energy = false, periodic = false;
  double gamma = 0;
  // One code unit in cgs (Enzo's CosmologyGetUnits for a cosmological run, which makes the length
  // proper at the output's redshift; else LengthUnits, DensityUnits or MassUnits, TimeUnits); 0: not given.
  double length_cm = 0, mass_g = 0, time_s = 0, velocity_cm_s = 0;
  std::vector<EnzoGrid> grids;  // in the hierarchy's order
  std::uint64_t star_particles = 0;
  bool star_count_known = false;  // the hierarchy's NumberOfStarParticles

  const std::string* parameter(const std::string& key) const;
  // The data file a grid names, on disk: its name in this output's directory (where the run's
  // outputs were moved), else as written relative to the run's directory (the output's parent).
  std::string data_path(const std::string& as_written) const;
  int max_level() const;
  const EnzoGrid* grid(int id) const;
};

// Whether `path` names an Enzo output: its directory, its parameter file, its hierarchy or one of
// its data files (DD0018.cpu0000), beside which lies the parameter file and NAME.hierarchy.
bool is_enzo_output(const std::string& path);

// The output `path` names; an error says what is missing or which line is not Enzo's.
EnzoRun open_enzo_run(const std::string& path);

// For each active cell of `g` (x fastest), 1 where a child grid covers the cell's centre.
std::vector<std::uint8_t> covered_cells(const EnzoRun& run, const EnzoGrid& g);

// The leaf cells of the whole hierarchy.
std::uint64_t enzo_leaf_cells(const EnzoRun& run);

}  // namespace splotch
