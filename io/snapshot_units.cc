#include "io/snapshot_units.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "io/field_names.h"

namespace splotch {

SnapshotUnits gadget_default_units(double hubble, double omega0, double time, double redshift) {
  SnapshotUnits u;
  u.code = "Gadget";
  u.source = "Gadget's defaults (a binary snapshot writes none)";
  u.length_cm = 3.085678e21;
  u.mass_g = 1.989e43;
  u.velocity_cm_s = 1e5;
  u.hubble = hubble;
  u.h_scaled = true;
  u.comoving = omega0 > 0 && time > 0 && time <= 1 && std::fabs(1 / time - 1 - redshift) < 1e-3 * (1 + redshift);
  u.scale_factor = u.comoving ? time : 1;
  return u;
}

const FieldUnits* field_units(const SnapshotUnits& file, const std::string& name) {
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const FieldUnits& f : file.fields)
    if (lower(f.field) == lower(name)) return &f;
  // A block label (VEL for Velocities) names the same dataset.
  const std::string block = gadget_block_label(name);
  for (const FieldUnits& f : file.fields)
    if (!block.empty() && gadget_block_label(f.field) == block) return &f;
  return nullptr;
}

std::string units_description(const SnapshotUnits& u) {
  char text[512];
  if (u.length_cm > 0)
    std::snprintf(text, sizeof text, "  units: 1 length = %g cm, 1 mass = %g g, 1 velocity = %g cm/s", u.length_cm,
                  u.mass_g, u.velocity_cm_s);
  else
    std::snprintf(text, sizeof text, "  units: none written (maps in physical units need map_unit_length ...)");
  std::string out = text;
  if (u.hubble > 0) {
    std::snprintf(text, sizeof text, ", h = %g%s", u.hubble, u.h_scaled ? " (lengths and masses in units/h)" : "");
    out += text;
  }
  if (u.comoving) {
    std::snprintf(text, sizeof text, ", comoving (a = %g)", u.scale_factor);
    out += text;
  }
  if (!u.source.empty()) out += ", from " + u.source;
  if (!u.fields.empty()) {
    std::snprintf(text, sizeof text, "; %zu datasets name their own units (maps convert them)", u.fields.size());
    out += text;
  }
  out += "\n";
  if (!u.kernel.empty() || u.kernel_gamma > 0) {
    std::snprintf(text, sizeof text, "  kernel: %s%s", u.kernel.empty() ? "not named" : u.kernel.c_str(),
                  u.kernel_gamma > 0 ? (", support " + std::to_string(u.kernel_gamma) + " h").c_str() : "");
    out += std::string(text) + "\n";
  }
  return out;
}

}  // namespace splotch
