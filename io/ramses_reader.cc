#include "io/ramses_reader.h"

#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <sstream>

#include "errors/user_error.h"
#include "io/first_error.h"
#include "io/fortran_records.h"
#include "io/ramses_output.h"

namespace splotch {
namespace {

constexpr int gas_type = 0, sink_type = 8;
const char* const axes[] = {"_x", "_y", "_z"};

bool exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A column's Gadget label by its RAMSES name (so that HSML, RHO, MASS, VEL, POS, U find them).
void label_of(const std::string& name, std::string& label, int& component) {
  label.clear();
  component = -1;
  for (int d = 0; d < 3; ++d) {
    if (name == std::string("position") + axes[d]) label = "POS", component = d;
    if (name == std::string("velocity") + axes[d]) label = "VEL", component = d;
  }
  if (name == "density") label = "RHO";
  if (name == "mass") label = "MASS";
  if (name == "smoothing_length") label = "HSML";
  if (name == "internal_energy") label = "U";
  if (name == "metallicity") label = "Z";
  if (name == "birth_time") label = "AGE";
}

Column named(const std::string& name, const std::string& type) {
  Column c;
  c.name = name;
  c.type = type;
  label_of(name, c.label, c.component);
  return c;
}

// The file type of a particle of RAMSES family f (pm_commons: 1 DM, 2 star, 3 cloud, 4 debris,
// 5 other, 127 undefined; tracers 0 and below).
int type_of_family(std::int64_t f) {
  if (f >= 1 && f <= 5) return int(f);
  if (f <= 0) return 7;
  return 6;
}

std::string kind_type(char kind, std::size_t bytes) {
  if (kind == 'b' || bytes == 1) return "int8";
  if (kind == 'i' || kind == 'l' || kind == 'q') return bytes == 8 ? "int64" : "int32";
  return bytes == 4 ? "float32" : "float64";
}

// What the hydro file's header says, and the variables' names.
struct HydroLayout {
  int nvar = 0;
  double gamma = 0;
  std::vector<RamsesField> fields;
  bool present = false;
};

HydroLayout hydro_layout(const RamsesOutput& o) {
  HydroLayout h;
  if (!exists(o.hydro_path(1))) return h;
  FortranRecords f(o.hydro_path(1));
  h.present = true;
  h.nvar = f.value<std::int32_t>(1, "nvar");
  if (h.nvar < 1 || h.nvar > 10000)
    throw UserError("'" + f.path() + "': nvar = " + std::to_string(h.nvar) + " is not a hydro file's");
  h.gamma = f.reals(5, 1, "gamma")[0];
  h.fields = o.hydro_fields;
  if (h.fields.empty()) h.fields = classic_hydro_fields(o.ndim, h.nvar);
  if (int(h.fields.size()) != h.nvar)
    throw UserError("'" + o.directory + "hydro_file_descriptor.txt' names " + std::to_string(h.fields.size()) +
                    " variables and '" + f.path() + "' holds " + std::to_string(h.nvar) +
                    ": the descriptor is not this output's");
  return h;
}

bool has_field(const HydroLayout& h, const std::string& name) {
  return std::any_of(h.fields.begin(), h.fields.end(), [&](const RamsesField& f) { return f.name == name; });
}

// Whether U can be derived: a pressure, a density and a gamma above 1 (the multi-material patch writes -999).
bool energy_derivable(const HydroLayout& h) {
  return h.gamma > 1 && has_field(h, "density") && (has_field(h, "pressure") || has_field(h, "thermal_pressure"));
}

// The gas's columns, in order: position, smoothing_length, cell_size, level, the hydro variables,
// then what is derived from them: mass, column_density, mass_over_h, internal_energy, T_over_mu.
std::vector<Column> cell_columns(const RamsesOutput& o, const HydroLayout& h) {
  std::vector<Column> c;
  for (int d = 0; d < 3; ++d) c.push_back(named(std::string("position") + axes[d], "float64"));
  c.push_back(named("smoothing_length", "float64"));
  c.push_back(named("cell_size", "float64"));
  c.push_back(named("level", "int32"));
  for (const RamsesField& f : h.fields) c.push_back(named(f.name, kind_type(f.kind, 8)));
  if (has_field(h, "density")) {
    c.push_back(named("mass", "float64"));
    c.push_back(named("column_density", "float64"));
    c.push_back(named("mass_over_h", "float64"));
  }
  if (energy_derivable(h)) c.push_back(named("internal_energy", "float64"));
  if (has_field(h, "density") && (has_field(h, "pressure") || has_field(h, "thermal_pressure")) && o.unit_l > 0 &&
      o.unit_t > 0)
    c.push_back(named("T_over_mu", "float64"));
  return c;
}

// The particle fields of the part files: the descriptor's, the header's list, or the classic
// layout by the number of records (pos, vel, mass, identity, level, then birth time and metallicity).
std::vector<RamsesField> particle_fields(const RamsesOutput& o, FortranRecords& f) {
  if (!o.particle_fields.empty()) return o.particle_fields;
  std::size_t records = 8;
  while (f.has(records)) ++records;
  std::vector<RamsesField> out;
  for (const char* q : {"position", "velocity"})
    for (int d = 0; d < o.ndim; ++d) out.push_back({std::string(q) + axes[d], 'd'});
  out.push_back({"mass", 'd'});
  out.push_back({"identity", 'i'});
  out.push_back({"levelp", 'i'});
  if (records - 8 > out.size()) out.push_back({"birth_time", 'd'});
  if (records - 8 > out.size()) out.push_back({"metallicity", 'd'});
  while (records - 8 > out.size()) out.push_back({"field_" + std::to_string(out.size() + 1), 'd'});
  return out;
}

// One CPU file's share of a type: its columns (in the type's order) and identities.
struct Part {
  std::vector<std::vector<float>> columns;
  std::vector<std::uint64_t> ids;
  std::size_t count = 0;
};

struct CellReader {
  const RamsesOutput& o;
  const HydroLayout& h;
  const std::vector<Column>& columns;  // cell_columns()
  std::vector<bool> wanted;            // per column

