#include "splotch/stages/map_units.h"

#include <cmath>
#include <cstdio>

#include "io/field_names.h"

namespace splotch {
namespace {

constexpr double msun_g = 1.98841e33, kpc_cm = 3.0856776e21, km_s_cm = 1e5;

// A quantity's dimensions: powers of mass, length and velocity (and a unit of its own, such as
// K, which no code unit changes). Known by its Gadget label (io/field_names.h) or its name.
struct Dimensions {
  int mass = 0, length = 0, velocity = 0;
  bool known = false;
  std::string own;  // "K": not converted
};

Dimensions dimensions_of(const std::string& label) {
  const std::string block = gadget_block_label(label), lower = lower_case(label);
  if (block == "MASS") return {1, 0, 0, true, ""};
  if (block == "RHO") return {1, -3, 0, true, ""};
  if (block == "U") return {0, 0, 2, true, ""};
  if (block == "HSML") return {0, 1, 0, true, ""};
  if (block == "TEMP" || lower == "temperatures") return {0, 0, 0, true, "K"};
  if (lower == "particles") return {0, 0, 0, true, ""};  // (a count: a raw file's map without I)
  return {};
}

// The dimensions of a field that no dataset's units name, by its name alone: the columns of the
// formats read as cells (RAMSES' velocity_x, Enzo's x-velocity, particle_velocity_x, its species'
// and metals' HI_Density, Metal_Density; cell_size).
Dimensions named_dimensions(const std::string& label) {
  const std::string block = gadget_block_label(label), lower = lower_case(label);
  if (lower == "cell_size") return {0, 1, 0, true, ""};
  if (lower == "level" || lower == "levelp") return {0, 0, 0, true, ""};  // (a refinement level: a number)
  if (block == "VEL" || lower.find("velocity") != std::string::npos) return {0, 0, 1, true, ""};
  if (lower.size() > 8 && lower.compare(lower.size() - 8, 8, "_density") == 0) return {1, -3, 0, true, ""};
  return {};
}

std::string power(const char* name, int p) {
  if (p == 0) return "";
  return std::string(name) + (p == 1 ? "" : "^" + std::to_string(p));
}
// The FITS standard's form (its section 4.3: a power follows the unit's name, "kpc-2").
std::string fits_power(const char* name, int p) {
  if (p == 0) return "";
  return std::string(name) + (p == 1 ? "" : std::to_string(p));
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string joined(const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + " " + b; }

std::string exponent_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", p);
  return text;
}
std::string power_of(const char* name, double p) {
  return p == 0 ? "" : p == 1 ? std::string(name) : std::string(name) + "^" + exponent_text(p);
}
std::string fits_power_of(const char* name, double p) {
  return p == 0 ? "" : p == 1 ? std::string(name) : std::string(name) + exponent_text(p);
}

// A quantity whose dataset names its units (io/snapshot_units.h, FieldUnits), made physical: in
// Msun, kpc, km/s or yr, and K, where its powers are whole numbers (see below); else in cgs.
// `area` is the column's -2 (per area), 0 otherwise; u.length already holds one code length in kpc.
void field_value(MapUnits& u, const FieldUnits& f, double h, int area) {
  const double cgs = f.cgs * std::pow(u.scale_factor, f.a_exponent) * std::pow(h, f.h_exponent);
  auto whole = [](double p) { return std::fabs(p - std::round(p)) < 1e-6; };
  std::string name, fits;
  const double m = std::round(f.mass), l = std::round(f.length), t = std::round(f.time), T = std::round(f.temperature);
  // Time as km/s where it makes velocities (L t^-1, L^2 t^-2: speeds, specific energies), in years
  // for rates (M t^-1: a star formation rate), else (pressures, accelerations) all in cgs.
  const bool velocity = t < 0 && l + t >= 0;
  if (whole(f.mass) && whole(f.length) && whole(f.time) && whole(f.temperature) && (t == 0 || velocity || l == 0)) {
    const double v = velocity ? -t : 0, length = velocity ? l + t : l, years = velocity ? 0 : t;
    constexpr double yr_s = 3.15576e7;
    u.value = cgs / (std::pow(msun_g, m) * std::pow(kpc_cm, length) * std::pow(km_s_cm, v) * std::pow(yr_s, years)) *
              std::pow(u.length, area);
    name = joined(joined(joined(power_of("Msun", m), power_of("kpc", length + area)), power_of("(km/s)", v)),
                  joined(power_of("yr", years), power_of("K", T)));
    fits = joined(joined(joined(fits_power_of("solMass", m), fits_power_of("kpc", length + area)),
                         joined(fits_power_of("km", v), fits_power_of("s", -v))),
                  joined(fits_power_of("yr", years), fits_power_of("K", T)));
  } else {
    u.value = cgs * std::pow(u.length * kpc_cm, area);
    name = joined(joined(power_of("g", f.mass), power_of("cm", f.length + area)),
                  joined(power_of("s", f.time), power_of("K", f.temperature)));
    if (whole(f.mass) && whole(f.length) && whole(f.time) && whole(f.temperature))
      fits = joined(joined(fits_power_of("g", m), fits_power_of("cm", l + area)),
                    joined(fits_power_of("s", t), fits_power_of("K", T)));
  }
  u.value_name = name.empty() ? "dimensionless" : name;
  u.fits_unit = fits;
  u.notes.push_back("units: " + f.field + " from its dataset's own attributes: 1 code unit = " + number(cgs) +
                    " in cgs (with the scale factor's and h's powers)");
}

}  // namespace

MapUnits map_units(MapMode mode, const std::string& quantity, const std::string& weight, const SnapshotUnits& file,
                   const MapUnitOptions& o) {
  MapUnits u;
  Dimensions d = dimensions_of(quantity);
  if (!d.known && !field_units(file, quantity)) d = named_dimensions(quantity);
  // A column sums the quantity per area; an average and a slice keep its own units.
  const int area = mode == MapMode::column ? -2 : 0;
  u.quantity = mode == MapMode::column    ? "column of " + quantity + " (per area)"
               : mode == MapMode::average ? weight + "-weighted average of " + quantity
                                          : quantity + " in the plane through lookat";
  const double length_cm = o.length_cm > 0 ? o.length_cm : file.length_cm;
  const double mass_g = o.mass_g > 0 ? o.mass_g : file.mass_g;
  const double velocity = o.velocity_cm_s > 0 ? o.velocity_cm_s : file.velocity_cm_s;
  const double h = o.hubble > 0 ? o.hubble : file.hubble;
  const bool lengths_known = length_cm > 0 && (!file.h_scaled || h > 0);
  u.comoving = file.comoving;
  u.scale_factor = file.comoving ? file.scale_factor : 1.0;
  u.snapshot_scale_factor = file.scale_factor;
  u.hubble = file.h_scaled ? h : 0;
  if (!o.physical || !lengths_known) {
    if (o.physical)
      u.notes.push_back(
          std::string("map_units = physical: the file declares no ") +
          (length_cm > 0 ? "h (HubbleParam), give map_hubble" : "length unit, give map_unit_length (cm)") +
          "; the map is in code units");
    u.length_name = "code length";
    const std::string q = d.known && !d.own.empty() ? d.own : "code units of " + quantity;
    u.value_name = area ? q + " per code length^2" : q;
    return u;
  }
  u.physical = true;
  const double a = u.scale_factor;
  const double hinv = file.h_scaled ? 1.0 / h : 1.0;
  u.length = a * length_cm * hinv / kpc_cm;
  u.length_name = "kpc";
  const std::string h_out = file.h_scaled ? ", 1/h taken out with h = " + number(h) : "";
  u.notes.push_back("units: 1 code length = " + number(u.length) + " kpc" +
                    (file.comoving ? " (comoving, made physical at a = " + number(a) + ")" : "") + h_out + ", from " +
                    (o.length_cm > 0 ? std::string("map_unit_length") : file.source));
  if (mass_g > 0)
    u.notes.push_back("units: 1 code mass = " + number(mass_g * hinv / msun_g) + " Msun" + h_out + ", from " +
                      (o.mass_g > 0 ? std::string("map_unit_mass") : file.source));
  const bool mass_known = mass_g > 0, velocity_known = velocity > 0;
  if (!d.known) {
    if (const FieldUnits* f = field_units(file, quantity)) {
      // (its factor is in the file's units: with the units given instead, the values stay as read)
      if (o.length_cm > 0 || o.mass_g > 0 || o.velocity_cm_s > 0) {
        u.notes.push_back("units: " + f->field +
                          "'s dataset names its units in the file's own, which map_unit_* replaces: its values "
                          "are as the file holds them");
      } else {
        field_value(u, *f, file.h_scaled ? h : 1.0, area);
        return u;
      }
    }
  }
  if (!d.known || (d.mass && !mass_known) || (d.velocity && !velocity_known) || !d.own.empty()) {
    const std::string q = !d.own.empty() ? d.own : "code units of " + quantity;
    u.value = area ? std::pow(u.length, area) : 1.0;
    u.value_name = area ? q + " kpc^-2" : q;
    if (!d.own.empty()) u.fits_unit = area ? d.own + " kpc-2" : d.own;
    if (!d.known)
      u.notes.push_back("units: " + quantity + " has no known dimensions: its values are as the file holds them");
    return u;
  }
  const double mass = mass_g * hinv / msun_g, speed = velocity / km_s_cm;
  u.value = std::pow(mass, d.mass) * std::pow(u.length, d.length + area) * std::pow(speed, d.velocity);
  const int length_power = d.length + area;
  u.value_name = joined(joined(power("Msun", d.mass), power("kpc", length_power)), power("(km/s)", d.velocity));
  u.fits_unit = joined(joined(fits_power("solMass", d.mass), fits_power("kpc", length_power)),
                       joined(fits_power("km", d.velocity), fits_power("s", -d.velocity)));
  if (u.value_name.empty()) u.value_name = "dimensionless";
  return u;
}

}  // namespace splotch
