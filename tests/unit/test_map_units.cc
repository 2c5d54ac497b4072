// The units of a map's quantity (splotch/stages/map_units.h): those its dataset names for itself
// (io/snapshot_units.h, FieldUnits: SWIFT's conversion factors and exponents, Gadget-4's to_cgs
// and scalings), as the HDF5 reader finds them in real files and as a map converts them.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "io/hdf5_file.h"
#include "splotch/stages/map_units.h"
#include "tests/support/test_support.h"

using namespace splotch;

namespace {

const FieldUnits& units_of(const SnapshotUnits& u, const std::string& name) {
  const FieldUnits* f = field_units(u, name);
  REQUIRE_MESSAGE(f != nullptr, name);
  return *f;
}

constexpr double msun_g = 1.98841e33, kpc_cm = 3.0856776e21, yr_s = 3.15576e7;

}  // namespace

TEST_CASE("map units: the HDF5 reader takes each dataset's own units, SWIFT's and Gadget-4's") {
  const std::string data = testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("per-dataset unit test skipped: ../shared/data is not beside this checkout");
    return;
  }
  {
    // Gadget-4: to_cgs and the scalings of mass, length and velocity, a and h.
    const SnapshotUnits u = Hdf5File(data + "/gadget4_lcdm_gas_snapshot_000.hdf5").header().units;
    const FieldUnits& v = units_of(u, "Velocities");
    CHECK(v.cgs == doctest::Approx(1e5));
    CHECK(v.a_exponent == doctest::Approx(0.5));
    CHECK(v.length == doctest::Approx(1));
    CHECK(v.time == doctest::Approx(-1));
    CHECK(v.mass == doctest::Approx(0));
    const FieldUnits& rho = units_of(u, "density");  // (names matched case aside)
    CHECK(rho.mass == doctest::Approx(1));
    CHECK(rho.length == doctest::Approx(-3));
    CHECK(rho.a_exponent == doctest::Approx(-3));
    CHECK(rho.h_exponent == doctest::Approx(2));
    CHECK(field_units(u, "ParticleIDs") == nullptr);  // (no units written for it)
    CHECK(units_of(u, "VEL").field == "Velocities");  // (a block label names the same dataset)
  }
  {
    // SWIFT 0.4: the CGS factor and the exponents only in the "Conversion factor" text.
    const SnapshotUnits u = Hdf5File(data + "/cmacionize_swift_test.hdf5").header().units;
    CHECK(u.code == "SWIFT");
    const FieldUnits& p = units_of(u, "Pressure");
    CHECK(p.cgs == doctest::Approx(10));
    CHECK(p.mass == doctest::Approx(1));
    CHECK(p.length == doctest::Approx(-1));
    CHECK(p.time == doctest::Approx(-2));
    const FieldUnits& s = units_of(u, "Entropy");
    CHECK(s.mass == doctest::Approx(-1.6667));
    CHECK(s.length == doctest::Approx(4));
  }
}

