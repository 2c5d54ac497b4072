// A map's units (docs/maps.md, "Units"): what one code unit of its values is, from the snapshot's
// declared units (io/snapshot_units.h) or the parameter file's (map_unit_length, map_unit_mass,
// map_unit_velocity, in cgs), with comoving lengths made physical by the scale factor and 1/h taken
// out of the Gadget family's. Physical maps are in Msun, kpc and km/s.
#pragma once

#include <string>
#include <vector>

#include "io/snapshot_units.h"
#include "splotch/splat/map_view.h"

namespace splotch {

struct MapUnitOptions {
  bool physical = true;                                 // map_units = physical (else code)
  double length_cm = 0, mass_g = 0, velocity_cm_s = 0;  // given; 0: the file's
  double hubble = 0;                                    // map_hubble given; 0: the file's
};

// What the map's numbers are in.
struct MapUnits {
  bool physical = false;
  double length = 1;        // one code length is `length` length units (the map's axes: kpc, or code)
  std::string length_name;  // "kpc" or "code length"
  double value = 1;         // one code unit of the map's value is `value` of `value_name`
  std::string value_name;   // "Msun kpc^-2", "K", "code units of Temperature", ...
  std::string fits_unit;    // the same in the FITS standard's syntax ("solMass kpc-2"); empty in code units
  // The file's lengths: comoving (physical = a times code, a = scale_factor) or not, and in units/h
  // (hubble: that h) or not (0). A physical map has taken both out; a code map keeps them.
  bool comoving = false;
  double scale_factor = 1, hubble = 0;
  double snapshot_scale_factor =
      1;                 // the snapshot's a, whether or not its lengths are comoving (RAMSES', Enzo's are not)
  std::string quantity;  // what the map is of: "surface density of MASS", ...
  std::vector<std::string> notes;  // for the report: where each unit came from, what was missing
};

// The units of a map of `quantity` (weighted by `weight` for an average) drawn from a snapshot
// that declares `file`.
MapUnits map_units(MapMode mode, const std::string& quantity, const std::string& weight, const SnapshotUnits& file,
                   const MapUnitOptions& options);

}  // namespace splotch
