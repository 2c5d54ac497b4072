#include "io/read_snapshot.h"

#include <algorithm>
#include <stdexcept>

#include "errors/user_error.h"
#include "io/bonsai_reader.h"
#include "io/column_formats.h"
#include "io/column_reader.h"
#include "io/count_text.h"
#include "io/enzo_reader.h"
#include "io/enzo_run.h"
#include "io/fits_reader.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/hdf5_reader.h"
#include "io/hdf5_table_reader.h"
#include "io/input_file.h"
#include "io/mesh_reader.h"
#include "io/phantom_reader.h"
#include "io/ramses_output.h"
#include "io/ramses_reader.h"
#include "io/raw_reader.h"
#include "io/tipsy_file.h"
#include "io/tipsy_reader.h"
#include "io/visivo_reader.h"

namespace splotch {

ParticleSet read_snapshot(const SnapshotRequest& input, const ProgressCallback& progress) {
  switch (input.format) {
    case SnapshotFormat::raw_table:
    case SnapshotFormat::raw_blocks: return read_raw(input.path, input.raw, progress);
    case SnapshotFormat::gadget: return read_gadget(input.typed, progress);
    case SnapshotFormat::hdf5_table: return read_hdf5_table(input.table, progress);
    case SnapshotFormat::hdf5: return read_hdf5(input.typed, progress);
    case SnapshotFormat::tipsy: return read_tipsy(input.typed, progress);
    case SnapshotFormat::ramses:
    case SnapshotFormat::enzo:
    case SnapshotFormat::visivo:
    case SnapshotFormat::ascii:
    case SnapshotFormat::bonsai:
    case SnapshotFormat::mesh:
    case SnapshotFormat::fits:
    case SnapshotFormat::phantom:
      return particles_from_columns(load_columns(input, columns_wanted(input.typed), progress), input.typed);
    case SnapshotFormat::arrays: return particles_from_columns(*input.arrays, input.typed, progress, true);
    case SnapshotFormat::palette_only: break;
  }
  throw std::logic_error("read_snapshot: a request with no snapshot (simtype -1)");
}

std::vector<std::vector<std::uint64_t>> snapshot_file_counts(const SnapshotRequest& input) {
  if (input.typed.files.size() < 2 || !counts_per_file(input.format)) return {};
  return input.format == SnapshotFormat::gadget ? gadget_file_counts(input.typed) : hdf5_file_counts(input.typed);
}

int simtype_number(SnapshotFormat format) {
  switch (format) {
    case SnapshotFormat::palette_only: return -1;
    case SnapshotFormat::raw_table: return 0;
    case SnapshotFormat::raw_blocks: return 1;
    case SnapshotFormat::gadget: return 2;
    case SnapshotFormat::enzo: return 3;
    case SnapshotFormat::hdf5_table: return 7;
    case SnapshotFormat::hdf5: return 8;
    case SnapshotFormat::mesh: return 6;
    case SnapshotFormat::visivo: return 10;
    case SnapshotFormat::tipsy: return 11;
    case SnapshotFormat::ramses: return 13;
    case SnapshotFormat::bonsai: return 14;
    case SnapshotFormat::ascii: return 15;
    case SnapshotFormat::fits: return 16;
    case SnapshotFormat::phantom: return 20;
    case SnapshotFormat::arrays: return -2;  // (none: no parameter file names arrays)
  }
  return -1;
}

std::optional<SnapshotFormat> format_of_simtype(int simtype) {
  // The original's 5 reads raw blocks through MPI-IO, each process its share: the blocks reader
  // here, which shares them under MPI as it does every format.
  if (simtype == 5) return SnapshotFormat::raw_blocks;
  // 4, the Millennium run's format-1 files with HSML, DENS and VELDISP after the IDs: the Gadget
  // reader, which names those blocks so (io/gadget_file.h).
  if (simtype == 4) return SnapshotFormat::gadget;
  for (SnapshotFormat f :
       {SnapshotFormat::palette_only, SnapshotFormat::raw_table, SnapshotFormat::raw_blocks, SnapshotFormat::gadget,
        SnapshotFormat::hdf5_table, SnapshotFormat::hdf5, SnapshotFormat::tipsy, SnapshotFormat::ramses,
        SnapshotFormat::ascii, SnapshotFormat::fits, SnapshotFormat::phantom, SnapshotFormat::mesh,
        SnapshotFormat::bonsai, SnapshotFormat::enzo, SnapshotFormat::visivo})
    if (simtype_number(f) == simtype) return f;
  return std::nullopt;
}

const char* format_description(SnapshotFormat format) {
  switch (format) {
    case SnapshotFormat::palette_only: return "no snapshot (an image of the palettes)";
    case SnapshotFormat::raw_table: return "a raw table";
    case SnapshotFormat::raw_blocks: return "a raw file of blocks";
    case SnapshotFormat::gadget: return "a Gadget snapshot";
    case SnapshotFormat::hdf5_table: return "an HDF5 file of named datasets";
    case SnapshotFormat::hdf5: return "an HDF5 file";
    case SnapshotFormat::tipsy: return "a Tipsy snapshot";
    case SnapshotFormat::ramses: return "a RAMSES output";
    case SnapshotFormat::enzo: return "an Enzo output";
    case SnapshotFormat::ascii: return "an ASCII table";
    case SnapshotFormat::fits: return "a FITS file";
    case SnapshotFormat::mesh: return "a mesh file";
    case SnapshotFormat::visivo: return "a VisIVO table";
    case SnapshotFormat::bonsai: return "a Bonsai snapshot";
    case SnapshotFormat::phantom: return "a Phantom dump";
    case SnapshotFormat::arrays: return "arrays in memory";
  }
  return "";
}

std::optional<SnapshotFormat> detect_snapshot_format(const std::string& path) {
  if (is_ramses_output(path)) return SnapshotFormat::ramses;
  if (is_enzo_output(path)) return SnapshotFormat::enzo;
  if (is_visivo_table(path)) return SnapshotFormat::visivo;
  unsigned char b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  try {
    InputFile f(path);
    if (f.size() < 8) return std::nullopt;
    f.read_at(b, 8, 0);
  } catch (const UserError&) { return std::nullopt; }
  if (is_gadget_start(b)) return SnapshotFormat::gadget;
  if (is_phantom_dump(path)) return SnapshotFormat::phantom;
  if (is_fits_file(path)) return SnapshotFormat::fits;
  if (is_bonsai_file(path)) return SnapshotFormat::bonsai;
  if (is_hdf5_start(b, 8)) return SnapshotFormat::hdf5;
  if (is_tipsy_file(path)) return SnapshotFormat::tipsy;
  return std::nullopt;
}

std::string describe_snapshot(const std::string& path, SnapshotFormat format) {
  try {
    if (format == SnapshotFormat::gadget) {
      const GadgetFile f(path);
      return "a Gadget snapshot (format " + std::to_string(f.format()) + ", " +
             plural(std::uint64_t(std::max(f.header().num_files, 1)), "file") + ")";
    }
    if (format == SnapshotFormat::hdf5)
      return "an HDF5 snapshot (" + plural(std::uint64_t(Hdf5File(path).header().num_files), "file") + ")";
    if (format == SnapshotFormat::tipsy)
      return "a Tipsy snapshot (" + plural(TipsyFile(path).total(), "particle") + ")";
    if (format == SnapshotFormat::ramses) return "a " + ramses_outline(path).description;
    if (format == SnapshotFormat::enzo) return "an " + enzo_outline(path).description;
    if (format == SnapshotFormat::phantom) return "a " + phantom_outline(path).description;
    if (format == SnapshotFormat::fits) return "a " + fits_outline(path, FitsLayout{}).description;
    if (format == SnapshotFormat::bonsai) return "a " + bonsai_outline(path).description;
    if (format == SnapshotFormat::visivo) return "a " + visivo_outline(path, AsciiLayout{}).description;
  } catch (const UserError&) {  // a damaged one is still a snapshot (and not a parameter file)
  }
  return format_description(format);
}

}  // namespace splotch
