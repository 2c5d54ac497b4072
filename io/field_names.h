// The names of particle fields across simulation codes. A parameter file names a field by a
// Gadget binary block label (HSML, RHO, U, MASS, POS, VEL) or by an HDF5 dataset name (Gadget-3/4,
// AREPO, GIZMO: SmoothingLength, Density, ...; SWIFT: SmoothingLengths, Densities, ...); either
// works with either kind of file, so that one parameter file serves several codes.
#pragma once

#include <string>

namespace splotch {

// `name` in lower case (field names compare without case).
std::string lower_case(std::string name);

// The Gadget binary block label for `name` (any case): the label itself, or the block of an
// HDF5 dataset name; an unknown name comes back unchanged.
std::string gadget_block_label(const std::string& name);

}  // namespace splotch