  Part read(int cpu) const {
    Part part;
    part.columns.resize(columns.size());
    FortranRecords amr(o.amr_path(cpu), true);
    const int ncpu = amr.value<std::int32_t>(0, "ncpu"), ndim = amr.value<std::int32_t>(1, "ndim");
    if (ncpu != o.ncpu || ndim != o.ndim)
      throw UserError("'" + amr.path() + "' is of a run of " + std::to_string(ncpu) + " CPUs in " +
                      std::to_string(ndim) + "-D, and '" + o.info_path + "' says " + std::to_string(o.ncpu) + " in " +
                      std::to_string(o.ndim) + "-D: the files are of different outputs");
    const std::vector<std::int32_t> nx = amr.values<std::int32_t>(2, "nx ny nz", 3);
    const int nlevelmax = amr.value<std::int32_t>(3, "nlevelmax");
    const int nboundary = amr.value<std::int32_t>(5, "nboundary");
    if (nlevelmax < 1 || nlevelmax > 64 || nboundary < 0 || nx[0] < 1 || nx[1] < 1 || nx[2] < 1)
      throw UserError("'" + amr.path() + "': nlevelmax = " + std::to_string(nlevelmax) +
                      ", nboundary = " + std::to_string(nboundary) + ": not a RAMSES AMR file's header");
    const double boxlen = amr.reals(7, 1, "boxlen")[0];
    const std::vector<std::int32_t> numbl =
        amr.values<std::int32_t>(21, "numbl", std::size_t(ncpu) * std::size_t(nlevelmax));
    std::size_t r = 23;
    std::vector<std::int32_t> numbb;
    if (nboundary > 0) {
      numbb = amr.values<std::int32_t>(25, "numbb", std::size_t(nboundary) * std::size_t(nlevelmax));
      r = 26;
    }
    // The ordering's name (128 characters) follows the free-memory record; the domain's bounds
    // after it: five records for a bisection, one (bound_key) otherwise.
    std::size_t tries = 0;
    while (amr.size(r, "ordering") != 128) {
      if (++tries > 4)
        throw UserError("'" + amr.path() + "': no ordering record after the header: not a RAMSES AMR file");
      ++r;
    }
    const std::vector<unsigned char> ordering = amr.bytes(r, "ordering");
    r += std::string(ordering.begin(), ordering.begin() + 9) == "bisection" ? 6 : 2;
    const std::size_t ncoarse = std::size_t(nx[0]) * std::size_t(nx[1]) * std::size_t(nx[2]);
    const std::vector<std::int32_t> coarse_cpu = amr.values<std::int32_t>(r + 2, "the coarse cpu_map", ncoarse);
    r += 3;
    // The box: the coarse cells of some CPU (the others are boundaries), `scale` code lengths per
    // coarse cell (RAMSES: boxlen over the coarse cells along x).
    std::array<int, 3> lo{1 << 30, 1 << 30, 1 << 30}, hi{-1, -1, -1};
    for (std::size_t k = 0; k < ncoarse; ++k) {
      if (coarse_cpu[k] <= 0) continue;
      const int i[3] = {int(k % std::size_t(nx[0])), int(k / std::size_t(nx[0]) % std::size_t(nx[1])),
                        int(k / (std::size_t(nx[0]) * std::size_t(nx[1])))};
      for (int d = 0; d < 3; ++d)
        lo[std::size_t(d)] = std::min(lo[std::size_t(d)], i[d]),
        hi[std::size_t(d)] = std::max(hi[std::size_t(d)], i[d]);
    }
    if (hi[0] < 0) lo = {0, 0, 0}, hi = {nx[0] - 1, nx[1] - 1, nx[2] - 1};
    const double scale = boxlen / double(hi[0] - lo[0] + 1);

    std::unique_ptr<FortranRecords> hydro;
    std::size_t hr = 6;
    const bool wants_hydro = h.present && std::any_of(wanted.begin() + 6, wanted.end(), [](bool b) { return b; });
    if (wants_hydro) {
      hydro = std::make_unique<FortranRecords>(o.hydro_path(cpu), true);
      if (hydro->value<std::int32_t>(1, "nvar") != h.nvar)
        throw UserError("'" + hydro->path() + "' holds " + std::to_string(hydro->value<std::int32_t>(1, "nvar")) +
                        " variables, and '" + o.hydro_path(1) + "' " + std::to_string(h.nvar));
    }
    const int twotondim = 1 << ndim, nvar = h.nvar;
    constexpr std::size_t first_var = 6;  // (after position, smoothing_length, cell_size, level)
    auto at = [&](const char* name) {
      for (std::size_t k = first_var + std::size_t(nvar); k < columns.size(); ++k)
        if (columns[k].name == name) return k;
      return columns.size();
    };
    const std::size_t mass_col = at("mass"), column_col = at("column_density"), light_col = at("mass_over_h"),
                      energy_col = at("internal_energy"), temperature_col = at("T_over_mu");
    auto derived = [&](std::size_t k) { return k < columns.size() && wanted[k]; };
    std::size_t density_var = std::size_t(nvar), pressure_var = std::size_t(nvar);
    for (std::size_t v = 0; v < h.fields.size(); ++v) {
      if (h.fields[v].name == "density") density_var = v;
      if (h.fields[v].name == "pressure" || h.fields[v].name == "thermal_pressure") pressure_var = v;
    }
    std::vector<bool> var_needed(std::size_t(nvar), false);
    for (std::size_t v = 0; v < std::size_t(nvar); ++v) var_needed[v] = wanted[first_var + v];
    if (derived(mass_col) || derived(column_col) || derived(light_col)) var_needed[density_var] = true;
    if (derived(energy_col) || derived(temperature_col)) var_needed[density_var] = var_needed[pressure_var] = true;
    if (std::any_of(var_needed.begin(), var_needed.end(), [](bool b) { return b; }) && !hydro)
      hydro = std::make_unique<FortranRecords>(o.hydro_path(cpu), true);
    // T / mu in K: (P / rho) in (unit_l / unit_t)^2 times m_H / k_B.
    const double velocity = o.unit_l / o.unit_t, m_h_over_k = 1.6735575e-24 / 1.380649e-16;

    for (int lev = 0; lev < nlevelmax; ++lev) {
      const double dx = std::ldexp(1.0, -(lev + 1));
      for (int ib = 0; ib < ncpu + nboundary; ++ib) {
        const std::size_t ncache =
            std::size_t(ib < ncpu ? numbl[std::size_t(ib) + std::size_t(lev) * std::size_t(ncpu)]
                                  : numbb[std::size_t(ib - ncpu) + std::size_t(lev) * std::size_t(nboundary)]);
        if (hydro) {
          const std::int32_t hc = hydro->value<std::int32_t>(hr + 1, "ncache");
          if (std::size_t(hc) != ncache)
            throw UserError("'" + hydro->path() + "' holds " + std::to_string(hc) + " grids of level " +
                            std::to_string(lev + 1) + " where '" + amr.path() + "' has " + std::to_string(ncache) +
                            ": the files are of different outputs, or damaged");
          hr += 2;
        }
        if (ncache == 0) continue;
        const std::size_t xg_at = r + 3, son_at = r + 3 + std::size_t(ndim) + 1 + 2 * std::size_t(ndim);
        const std::size_t grid_records = 3 + std::size_t(ndim) + 1 + 2 * std::size_t(ndim) + 3 * std::size_t(twotondim);
        if (ib + 1 == cpu) {  // the CPU's own grids (the others are its copies of its neighbours')
          std::vector<std::vector<double>> xg;
          for (int d = 0; d < ndim; ++d) xg.push_back(amr.reals(xg_at + std::size_t(d), ncache, "xg"));
          std::vector<std::vector<double>> vars(static_cast<std::size_t>(nvar));
          for (int c = 0; c < twotondim; ++c) {
            const std::vector<std::int32_t> son = amr.values<std::int32_t>(son_at + std::size_t(c), "son", ncache);
            for (std::size_t v = 0; v < std::size_t(nvar); ++v)
              if (var_needed[v])
                vars[v] = hydro->reals(hr + std::size_t(c) * std::size_t(nvar) + v, ncache, "a hydro variable");
            for (std::size_t g = 0; g < ncache; ++g) {
              if (son[g] != 0) continue;
              ++part.count;
              double pos[3] = {0, 0, 0};
              for (int d = 0; d < ndim; ++d)
                pos[d] = (xg[std::size_t(d)][g] + (((c >> d) & 1) ? 0.5 : -0.5) * dx - lo[std::size_t(d)]) * scale;
              const double side = dx * scale;
              for (int d = 0; d < 3; ++d)
                if (wanted[std::size_t(d)]) part.columns[std::size_t(d)].push_back(float(pos[d]));
              // The kernel's support twice the side: a uniform grid's cells then sum to a flat
              // column (within 0.1%), as an SPH snapshot's particles do; at the side alone a
              // map shows every cell as a dot.
              if (wanted[3]) part.columns[3].push_back(float(2 * side));
              if (wanted[4]) part.columns[4].push_back(float(side));
              if (wanted[5]) part.columns[5].push_back(float(lev + 1));
              for (std::size_t v = 0; v < std::size_t(nvar); ++v)
                if (wanted[first_var + v]) part.columns[first_var + v].push_back(float(vars[v][g]));
              if (derived(mass_col))
                part.columns[mass_col].push_back(float(vars[density_var][g] * std::pow(side, ndim)));
              // (a cell's share of the column through it; in 2-D, the density itself)
              if (derived(column_col))
                part.columns[column_col].push_back(float(vars[density_var][g] * (ndim == 3 ? side : 1.0)));
              // (the first picture's intensity: the classic kernel divides a splat's light by h,
              // so that m / h lights a uniform grid evenly at every level; io/snapshot_survey.h)
              if (derived(light_col))
                part.columns[light_col].push_back(float(vars[density_var][g] * std::pow(side, ndim) / (2 * side)));
              if (derived(energy_col))
                part.columns[energy_col].push_back(
                    float(vars[pressure_var][g] / ((h.gamma - 1) * vars[density_var][g])));
              if (derived(temperature_col))
                part.columns[temperature_col].push_back(
                    float(vars[pressure_var][g] / vars[density_var][g] * velocity * velocity * m_h_over_k));
            }
          }
        }
        r += grid_records;
        if (hydro) hr += std::size_t(twotondim) * std::size_t(nvar);
      }
    }
    return part;
  }
};

// One part file's particles, sorted into types.
std::vector<Part> read_particles(const RamsesOutput& o, int cpu, const std::vector<RamsesField>& fields,
                                 const std::vector<std::vector<std::size_t>>& take, bool ids) {
  std::vector<Part> parts(ramses_types);
  if (!exists(o.part_path(cpu))) return parts;
  FortranRecords f(o.part_path(cpu), true);
  const std::int32_t npart = f.value<std::int32_t>(2, "npart");
  if (npart < 0) throw UserError("'" + f.path() + "': npart = " + std::to_string(npart) + " is not a count");
  const std::size_t n = std::size_t(npart);
  std::vector<int> type(n, 1);
  std::size_t family = fields.size(), birth = fields.size(), identity = fields.size();
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (fields[k].name == "family") family = k;
    if (fields[k].name == "birth_time") birth = k;
    if (fields[k].name == "identity") identity = k;
  }
  if (family < fields.size()) {
    const std::vector<std::int64_t> fam = f.integers(8 + family, n, "family");
    for (std::size_t i = 0; i < n; ++i) type[i] = type_of_family(fam[i]);
  } else if (birth < fields.size()) {  // old style: stars have a birth time
    const std::vector<double> tp = f.reals(8 + birth, n, "birth_time");
    for (std::size_t i = 0; i < n; ++i) type[i] = tp[i] != 0 ? 2 : 1;
  }
  for (int t = 1; t < sink_type; ++t) {
    Part& p = parts[std::size_t(t)];
    p.count = std::size_t(std::count(type.begin(), type.end(), t));
    p.columns.resize(take[std::size_t(t)].size());
  }
  auto scatter = [&](std::size_t column_of_type, int t, const std::vector<double>& v) {
    std::vector<float>& out = parts[std::size_t(t)].columns[column_of_type];
    out.reserve(parts[std::size_t(t)].count);
    for (std::size_t i = 0; i < n; ++i)
      if (type[i] == t) out.push_back(float(v[i]));
  };
  for (int t = 1; t < sink_type; ++t) {
    if (parts[std::size_t(t)].count == 0) continue;
    for (std::size_t c = 0; c < take[std::size_t(t)].size(); ++c) {
      const std::size_t k = take[std::size_t(t)][c];
      if (k >= fields.size()) {  // (z, and y, of a 2-D or 1-D run)
        parts[std::size_t(t)].columns[c].assign(parts[std::size_t(t)].count, 0.0f);
        continue;
      }
      const char kind = fields[k].kind;
      if (kind == 'i' || kind == 'l' || kind == 'q' || kind == 'b') {
        const std::vector<std::int64_t> v = f.integers(8 + k, n, fields[k].name.c_str());
        scatter(c, t, std::vector<double>(v.begin(), v.end()));
      } else {
        scatter(c, t, f.reals(8 + k, n, fields[k].name.c_str()));
      }
    }
    if (ids && identity < fields.size()) {
      const std::vector<std::int64_t> v = f.integers(8 + identity, n, "identity");
      for (std::size_t i = 0; i < n; ++i)
        if (type[i] == t) parts[std::size_t(t)].ids.push_back(std::uint64_t(v[i]));
    }
  }
  return parts;
}

// The particle columns: the fields but identity (ids), with z (and y) for runs of fewer dimensions.
// `index`: each column's field (fields.size() and more: a zero column).
std::vector<Column> particle_columns(const RamsesOutput& o, const std::vector<RamsesField>& fields,
                                     std::vector<std::size_t>& index) {
  std::vector<Column> c;
  index.clear();
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (fields[k].name == "identity") continue;
    c.push_back(named(fields[k].name, kind_type(fields[k].kind, fields[k].kind == 'd' ? 8 : 4)));
    index.push_back(k);
    if (fields[k].name == "position" + std::string(axes[o.ndim - 1]))
      for (int d = o.ndim; d < 3; ++d) {
        c.push_back(named(std::string("position") + axes[d], "float64"));
        index.push_back(fields.size() + std::size_t(d));
      }
  }
  return c;
}