TEST_CASE("map units: a quantity in its dataset's own units is made physical and named") {
  SnapshotUnits file;
  file.code = "SWIFT";
  file.source = "the Units group";
  file.length_cm = kpc_cm;
  file.mass_g = msun_g;
  file.velocity_cm_s = 1e5;
  FieldUnits sfr;  // one Msun per year in each code unit
  sfr.field = "StarFormationRates";
  sfr.cgs = msun_g / yr_s;
  sfr.mass = 1;
  sfr.time = -1;
  FieldUnits speed;  // Gadget's velocities: physical = sqrt(a) times code, km/s
  speed.field = "Velocities";
  speed.cgs = 1e5;
  speed.a_exponent = 0.5;
  speed.length = 1;
  speed.time = -1;
  FieldUnits pressure;
  pressure.field = "Pressure";
  pressure.cgs = 10;
  pressure.mass = 1;
  pressure.length = -1;
  pressure.time = -2;
  FieldUnits entropy;
  entropy.field = "Entropy";
  entropy.cgs = 1000;
  entropy.mass = -1.6667;
  entropy.length = 4;
  entropy.time = -2;
  file.fields = {sfr, speed, pressure, entropy};
  const MapUnitOptions physical;

  const MapUnits average = map_units(MapMode::average, "StarFormationRates", "MASS", file, physical);
  CHECK(average.value == doctest::Approx(1).epsilon(1e-9));
  CHECK(average.value_name == "Msun yr^-1");
  CHECK(average.fits_unit == "solMass yr-1");
  const MapUnits column = map_units(MapMode::column, "StarFormationRates", "", file, physical);
  CHECK(column.value == doctest::Approx(1).epsilon(1e-9));  // (one code length is a kpc)
  CHECK(column.value_name == "Msun kpc^-2 yr^-1");
  CHECK(column.fits_unit == "solMass kpc-2 yr-1");

  SnapshotUnits comoving = file;
  comoving.comoving = true;
  comoving.scale_factor = 0.25;
  const MapUnits v = map_units(MapMode::average, "Velocities", "MASS", comoving, physical);
  CHECK(v.value == doctest::Approx(0.5));
  CHECK(v.value_name == "(km/s)");
  CHECK(v.fits_unit == "km s-1");

  const MapUnits p = map_units(MapMode::average, "Pressure", "MASS", file, physical);
  CHECK(p.value == doctest::Approx(10));
  CHECK(p.value_name == "g cm^-1 s^-2");
  CHECK(p.fits_unit == "g cm-1 s-2");
  const MapUnits s = map_units(MapMode::average, "Entropy", "MASS", file, physical);
  CHECK(s.value == doctest::Approx(1000));
  CHECK(s.value_name == "g^-1.6667 cm^4 s^-2");
  CHECK(s.fits_unit.empty());  // (no FITS unit for a fractional power)

  // The file's units replaced by map_unit_*: the dataset's factor (in the file's units) is not used.
  MapUnitOptions given;
  given.length_cm = 2 * kpc_cm;
  const MapUnits replaced = map_units(MapMode::average, "StarFormationRates", "MASS", file, given);
  CHECK(replaced.value == 1);
  CHECK(replaced.value_name == "code units of StarFormationRates");

  // Code units: as the file holds them, whatever the dataset says.
  MapUnitOptions code;
  code.physical = false;
  const MapUnits c = map_units(MapMode::average, "StarFormationRates", "MASS", file, code);
  CHECK(c.value == 1);
  CHECK(c.value_name == "code units of StarFormationRates");
}

TEST_CASE("map units: the columns of cell formats by their names (Enzo's x-velocity, Metal_Density; internal_energy)") {
  SnapshotUnits enzo;
  enzo.code = "Enzo";
  enzo.length_cm = 1000 * kpc_cm;
  enzo.mass_g = 1e10 * msun_g;
  enzo.velocity_cm_s = 2e5;
  enzo.scale_factor = 0.5;  // (a cosmological run whose lengths are proper: no comoving factor)
  const MapUnitOptions physical;
  const MapUnits v = map_units(MapMode::average, "x-velocity", "MASS", enzo, physical);
  CHECK(v.value == doctest::Approx(2));
  CHECK(v.value_name == "(km/s)");
  const MapUnits metals = map_units(MapMode::average, "Metal_Density", "MASS", enzo, physical);
  CHECK(metals.value == doctest::Approx(1e10 / 1e9));
  CHECK(metals.value_name == "Msun kpc^-3");
  const MapUnits u = map_units(MapMode::average, "internal_energy", "MASS", enzo, physical);
  CHECK(u.value == doctest::Approx(4));
  CHECK(u.value_name == "(km/s)^2");
  const MapUnits side = map_units(MapMode::average, "cell_size", "MASS", enzo, physical);
  CHECK(side.value == doctest::Approx(1000));
  CHECK(side.value_name == "kpc");
  CHECK(v.snapshot_scale_factor == doctest::Approx(0.5));
  CHECK(v.scale_factor == doctest::Approx(1));
}
