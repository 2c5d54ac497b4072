// The Gadget binary reader (simtype 2): formats 1 and 2, either byte order, 4- or 8-byte values,
// one file or many, the mass table or a MASS block, blocks that hold only some particle types.
// Each render type takes the particles of one file type (`ptypeN`) from every file; only the
// blocks the render needs are read, with large positioned reads straight into the particle
// arrays, in parallel, converting byte order and precision in place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/particle_set.h"
#include "io/read_share.h"
#include "io/progress.h"

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

// One type of the render.
struct RenderTypeRequest {
  int file_type = 0;      // ptypeN
  float size_fix = 1.0f;  // non-zero: every particle's smoothing length; 0: `size`
  QuantityRequest size, colour, intensity;
  bool vector_colour = false;  // colour: three values per particle (VEL, say)
  SizeEstimate size_estimate = SizeEstimate::none;  // not none: `size` gives only the factor
  int neighbours = 32;                              // knn: particles within the smoothing length, itself included
};

struct TypedSnapshotRequest {
  std::vector<std::string> files;   // the snapshot's files, in order
  std::optional<bool> swap_endian;  // the byte order tried first (swap_endian); each file's own decides
  std::vector<RenderTypeRequest> types;
  ReadShare share;                  // an MPI process's slice of each render type
};

// Particles grouped by render type (ParticleSet::type; empty for a single type), each type's in
// file order; the box size from the first file's header.
ParticleSet read_gadget(const TypedSnapshotRequest& options, const ProgressCallback& progress = {});

// The particles of each type in each file ([file][type], from the headers): what ReadShare's
// file_counts take.
std::vector<std::vector<std::uint64_t>> gadget_file_counts(const TypedSnapshotRequest& options);

}  // namespace splotch