// sink_NNNNN.out00001, RAMSES' restart file of the sinks (2014 to 2018, pm/output_sink.f90's
// backup_sink; every CPU's file holds all sinks): nsink, nindsink, then per sink records of
// doubles: msink, tsink, the position and velocity by dimension, the angular momentum (as many
// records), delta_mass, (acc_rate in some versions), then idsink (integers), new_born (logicals)
// and sinkint_level.
ColumnType read_binary_sinks(const RamsesOutput& o, bool values, ColumnType t) {
  const std::string path = o.sink_binary_path();
  FortranRecords f(path);
  const std::int32_t n = f.value<std::int32_t>(0, "nsink");
  if (n < 0 || std::uint64_t(n) * 8 > f.file_size())
    throw UserError("'" + path + "' says " + std::to_string(n) + " sinks in a file of " +
                    std::to_string(f.file_size()) + " bytes: it is damaged, or not RAMSES' sink file");
  t.count = std::size_t(n);
  if (n == 0) return t;
  const char* letters[] = {"x", "y", "z"};
  std::vector<std::string> names = {"mass", "birth_time"};
  for (const char* kind : {"position_", "velocity_"})
    for (int d = 0; d < o.ndim; ++d) names.push_back(kind + std::string(letters[d]));
  for (int d = 0; d < o.ndim; ++d) names.push_back(std::string("l") + letters[d]);
  names.push_back("delta_mass");
  std::size_t r = 2;
  const std::size_t doubles = 8 * std::size_t(n);
  // (acc_rate where the record after delta_mass still holds doubles; idsink's are 4-byte integers)
  if (f.has(r + names.size()) && f.size(r + names.size(), "the sinks' records") == doubles) names.push_back("acc_rate");
  for (const std::string& name : names) {
    Column c = named(name, "float64");
    if (values) {
      const std::vector<double> v = f.reals(r, std::size_t(n), name.c_str());
      c.values.assign(v.begin(), v.end());
    } else if (f.size(r, name.c_str()) != doubles) {
      throw UserError("'" + path + "': the sinks' " + name + " is not " + std::to_string(n) +
                      " doubles: the file is damaged, or of a layout not known here");
    }
    ++r;
    t.columns.push_back(std::move(c));
  }
  for (int d = o.ndim; d < 3; ++d) {  // (a 2-D run's sinks lie at z = 0, as its cells do)
    Column c = named(std::string("position_") + letters[d], "float64");
    if (values) c.values.assign(std::size_t(n), 0.0f);
    t.columns.push_back(std::move(c));
  }
  t.id_name = "idsink";
  if (values) {
    const std::vector<std::int64_t> ids = f.integers(r, std::size_t(n), "idsink");
    for (std::int64_t id : ids) t.ids.push_back(std::uint64_t(id));
  }
  return t;
}

