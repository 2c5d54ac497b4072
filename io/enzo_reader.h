// The Enzo reader (simtype 3): an output of Enzo 2's packed AMR (DD0018/: the parameter file, the
// text hierarchy and the HDF5 data files). The gas is the leaf cells of the grid hierarchy (each
// cell of a grid that no finer grid covers), a particle at the cell's centre with twice the
// cell's side as smoothing length (as RAMSES' cells, so that a uniform grid's map sums flat) and
// the density times the cell's volume as mass, with every baryon field of the file by its Enzo
// name (Density, x-velocity, TotalEnergy, Temperature, ...); the particles of every grid by
// particle_type (dark matter, stars, ...), their particle_mass (a density in the file) times the
// cell volume of their grid, as Enzo defines it. Positions and lengths in code units (the domain,
// usually 0 to 1), whose cgs the parameter file gives (io/enzo_run.h).
//
// File types: 0 gas (leaf cells), then Enzo's particle_type numbers: 1 dark matter, 2 stars,
// 3 tracers, 4 must-refine particles, 5 single stars, 6 black holes, 7 star clusters, 8 massive
// black holes, 9 colour stars, 10 simple sources; 11 particles of any other type.
#pragma once

#include <string>

#include "io/column_snapshot.h"
#include "io/progress.h"

namespace splotch {

constexpr int enzo_types = 12;
const char* enzo_type_name(int file_type);

// Every type's count and the names of its columns, from the hierarchy and one data file's list of
// datasets (no values): the leaf cells exactly, the particles as the hierarchy counts them (its
// NumberOfStarParticles as stars, the others as dark matter; a load counts them by type).
ColumnSnapshot enzo_outline(const std::string& path);

// The types and columns `wanted` asks for; an MPI process's share by whole grids.
ColumnSnapshot load_enzo(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress = {});

}  // namespace splotch
