// What to read: the snapshot's format and, for that format, its reader's request. The parameter
// file's simtype numbers the formats as the original does; everywhere else they are named.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/ascii_reader.h"
#include "io/column_snapshot.h"
#include "io/fits_reader.h"
#include "io/hdf5_table_reader.h"
#include "io/mesh_reader.h"
#include "io/raw_reader.h"
#include "io/typed_snapshot_request.h"

namespace splotch {

enum class SnapshotFormat {
  palette_only,  // no snapshot: an image of the palettes (the original's show_palette.par), simtype -1
  raw_table,     // simtype 0: rows of floats
  raw_blocks,    // simtype 1: one block of floats per quantity
  gadget,        // simtype 2: Gadget binary, formats 1 and 2
  enzo,          // simtype 3: an Enzo output (io/enzo_reader.h)
  hdf5_table,    // simtype 7: HDF5 datasets named by the parameter file
  hdf5,          // simtype 8: Gadget-layout HDF5 (Gadget, AREPO, GIZMO, SWIFT); a simtype 7 file without names too
  mesh,          // simtype 6: a regular grid of float32 blocks (io/mesh_reader.h)
  visivo,        // simtype 10: a VisIVO Binary Table (io/visivo_reader.h)
  tipsy,         // simtype 11
  ramses,        // simtype 13: an output directory (io/ramses_reader.h)
  bonsai,        // simtype 14: a Bonsai snapshot (io/bonsai_reader.h)
  ascii,         // simtype 15: a text table (io/ascii_reader.h)
  fits,          // simtype 16: a FITS image (a point per voxel) or table (io/fits_reader.h)
  phantom,       // simtype 20: a Phantom dump, binary or HDF5 (io/phantom_reader.h)
  arrays,        // no simtype: arrays a caller holds in memory (the Python module; io/memory_arrays.h)
};

// The original's simtype of a format, and the format of a simtype (none for a number with no reader).
int simtype_number(SnapshotFormat format);
std::optional<SnapshotFormat> format_of_simtype(int simtype);
// "a Gadget snapshot", "an HDF5 file", ... for messages.
const char* format_description(SnapshotFormat format);
// Whether the format's particles come in types, read through a TypedSnapshotRequest (and may have
// several files).
inline bool has_particle_types(SnapshotFormat f) {
  return f == SnapshotFormat::gadget || f == SnapshotFormat::hdf5 || f == SnapshotFormat::tipsy ||
         f == SnapshotFormat::ramses || f == SnapshotFormat::phantom || f == SnapshotFormat::ascii ||
         f == SnapshotFormat::fits || f == SnapshotFormat::mesh || f == SnapshotFormat::bonsai ||
         f == SnapshotFormat::enzo || f == SnapshotFormat::visivo || f == SnapshotFormat::arrays;
}
// Whether the format's reader delivers a snapshot of columns (io/column_formats.h).
inline bool reads_columns(SnapshotFormat f) {
  return f == SnapshotFormat::ramses || f == SnapshotFormat::phantom || f == SnapshotFormat::ascii ||
         f == SnapshotFormat::fits || f == SnapshotFormat::mesh || f == SnapshotFormat::bonsai ||
         f == SnapshotFormat::enzo || f == SnapshotFormat::visivo;
}
// Whether the headers of a snapshot of several files count each file's particles (Gadget, HDF5).
inline bool counts_per_file(SnapshotFormat f) { return f == SnapshotFormat::gadget || f == SnapshotFormat::hdf5; }
inline bool reads_hdf5(SnapshotFormat f) { return f == SnapshotFormat::hdf5 || f == SnapshotFormat::hdf5_table; }

struct SnapshotRequest {
  SnapshotFormat format = SnapshotFormat::raw_table;
  std::string path;            // the snapshot file, resolved (the first, when there are several)
  RawOptions raw;              // raw_table, raw_blocks
  Hdf5TableOptions table;      // hdf5_table
  TypedSnapshotRequest typed;  // gadget, hdf5, tipsy, ramses, phantom, ascii: the files and what to read of each type
  AsciiLayout ascii;           // ascii, visivo: the positions' (and smoothing lengths') columns
  FitsLayout fits;             // fits: a table's positions, an image's slices
  MeshLayout mesh;             // mesh: the grid and its blocks
  // arrays: the caller's particles, as columns that use its memory in place (path: their name).
  std::shared_ptr<const ColumnSnapshot> arrays;
  bool periodic = true;
  int ptypes = 1;
  int dimensions = 3;  // 2: a 2-D run, in z = 0 (RAMSES)
  // A quick preview (boost_fraction < 1): the share of the particles kept, chosen by position
  // (splotch/load/preview_subset.h); 1 reads and keeps every particle.
  double keep_fraction = 1.0;
  std::vector<std::string> notes;     // for the run's report, e.g. a swap_endian that the file overruled
  std::vector<std::string> warnings;  // e.g. numfiles = 1 for a snapshot of several files
  std::string nothing_to_draw;        // why no render type has particles in the snapshot ("" when some do)
};

}  // namespace splotch