// sink_NNNNN.csv (RAMSES since 2014; a line of names since 2018): "# id,msink,x,y,z,vx,vy,vz,..."
// then rows; without it, the binary restart file.
ColumnType read_sinks(const RamsesOutput& o, bool values) {
  ColumnType t;
  t.file_type = sink_type;
  t.name = ramses_type_name(sink_type);
  std::ifstream in(o.sink_csv_path());
  if (!in) return exists(o.sink_binary_path()) ? read_binary_sinks(o, values, t) : t;
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    const std::size_t a = line.find_first_not_of(" \t");
    if (a == std::string::npos) continue;
    std::vector<std::string> cells;
    std::stringstream s(line.substr(line[a] == '#' ? a + 1 : a));
    for (std::string cell; std::getline(s, cell, ',');) {
      const std::size_t b = cell.find_first_not_of(" \t"), e = cell.find_last_not_of(" \t\r");
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (line[a] == '#') {
      if (names.empty()) names = cells;
      continue;
    }
    std::vector<double> row;
    for (const std::string& cell : cells) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  // The csv of 2014 to 2018 has no line of names: its 13 columns in RAMSES' order of then.
  if (names.empty() && !rows.empty())
    names = {"id", "msink", "x", "y", "z", "vx", "vy", "vz", "lx", "ly", "lz", "age", "dMBH_dt"};
  auto rename = [](const std::string& n) -> std::string {
    if (n == "msink") return "mass";
    if (n == "x" || n == "y" || n == "z") return "position_" + n;
    if (n == "vx" || n == "vy" || n == "vz") return "velocity_" + n.substr(1);
    return n;
  };
  t.count = rows.size();
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == "id") {
      t.id_name = "id";
      if (values)
        for (const auto& row : rows) t.ids.push_back(k < row.size() ? std::uint64_t(row[k]) : 0);
      continue;
    }
    Column c = named(rename(names[k]), "float64");
    if (values)
      for (const auto& row : rows) c.values.push_back(k < row.size() ? float(row[k]) : 0.0f);
    t.columns.push_back(std::move(c));
  }
  return t;
}

