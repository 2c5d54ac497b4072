#include "io/field_names.h"

#include <cctype>

namespace splotch {
namespace {

struct Alias {
  const char* dataset;  // lower case
  const char* block;
};

// Gadget-2/3/4, AREPO and GIZMO dataset names, and SWIFT's plural ones.
const Alias aliases[] = {
    {"coordinates", "POS"},
    {"velocities", "VEL"},
    {"particleids", "ID"},
    {"masses", "MASS"},
    {"internalenergy", "U"},
    {"internalenergies", "U"},
    {"density", "RHO"},
    {"densities", "RHO"},
    {"smoothinglength", "HSML"},
    {"smoothinglengths", "HSML"},
    {"electronabundance", "NE"},
    {"neutralhydrogenabundance", "NH"},
    {"starformationrate", "SFR"},
    {"starformationrates", "SFR"},
    {"stellarformationtime", "AGE"},
    {"metallicity", "Z"},
    {"metallicities", "Z"},
    {"potential", "POT"},
    {"potentials", "POT"},
    // Tipsy's record fields, so that a Tipsy parameter file's labels find the same fields
    // elsewhere (rho on an HDF5 snapshot finds Density).
    {"rho", "RHO"},
    {"hsmooth", "HSML"},
    {"pos", "POS"},
    {"vel", "VEL"},
    {"mass", "MASS"},
    {"temp", "TEMP"},
    {"temperature", "TEMP"},
    {"metals", "Z"},
    {"phi", "POT"},
};

}  // namespace

std::string lower_case(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string gadget_block_label(const std::string& name) {
  // (internal_energy and InternalEnergy alike: the names of RAMSES and Enzo columns have underscores)
  std::string key;
  for (const char c : lower_case(name))
    if (c != '_') key += c;
  for (const Alias& a : aliases)
    if (key == a.dataset || key == lower_case(a.block)) return a.block;  // (u and U, hsml and HSML alike)
  return name;
}

}  // namespace splotch
