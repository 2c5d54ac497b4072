// The original Splotch's generic HDF5 reader (simtype 7): particles as the rows of datasets that
// the parameter file names, not a Gadget-layout snapshot. Either one 1-D dataset per field
// (`x = PosX`, paths from the file's root, "/group/name" allowed), or the members of one compound
// dataset (`is_compound_data = TRUE`, `dataset_name = galaxies`, `x = position_x`), whose rows may
// be selected by an integer member (`snapshot = snapshot`) equal to `snapshotID`, as semi-analytic
// galaxy catalogues store many snapshots in one table. Any stored number type is converted to
// float by the library.
//
// Fields without a name take the original's defaults: smoothing length `smooth_param`, intensity
// 0.5, colour 1 (green and blue 0); `thresh` is added to the colour values read from the file (not
// to those defaults), as the original does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/read_share.h"

namespace splotch {

struct Hdf5TableOptions {
  std::string path;
  // Dataset names, or member names of the compound dataset; empty: absent.
  std::string x, y, z, hsml, intensity, colour[3];
  bool vector_colour = false;  // colour[1] and colour[2] are read (absent: 0)
  bool compound = false;
  std::string dataset;         // the compound dataset (dataset_name)
  std::string snapshot_field;  // the compound member selecting rows; empty: every row
  std::int64_t snapshot_id = 0;
  float hsml_absent = 1.0f;       // smooth_param
  float intensity_absent = 0.5f;  // I where no dataset is named (a map's amount per particle: 1)
  float colour_offset = 0.0f;     // thresh, added to every colour value read
  ReadShare share;                // an MPI process's slice of the (selected) rows
};

// Every particle is of type 0; box_size is 0 (the file says nothing of a periodic box). A missing
// dataset or member, a wrong rank or row count, or a file that is not HDF5: UserError naming the
// file, the key and what the file has instead.
ParticleSet read_hdf5_table(const Hdf5TableOptions& options, const ProgressCallback& progress = {});

// The distinct values of the compound dataset's `snapshot_field`, ascending, with their row counts
// (the original's print_snapIDs_in_file_ONLY).
std::vector<std::pair<std::int64_t, std::size_t>> hdf5_table_snapshot_ids(const Hdf5TableOptions& options);

// Whether an HDF5 file is laid out as a Gadget-style snapshot (a Header group and PartType<t>
// groups): simtype 7 then reads it as simtype 8 does. False for a file that is not HDF5.
bool is_gadget_layout_hdf5(const std::string& path);

}  // namespace splotch