void describe(const RamsesOutput& o, const HydroLayout& h, ColumnSnapshot& s) {
  s.path = o.directory;
  s.description = "RAMSES output " + o.number + " (" + std::to_string(o.ncpu) + " CPU file" + (o.ncpu == 1 ? "" : "s") +
                  ", " + std::to_string(o.ndim) + "-D, levels " + std::to_string(o.levelmin) + " to " +
                  std::to_string(o.levelmax) + ")";
  s.time = o.time;
  s.dimensions = o.ndim;
  s.box_size = o.boxlen;
  // A run with boundaries (nboundary > 0: walls, inflows) is not periodic: no wrapping.
  if (exists(o.amr_path(1)) && FortranRecords(o.amr_path(1)).value<std::int32_t>(5, "nboundary") > 0) {
    s.box_size = 0;
    char side[32];
    std::snprintf(side, sizeof side, "%g", o.boxlen);
    s.notes.push_back(std::string("the run has boundaries (nboundary > 0): its box of side ") + side +
                      " is not periodic, and is not wrapped");
  }
  if (o.cosmological() && o.aexp > 0) s.redshift = 1 / o.aexp - 1;
  if (const auto sinks = o.family_counts.find("sink particles"); sinks != o.family_counts.end() && sinks->second > 0 &&
                                                                 !exists(o.sink_csv_path()) &&
                                                                 !exists(o.sink_binary_path()))
    s.notes.push_back("the header counts " + std::to_string(sinks->second) + " sink particle" +
                      (sinks->second == 1 ? "" : "s") + ", but the output has no sink_" + o.number + ".csv nor sink_" +
                      o.number + ".out00001: no sinks are drawn (copy the sink file into the output to draw them)");
  SnapshotUnits& u = s.units;
  u.code = "RAMSES";
  u.source = o.info_path;
  if (o.unit_l > 0 && o.unit_d > 0) {
    u.length_cm = o.unit_l;
    u.mass_g = o.unit_d * o.unit_l * o.unit_l * o.unit_l;
    if (o.unit_t > 0) u.velocity_cm_s = o.unit_l / o.unit_t;
  }
  u.hubble = o.cosmological() ? o.h0 / 100 : 0;  // (RAMSES writes H0 = 1 for runs without cosmology)
  u.comoving = false;                            // RAMSES' unit_l is physical: it holds aexp
  u.scale_factor = o.aexp;
  for (const char* k : {"ncpu", "ndim", "levelmin", "levelmax", "boxlen", "time", "aexp", "H0", "omega_m", "omega_l",
                        "omega_b", "unit_l", "unit_d", "unit_t"}) {
    const auto it = o.info.find(k);
    if (it == o.info.end()) continue;
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", it->second);
    s.header.emplace_back(k, text);
  }
  if (!o.ordering.empty()) s.header.emplace_back("ordering", o.ordering);
  s.header.emplace_back("hydro variables",
                        !h.present
                            ? "none (no hydro files)"
                            : std::to_string(h.nvar) + (o.hydro_descriptor ? " by hydro_file_descriptor.txt"
                                                                           : " in the classic order (no descriptor)"));
  if (h.present) {
    char g[40];
    std::snprintf(g, sizeof g, "%.6g", h.gamma);
    s.header.emplace_back("gamma", std::string(g) + (h.gamma > 1 ? "" : " (not above 1: no internal_energy derived)"));
  }
  s.header.emplace_back("particle fields", o.particle_descriptor ? "by part_file_descriptor.txt"
                                           : o.particle_fields.empty()
                                               ? "the classic layout (no descriptor, no header list)"
                                               : "by header_" + o.number + ".txt");
}

