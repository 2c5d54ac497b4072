// What to read of a snapshot whose particles come in types (Gadget binary, HDF5, Tipsy): its
// files and, for each type of the render, which file type and which quantities. One request type
// for the three readers, so that one parameter file serves every format (the labels are Gadget
// block labels, HDF5 dataset names or Tipsy fields: io/field_names.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/read_region.h"
#include "io/read_share.h"

namespace splotch {

// A per-particle quantity taken from a block (or the constant 1 when `label` is empty).
struct QuantityRequest {
  std::string label;                // block label, or an HDF5 dataset name (io/field_names.h)
  float factor = 1.0f;              // multiplies the values
  std::optional<unsigned> present;  // the file types the block holds (bit t: type t); unset: from its size
};

// Smoothing lengths where the file has none (size_estimateN).
enum class SizeEstimate {
  none,    // size_fix, or the `size` quantity
  knn,     // from the distance to the k-th nearest neighbour, after reading (splotch/load/estimate_hsml.h)
  volume,  // (MASS / RHO)^(1/3), the size of an AREPO cell, as the file is read
};

// What of a render type a read plans: everything; only its colours and intensities (a browser
// chose other fields for the particles the server holds, splotch/load/values_reread.h: their
// positions and sizes are left unwritten); or nothing of it (its arrays are left unwritten).
enum class ReadPart { all, values, none };

// One type of the render.
struct RenderTypeRequest {
  int file_type = 0;      // ptypeN
  float size_fix = 1.0f;  // non-zero: every particle's smoothing length; 0: `size`
  QuantityRequest size, colour, intensity;
  bool vector_colour = false;                       // colour: three values per particle (VEL, say)
  SizeEstimate size_estimate = SizeEstimate::none;  // not none: `size` gives only the factor
  int neighbours = 32;                              // knn: particles within the smoothing length, itself included
  // size_estimateN = auto (the default where no size key is given) found smoothing lengths in the
  // file (`size`): they are taken unless they are one value for every particle, a softening or a
  // placeholder rather than SPH smoothing lengths, and then the knn estimate replaces them
  // (splotch/load/estimate_hsml.h).
  bool estimate_if_constant = false;
  bool estimate_chosen = false;  // size_estimate = auto chose `size_estimate` (the file has no smoothing lengths)
  // Interpolation between snapshots (interpolation_mode): 1 reads the particles' IDs too (the
  // block or dataset `id_label`, as integers; Tipsy has none), 2 their velocities as well.
  int motion = 0;
  std::string id_label = "ID";
  // A map (docs/maps.md): its values must be in the file (a label it lacks is an error, not drawn
  // with the absent default), and a slice's intensity is divided by `intensity_divisor` as read
  // (mass / density: each particle's volume).
  bool values_required = false;
  QuantityRequest intensity_divisor;
  ReadPart part = ReadPart::all;
};

struct TypedSnapshotRequest {
  std::vector<std::string> files;   // the snapshot's files, in order
  std::optional<bool> swap_endian;  // the byte order tried first (swap_endian); each file's own decides
  std::vector<RenderTypeRequest> types;
  ReadShare share;  // an MPI process's slice of each render type
  // The part of space the render needs, where it is known before reading (a given camera's view):
  // a snapshot that says where its particles lie (SWIFT's cells) is read only there.
  std::optional<ReadRegion> region;
};

}  // namespace splotch
