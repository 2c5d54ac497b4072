// The units a snapshot declares (or its code implies), for quantitative maps (docs/maps.md): what
// one code unit of length, mass and velocity is in cgs, whether lengths and masses carry 1/h and
// positions are comoving, and the SPH kernel the code wrote with. A reader fills what its file
// says; what it cannot know stays unknown (0, empty), and the map's settings say what was taken.
#pragma once

#include <string>
#include <vector>

namespace splotch {

// One field's units as its own dataset says (SWIFT's "CGS conversion factor" and exponents,
// Gadget-4's and AREPO's to_cgs and scalings): physical cgs = code x cgs x a^a_exponent x
// h^h_exponent, in g^mass cm^length s^time K^temperature.
struct FieldUnits {
  std::string field;  // the dataset's name
  double cgs = 0;
  double a_exponent = 0, h_exponent = 0;
  double mass = 0, length = 0, time = 0, temperature = 0;
};

struct SnapshotUnits {
  std::string code;    // the code family, for the report and the kernel's convention: "Gadget", "SWIFT", "Tipsy", ...
  std::string source;  // where the units came from: "Header/Units attributes", "Gadget's defaults", ...
  double length_cm = 0, mass_g = 0, velocity_cm_s = 0;  // one code unit in cgs; 0: unknown
  double hubble = 0;                                    // h of the run (HubbleParam); 0: none given
  bool h_scaled = false;    // lengths in units/h and masses in units/h (the Gadget family); SWIFT: not
  bool comoving = false;    // positions (and lengths) comoving: physical = a times code
  double scale_factor = 1;  // a, where comoving
  // The SPH kernel the file names (SWIFT's HydroScheme "Kernel function") and the ratio of its
  // support to the smoothing lengths written (SWIFT's "Kernel gamma"; 0: not written).
  std::string kernel;
  double kernel_gamma = 0;
  std::vector<FieldUnits> fields;  // the datasets that name their units (the lowest type's, per name)
};

// The units `file` declares for the field named `name` (case aside); nullptr where it declares none.
const FieldUnits* field_units(const SnapshotUnits& file, const std::string& name);

// A binary Gadget file's units: it writes none, so Gadget's defaults (1 kpc/h, 1e10 Msun/h, 1 km/s),
// which a parameter file overrides (map_unit_length ...); cosmological where the redshift is
// 1 / time - 1 of a run with Omega0 > 0.
SnapshotUnits gadget_default_units(double hubble, double omega0, double time, double redshift);

// "units: 1 length = 3.086e+21 cm, 1 mass = 1.989e+43 g, 1 velocity = 1e+05 cm/s, h = 0.7 (lengths
// and masses in units/h), comoving (a = 0.166), from ...; kernel: ..." for --info.
std::string units_description(const SnapshotUnits& u);

}  // namespace splotch