std::uint64_t family(const RamsesOutput& o, const char* name) {
  const auto it = o.family_counts.find(name);
  return it == o.family_counts.end() ? 0 : it->second;
}

}  // namespace

const char* ramses_type_name(int t) {
  static const char* const names[ramses_types] = {
      "gas (leaf cells)", "dark matter", "stars", "clouds", "debris", "other", "undefined family", "tracers", "sinks"};
  return t >= 0 && t < ramses_types ? names[t] : "no such type";
}

ColumnSnapshot ramses_outline(const std::string& path) {
  const RamsesOutput o = open_ramses_output(path);
  const HydroLayout h = hydro_layout(o);
  ColumnSnapshot s;
  describe(o, h, s);
  for (int t = 0; t < ramses_types; ++t) {
    ColumnType ct;
    ct.file_type = t;
    ct.name = ramses_type_name(t);
    s.types.push_back(ct);
  }
  if (exists(o.amr_path(1))) {
    FortranRecords amr(o.amr_path(1));
    const int ndim = amr.value<std::int32_t>(1, "ndim"), nlevelmax = amr.value<std::int32_t>(3, "nlevelmax");
    if (nlevelmax < 1 || nlevelmax > 64) throw UserError("'" + amr.path() + "': not a RAMSES AMR file's header");
    // numbtot(1, l): the grids of level l over all CPUs; each refines one cell of the level above.
    const std::vector<std::int32_t> numbtot = amr.values<std::int32_t>(22, "numbtot", 10 * std::size_t(nlevelmax));
    std::uint64_t leaves = 0;
    for (int l = 0; l < nlevelmax; ++l) {
      leaves += std::uint64_t(numbtot[10 * std::size_t(l)]) << ndim;
      if (l > 0) leaves -= std::uint64_t(numbtot[10 * std::size_t(l)]);
    }
    s.types[0].count = h.present || leaves > 0 ? std::size_t(leaves) : 0;
    s.types[0].columns = cell_columns(o, h);
  }
  if (exists(o.part_path(1))) {
    FortranRecords f(o.part_path(1));
    std::vector<std::size_t> index;
    const std::vector<RamsesField> fields = particle_fields(o, f);
    const std::vector<Column> columns = particle_columns(o, fields, index);
    const bool has_id =
        std::any_of(fields.begin(), fields.end(), [](const RamsesField& r) { return r.name == "identity"; });
    const bool new_style = o.family_counts.count("DM") > 0;
    if (new_style) {
      const std::uint64_t counts[] = {0,
                                      family(o, "DM"),
                                      family(o, "star"),
                                      family(o, "cloud"),
                                      family(o, "debris"),
                                      family(o, "other"),
                                      family(o, "undefined"),
                                      family(o, "gas_tracer") + family(o, "star_tracer") + family(o, "cloud_tracer") +
                                          family(o, "debris_tracer") + family(o, "other_tracer")};
      for (int t = 1; t < sink_type; ++t) s.types[std::size_t(t)].count = counts[t];
    } else {  // the part files' headers: npart, and nstar_tot of them stars
      std::uint64_t all = 0;
      for (int cpu = 1; cpu <= o.ncpu; ++cpu)
        if (exists(o.part_path(cpu)))
          all += std::uint64_t(FortranRecords(o.part_path(cpu)).value<std::int32_t>(2, "npart"));
      const std::uint64_t stars = std::uint64_t(std::max(0, f.value<std::int32_t>(4, "nstar_tot")));
      s.types[2].count = std::min(stars, all);
      s.types[1].count = all - s.types[2].count;
    }
    for (int t = 1; t < sink_type; ++t) {
      s.types[std::size_t(t)].columns = columns;
      if (has_id) s.types[std::size_t(t)].id_name = "identity";
    }
  }
  s.types[sink_type] = read_sinks(o, false);
  return s;
}

