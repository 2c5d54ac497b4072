// What a snapshot of particle types (Gadget binary, HDF5, Tipsy) offers a picture, from its
// headers and field lists alone (no particle is read): how many particles of each type, and
// which of them carry smoothing lengths, densities and masses. A parameter file that leaves the
// smoothing lengths out, and a picture made from a snapshot with no parameter file at all, choose
// from this what a user would have chosen (splotch/settings/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/column_snapshot.h"
#include "io/snapshot_request.h"

namespace splotch {

// The usual meaning of a Gadget/HDF5 type number (AREPO, GIZMO, SWIFT and Gadget agree on 0 gas,
// 1 dark matter and 4 stars); "type N" for the others.
std::string gadget_type_name(int t);

struct TypeSurvey {
  int file_type = 0;
  std::string name;         // "gas", "dark matter", "stars", "type 3", ... for a user
  std::uint64_t count = 0;  // over all the files
  std::string smoothing;    // the label of its smoothing lengths (HSML, SmoothingLength, an aux array), or ""
  std::string density;      // of its densities (RHO, Density, rho), or ""
  bool has_mass = false;    // a mass per particle (a field or the mass table)
  // The smoothing lengths are the sizes of cells (RAMSES), right even where all are alike (a
  // uniform grid), so not replaced by an estimate as a constant HSML would be.
  bool cell_sizes = false;
  // A field that a picture's intensity should take so that brightness follows the gas's column
  // (cells: mass_over_h, as the classic kernel divides a splat's light by h: a uniform density
  // then lights cells of every level alike), or "".
  std::string brightness;
};

struct SnapshotSurvey {
  SnapshotFormat format = SnapshotFormat::gadget;
  std::vector<TypeSurvey> types;  // every type the header knows of, with or without particles
  double time = 0;                // the header's time (a scale factor in cosmological runs)
  bool cosmological = false;      // the header gives a redshift other than 0, or the time is one
  double box_size = 0;
  int dimensions = 3;  // 2: every particle in z = 0 (a 2-D RAMSES run)

  const TypeSurvey* type(int file_type) const;
  // The type a picture draws first: gas where the snapshot has any, else the most numerous.
  const TypeSurvey* main_type() const;
};

// A snapshot held as columns (RAMSES, Phantom, ASCII tables) from its outline.
SnapshotSurvey survey_columns(SnapshotFormat format, const ColumnSnapshot& outline);

// `files`: the snapshot's files (the first's header and fields, all files' counts);
// `swap_endian`: the first guess of the byte order (Gadget, Tipsy).
SnapshotSurvey survey_snapshot(SnapshotFormat format, const std::vector<std::string>& files,
                               std::optional<bool> swap_endian = std::nullopt);

}  // namespace splotch