ColumnSnapshot load_ramses(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress) {
  const RamsesOutput o = open_ramses_output(path);
  const HydroLayout h = hydro_layout(o);
  ColumnSnapshot s;
  describe(o, h, s);
  const bool cells = wanted.wants_type(gas_type) && exists(o.amr_path(1));
  bool particles = false;
  for (int t = 1; t < sink_type; ++t) particles = particles || (wanted.wants_type(t) && exists(o.part_path(1)));
  std::vector<Column> gas_columns;
  std::vector<bool> gas_wanted;
  if (cells) {
    gas_columns = cell_columns(o, h);
    for (const Column& c : gas_columns)
      gas_wanted.push_back(c.label == "POS" || wanted.wants(c.name, c.label, c.component));
  }
  std::vector<RamsesField> fields;
  std::vector<std::size_t> index;
  std::vector<Column> part_columns;
  std::vector<std::vector<std::size_t>> take(ramses_types);  // per type, the fields of its wanted columns
  std::vector<std::vector<std::size_t>> kept(ramses_types);  // per type, which of part_columns
  if (particles) {
    FortranRecords f(o.part_path(1));
    fields = particle_fields(o, f);
    part_columns = particle_columns(o, fields, index);
    for (int t = 1; t < sink_type; ++t) {
      if (!wanted.wants_type(t)) continue;
      for (std::size_t c = 0; c < part_columns.size(); ++c)
        if (part_columns[c].label == "POS" ||
            wanted.wants(part_columns[c].name, part_columns[c].label, part_columns[c].component)) {
          take[std::size_t(t)].push_back(index[c]);
          kept[std::size_t(t)].push_back(c);
        }
    }
  }
  // An MPI process's share: whole CPU files (RAMSES' domains hold about equal work), when there
  // are at least as many as processes; else every file, and its slice taken after.
  int first = 1, last = o.ncpu;
  if (wanted.parts > 1 && o.ncpu >= wanted.parts) {
    first = int(std::int64_t(wanted.part) * o.ncpu / wanted.parts) + 1;
    last = int(std::int64_t(wanted.part + 1) * o.ncpu / wanted.parts);
    s.shared_by_file = true;
  }
  const int files = last - first + 1;
  std::vector<Part> gas(cells ? std::size_t(files) : 0);
  std::vector<std::vector<Part>> parts(particles ? std::size_t(files) : 0);
  FirstError error;
  std::size_t done = 0;
  const CellReader reader{o, h, gas_columns, gas_wanted};
#pragma omp parallel for schedule(dynamic, 1)
  for (int cpu = first; cpu <= last; ++cpu) {
    error.run([&] {
      if (cells) gas[std::size_t(cpu - first)] = reader.read(cpu);
      if (particles) parts[std::size_t(cpu - first)] = read_particles(o, cpu, fields, take, wanted.ids);
#pragma omp critical(ramses_progress)
      {
        ++done;
        if (progress && omp_get_thread_num() == 0) progress(double(done) / double(files));
      }
    });
  }
  error.rethrow_if_any();
  for (int t = 0; t < ramses_types; ++t) {
    ColumnType ct;
    ct.file_type = t;
    ct.name = ramses_type_name(t);
    s.types.push_back(ct);
  }
  auto join = [](std::vector<Part*> pieces, ColumnType& out) {
    for (Part* p : pieces) out.count += p->count;
    for (std::size_t c = 0; c < out.columns.size(); ++c) {
      ParticleArray<float>& v = out.columns[c].values;
      v.reserve(out.count);
      for (Part* p : pieces) {
        v.insert(v.end(), p->columns[c].begin(), p->columns[c].end());
        std::vector<float>().swap(p->columns[c]);
      }
    }
    for (Part* p : pieces) out.ids.insert(out.ids.end(), p->ids.begin(), p->ids.end());
  };
  if (cells) {
    ColumnType& g = s.types[0];
    for (const Column& c : gas_columns) g.all_fields.push_back(c.name);
    std::vector<std::size_t> which;
    for (std::size_t c = 0; c < gas_columns.size(); ++c)
      if (gas_wanted[c]) g.columns.push_back(gas_columns[c]), which.push_back(c);
    std::vector<Part*> pieces;
    for (Part& p : gas) {
      std::vector<std::vector<float>> kept_columns;
      for (std::size_t c : which) kept_columns.push_back(std::move(p.columns[c]));
      p.columns = std::move(kept_columns);
      pieces.push_back(&p);
    }
    join(pieces, g);
  }
  if (particles) {
    const bool has_id =
        std::any_of(fields.begin(), fields.end(), [](const RamsesField& r) { return r.name == "identity"; });
    for (int t = 1; t < sink_type; ++t) {
      ColumnType& ct = s.types[std::size_t(t)];
      for (std::size_t c : kept[std::size_t(t)]) ct.columns.push_back(part_columns[c]);
      for (const Column& c : part_columns) ct.all_fields.push_back(c.name);
      if (has_id) ct.all_fields.push_back("identity");
      if (has_id) ct.id_name = "identity";
      std::vector<Part*> pieces;
      for (auto& file : parts) pieces.push_back(&file[std::size_t(t)]);
      join(pieces, ct);
    }
  }
  if (wanted.wants_type(sink_type)) s.types[sink_type] = read_sinks(o, true);
  return s;
}

}  // namespace splotch
