#include "io/enzo_reader.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "errors/user_error.h"
#include "io/enzo_data_file.h"
#include "io/enzo_run.h"
#include "io/field_names.h"

namespace splotch {
namespace {

constexpr int gas_type = 0, other_type = 11;
const char* const axes[] = {"x", "y", "z"};

// A column's Gadget label by its Enzo name (so that POS, VEL, MASS, RHO, HSML, U, Z, AGE find them).
void label_of(const std::string& name, std::string& label, int& component) {
  label.clear();
  component = -1;
  for (int d = 0; d < 3; ++d) {
    const std::string a = axes[d];
    if (name == "position_" + a || name == "particle_position_" + a) label = "POS", component = d;
    if (name == a + "-velocity" || name == "particle_velocity_" + a) label = "VEL", component = d;
  }
  if (name == "Density") label = "RHO";
  if (name == "mass" || name == "particle_mass") label = "MASS";
  if (name == "smoothing_length") label = "HSML";
  if (name == "internal_energy") label = "U";
  if (name == "metallicity_fraction") label = "Z";
  if (name == "creation_time") label = "AGE";
  // (the others by the labels of other codes' fields: Temperature as TEMP, so that temp finds it)
  if (label.empty() && component < 0 && gadget_block_label(name) != name) label = gadget_block_label(name);
}

Column named(const std::string& name, const std::string& type) {
  Column c;
  c.name = name;
  c.type = type;
  label_of(name, c.label, c.component);
  return c;
}

// Enzo's particle attributes beside the particle_* arrays (star formation's creation and dynamical
// times and metal fractions).
bool particle_array(const EnzoDataset& d) {
  static const std::set<std::string> attributes{"creation_time",   "dynamical_time", "metallicity_fraction",
                                                "typeia_fraction", "metallicity",    "particle_jet_x"};
  return d.name.rfind("particle_", 0) == 0 || attributes.count(d.name) > 0;
}

// What a data file holds: the baryon fields of the grids and the particle arrays.
struct Layout {
  std::vector<EnzoDataset> fields, arrays;
  bool has_field(const std::string& n) const {
    return std::any_of(fields.begin(), fields.end(), [&](const EnzoDataset& d) { return d.name == n; });
  }
  bool has_array(const std::string& n) const {
    return std::any_of(arrays.begin(), arrays.end(), [&](const EnzoDataset& d) { return d.name == n; });
  }
};

Layout layout(const EnzoRun& run) {
  Layout l;
  const EnzoGrid* cells = nullptr;
  const EnzoGrid* parts = nullptr;
  for (const EnzoGrid& g : run.grids) {
    if (!cells && g.baryon_fields > 0 && !g.baryon_file.empty()) cells = &g;
    if (!parts && g.particles > 0 && !g.particle_file.empty()) parts = &g;
  }
  if (cells) {
    const EnzoDataFile f(run.data_path(cells->baryon_file));
    for (const EnzoDataset& d : f.datasets(cells->id))
      if (!particle_array(d) && int(d.shape.size()) == cells->rank) l.fields.push_back(d);
    if (l.fields.empty())
      throw UserError("'" + f.path() + "' holds no baryon field of grid " + std::to_string(cells->id) +
                      ", which the hierarchy says has " + std::to_string(cells->baryon_fields) +
                      ": the data file is not this output's");
  }
  if (parts) {
    const EnzoDataFile f(run.data_path(parts->particle_file));
    for (const EnzoDataset& d : f.datasets(parts->id))
      if (particle_array(d) && d.shape.size() == 1) l.arrays.push_back(d);
  }
  return l;
}

// The specific internal energy, from which fields: Zeus (HydroMethod 2) writes it as TotalEnergy;
// with the dual energy formalism it is GasEnergy; else TotalEnergy less the kinetic energy (and,
// for the MHD solvers, the magnetic energy B^2 / 2 rho in code units).
enum class Energy { none, total_is_internal, gas_energy, total_less_kinetic };

Energy energy_source(const EnzoRun& run, const Layout& l) {
  const std::string total = l.has_field("TotalEnergy") ? "TotalEnergy" : "Total_Energy";
  const std::string gas = l.has_field("GasEnergy") ? "GasEnergy" : "Gas_Energy";
  if (run.hydro_method == 2 && l.has_field(total)) return Energy::total_is_internal;
  if (l.has_field(gas)) return Energy::gas_energy;
  bool velocities = true;
  for (int d = 0; d < run.rank; ++d) velocities = velocities && l.has_field(std::string(axes[d]) + "-velocity");
  if (l.has_field(total) && velocities && l.has_field("Density")) return Energy::total_less_kinetic;
  return Energy::none;
}

// The gas's columns, in order: position, smoothing_length, cell_size, level, the file's fields,
// then what is derived from them: mass, column_density, mass_over_h, internal_energy.
std::vector<Column> cell_columns(const EnzoRun& run, const Layout& l) {
  std::vector<Column> c;
  for (int d = 0; d < 3; ++d) c.push_back(named(std::string("position_") + axes[d], "float64"));
  c.push_back(named("smoothing_length", "float64"));
  c.push_back(named("cell_size", "float64"));
  c.push_back(named("level", "int32"));
  for (const EnzoDataset& f : l.fields) c.push_back(named(f.name, f.type));
  if (l.has_field("Density")) {
    c.push_back(named("mass", "float64"));
    c.push_back(named("column_density", "float64"));
    c.push_back(named("mass_over_h", "float64"));
  }
  if (energy_source(run, l) != Energy::none) c.push_back(named("internal_energy", "float64"));
  return c;
}

std::vector<Column> particle_columns(const Layout& l) {
  std::vector<Column> c;
  for (int d = 0; d < 3; ++d)
    if (l.has_array(std::string("particle_position_") + axes[d]))
      c.push_back(named(std::string("particle_position_") + axes[d], "float64"));
  for (const EnzoDataset& a : l.arrays) {
    if (a.name.rfind("particle_position_", 0) == 0 || a.name == "particle_index" || a.name == "particle_type") continue;
    c.push_back(named(a.name, a.type));
  }
  return c;
}

void describe(const EnzoRun& run, ColumnSnapshot& s) {
  s.path = run.directory;
  std::set<std::string> files;
  std::vector<int> per_level(std::size_t(run.max_level()) + 1, 0);
  for (const EnzoGrid& g : run.grids) {
    if (!g.baryon_file.empty()) files.insert(g.baryon_file);
    if (!g.particle_file.empty()) files.insert(g.particle_file);
    ++per_level[std::size_t(g.level)];
  }
  s.description = "Enzo output " + run.name + " (" + std::to_string(run.grids.size()) + " grid" +
                  (run.grids.size() == 1 ? "" : "s") + ", levels 0 to " + std::to_string(run.max_level()) + ", " +
                  std::to_string(run.rank) + "-D, " + std::to_string(files.size()) + " data file" +
                  (files.size() == 1 ? "" : "s") + ")";
  s.time = run.time;
  s.dimensions = run.rank;
  bool cube = true;
  const double side = run.domain_right[0] - run.domain_left[0];
  for (int d = 1; d < run.rank; ++d)
    cube = cube && std::abs(run.domain_right[std::size_t(d)] - run.domain_left[std::size_t(d)] - side) < 1e-12 * side;
  s.box_size = run.periodic && cube ? side : 0;
  if (run.cosmological) s.redshift = run.redshift;
  SnapshotUnits& u = s.units;
  u.code = "Enzo";
  u.source = run.parameter_path + (run.cosmological ? " (Enzo's cosmological units)" : "");
  u.length_cm = run.length_cm;
  u.mass_g = run.mass_g;
  u.velocity_cm_s = run.velocity_cm_s;
  u.hubble = run.cosmological ? run.hubble : 0;
  u.comoving = false;  // Enzo's length unit is proper at the output's redshift
  u.scale_factor = run.cosmological ? 1 / (1 + run.redshift) : 1;
  for (const char* k : {"TopGridRank",
                        "TopGridDimensions",
                        "DomainLeftEdge",
                        "DomainRightEdge",
                        "InitialTime",
                        "InitialCycleNumber",
                        "ComovingCoordinates",
                        "CosmologyCurrentRedshift",
                        "CosmologyHubbleConstantNow",
                        "CosmologyOmegaMatterNow",
                        "CosmologyOmegaLambdaNow",
                        "CosmologyComovingBoxSize",
                        "CosmologyInitialRedshift",
                        "HydroMethod",
                        "DualEnergyFormalism",
                        "Gamma",
                        "RefineBy",
                        "MaximumRefinementLevel",
                        "MultiSpecies",
                        "LengthUnits",
                        "DensityUnits",
                        "TimeUnits",
                        "LeftFaceBoundaryCondition"})
    if (const std::string* v = run.parameter(k)) s.header.emplace_back(k, *v);
  std::string levels;
  for (std::size_t l = 0; l < per_level.size(); ++l) levels += (l ? ", " : "") + std::to_string(per_level[l]);
  s.header.emplace_back("grids per level", levels);
}

std::vector<ColumnType> empty_types() {
  std::vector<ColumnType> types;
  for (int t = 0; t < enzo_types; ++t) {
    ColumnType ct;
    ct.file_type = t;
    ct.name = enzo_type_name(t);
    types.push_back(ct);
  }
  return types;
}

// The data files, each opened once: the grids are read in the order of their files.
class OpenFiles {
 public:
  const EnzoDataFile& get(const std::string& path) {
    auto it = files_.find(path);
    if (it == files_.end()) {
      if (files_.size() >= 8) files_.clear();  // (a run of thousands of files: few open at once)
      it = files_.emplace(path, std::make_unique<EnzoDataFile>(path)).first;
    }
    return *it->second;
  }

 private:
  std::map<std::string, std::unique_ptr<EnzoDataFile>> files_;
};

// One grid's dataset, checked against the grid's active cells (or all its cells, for files written
// with ghost zones), as a function of the active cell (i, j, k).
struct GridField {
  std::vector<double> v;
  std::size_t nx = 1, ny = 1, ox = 0, oy = 0, oz = 0;
  double at(std::size_t i, std::size_t j, std::size_t k) const { return v[((k + oz) * ny + j + oy) * nx + i + ox]; }
};

GridField grid_field(const EnzoDataFile& f, const EnzoGrid& g, const std::string& name) {
  GridField out;
  out.v = f.read(g.id, name);
  const std::size_t n[3] = {std::size_t(g.active(0)), std::size_t(g.active(1)), std::size_t(g.active(2))};
  std::size_t all = 1;
  for (int d = 0; d < g.rank; ++d) all *= std::size_t(g.dims[std::size_t(d)]);
  if (out.v.size() == g.cells()) {
    out.nx = n[0];
    out.ny = n[1];
  } else if (out.v.size() == all) {  // ghost zones written (WriteGhostZones)
    out.nx = std::size_t(g.dims[0]);
    out.ny = g.rank > 1 ? std::size_t(g.dims[1]) : 1;
    out.ox = std::size_t(g.start[0]);
    out.oy = std::size_t(g.start[1]);
    out.oz = std::size_t(g.start[2]);
  } else {
    throw UserError("'" + f.path() + "': grid " + std::to_string(g.id) + "'s " + name + " holds " +
                    std::to_string(out.v.size()) + " values, and the hierarchy gives the grid " +
                    std::to_string(g.cells()) + " active cells: the data file is not this output's");
  }
  return out;
}

struct Plan {
  std::vector<Column> columns;
  std::vector<bool> wanted;
  bool any() const { return std::find(wanted.begin(), wanted.end(), true) != wanted.end(); }
};

void read_cells(const EnzoRun& run, const Layout& l, const EnzoDataFile& f, const EnzoGrid& g, const Plan& plan,
                ColumnType& out) {
  const std::vector<std::uint8_t> covered = covered_cells(run, g);
  const std::size_t leaves = std::size_t(std::count(covered.begin(), covered.end(), std::uint8_t(0)));
  if (leaves == 0) return;
  std::map<std::string, GridField> fields;
  auto field = [&](const std::string& name) -> const GridField& {
    auto it = fields.find(name);
    if (it == fields.end()) it = fields.emplace(name, grid_field(f, g, name)).first;
    return it->second;
  };
  double side = 0;
  for (int d = 0; d < g.rank; ++d) side = std::max(side, g.width(d));
  const double volume = g.volume();
  const Energy energy = energy_source(run, l);
  const std::string total = l.has_field("TotalEnergy") ? "TotalEnergy" : "Total_Energy";
  const std::string gas = l.has_field("GasEnergy") ? "GasEnergy" : "Gas_Energy";
  const bool magnetic =
      l.has_field("Bx") && l.has_field("By") && l.has_field("Bz") && (run.hydro_method == 4 || run.hydro_method == 6);
  const std::size_t nx = std::size_t(g.active(0)), ny = std::size_t(g.active(1)), nz = std::size_t(g.active(2));
  for (std::size_t c = 0; c < plan.columns.size(); ++c) {
    if (!plan.wanted[c]) continue;
    const std::string& name = plan.columns[c].name;
    ParticleArray<float>& v = out.columns[c].values;
    v.reserve(v.size() + leaves);
    int axis = -1;
    for (int d = 0; d < 3; ++d)
      if (name == std::string("position_") + axes[d]) axis = d;
    const GridField* value = l.has_field(name) ? &field(name) : nullptr;
    const GridField* density = l.has_field("Density") ? &field("Density") : nullptr;
    const GridField *e = nullptr, *vel[3] = {nullptr, nullptr, nullptr}, *b[3] = {nullptr, nullptr, nullptr};
    if (name == "internal_energy") {
      e = &field(energy == Energy::gas_energy ? gas : total);
      if (energy == Energy::total_less_kinetic) {
        // (every velocity field present: the solvers that keep three below 3-D count them all)
        for (int d = 0; d < 3; ++d)
          if (l.has_field(std::string(axes[d]) + "-velocity")) vel[d] = &field(std::string(axes[d]) + "-velocity");
        if (magnetic)
          for (int d = 0; d < 3; ++d) b[d] = &field(std::string("B") + axes[d]);
      }
    }
    // What the column is, decided once (not per cell).
    enum class Kind { position, stored, hsml, cell_side, level, mass, column, light, internal, none } kind = Kind::none;
    if (axis >= 0)
      kind = Kind::position;
    else if (value)
      kind = Kind::stored;
    else if (name == "smoothing_length")
      kind = Kind::hsml;
    else if (name == "cell_size")
      kind = Kind::cell_side;
    else if (name == "level")
      kind = Kind::level;
    else if (name == "mass")
      kind = Kind::mass;
    else if (name == "column_density")
      kind = Kind::column;  // (a cell's share of the column through it; below 3-D the density)
    else if (name == "mass_over_h")
      kind = Kind::light;  // (the first picture's intensity: io/snapshot_survey.h)
    else if (name == "internal_energy")
      kind = Kind::internal;
    const double column_side = g.rank == 3 ? side : 1.0;
    std::size_t at = 0;
    for (std::size_t k = 0; k < nz; ++k)
      for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t i = 0; i < nx; ++i, ++at) {
          if (covered[at]) continue;
          double x = 0;
          switch (kind) {
            case Kind::position: {
              const std::size_t index[3] = {i, j, k};
              x = axis < g.rank ? g.left[std::size_t(axis)] + (double(index[axis]) + 0.5) * g.width(axis) : 0;
              break;
            }
            case Kind::stored: x = value->at(i, j, k); break;
            case Kind::hsml: x = 2 * side; break;
            case Kind::cell_side: x = side; break;
            case Kind::level: x = g.level; break;
            case Kind::mass: x = density->at(i, j, k) * volume; break;
            case Kind::column: x = density->at(i, j, k) * column_side; break;
            case Kind::light: x = density->at(i, j, k) * volume / (2 * side); break;
            case Kind::internal:
              x = e->at(i, j, k);
              for (int d = 0; d < 3; ++d)
                if (vel[d]) x -= 0.5 * vel[d]->at(i, j, k) * vel[d]->at(i, j, k);
              if (b[0])
                x -= 0.5 *
                     (b[0]->at(i, j, k) * b[0]->at(i, j, k) + b[1]->at(i, j, k) * b[1]->at(i, j, k) +
                      b[2]->at(i, j, k) * b[2]->at(i, j, k)) /
                     density->at(i, j, k);
              break;
            case Kind::none: break;
          }
          v.push_back(float(x));
        }
  }
  out.count += leaves;
}

// A particle's file type: Enzo's particle_type where the file has it, else stars by a creation
// time above 0 (Enzo writes 0 for the particles of the initial conditions) and dark matter.
std::vector<int> particle_types(const EnzoDataFile& f, const EnzoGrid& g, const Layout& l) {
  std::vector<int> types(std::size_t(g.particles), 1);
  if (l.has_array("particle_type")) {
    const std::vector<std::int64_t> t = f.read_integers(g.id, "particle_type");
    for (std::size_t i = 0; i < types.size() && i < t.size(); ++i)
      types[i] = t[i] >= 1 && t[i] < other_type ? int(t[i]) : other_type;
  } else if (l.has_array("creation_time")) {
    const std::vector<double> t = f.read(g.id, "creation_time");
    for (std::size_t i = 0; i < types.size() && i < t.size(); ++i) types[i] = t[i] > 0 ? 2 : 1;
  }
  return types;
}

void read_particles(const EnzoDataFile& f, const EnzoGrid& g, const Layout& l, const std::vector<Column>& columns,
                    const std::vector<std::vector<bool>>& wanted, bool ids, std::vector<ColumnType>& out) {
  const std::vector<int> types = particle_types(f, g, l);
  std::vector<std::size_t> per_type(enzo_types, 0);
  for (int t : types) ++per_type[std::size_t(t)];
  bool any = false;
  for (int t = 1; t < enzo_types; ++t) any = any || (per_type[std::size_t(t)] > 0 && !wanted[std::size_t(t)].empty());
  if (!any) return;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    bool needed = false;
    for (int t = 1; t < enzo_types; ++t)
      needed = needed || (per_type[std::size_t(t)] > 0 && !wanted[std::size_t(t)].empty() && wanted[std::size_t(t)][c]);
    if (!needed) continue;
    std::vector<double> v = f.read(g.id, columns[c].name);
    if (v.size() != types.size())
      throw UserError("'" + f.path() + "': grid " + std::to_string(g.id) + "'s " + columns[c].name + " holds " +
                      std::to_string(v.size()) + " values for its " + std::to_string(types.size()) +
                      " particles: the data file is not this output's");
    // Enzo keeps a particle's mass as a density over the cells of its grid.
    const double scale = columns[c].name == "particle_mass" ? g.volume() : 1.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::size_t t = std::size_t(types[i]);
      if (!wanted[t].empty() && wanted[t][c]) out[t].columns[c].values.push_back(float(v[i] * scale));
    }
  }
  bool want_ids = false;
  for (int t = 1; t < enzo_types; ++t) want_ids = want_ids || (ids && !wanted[std::size_t(t)].empty());
  if (want_ids && l.has_array("particle_index")) {
    const std::vector<std::int64_t> index = f.read_integers(g.id, "particle_index");
    for (std::size_t i = 0; i < types.size() && i < index.size(); ++i)
      if (!wanted[std::size_t(types[i])].empty()) out[std::size_t(types[i])].ids.push_back(std::uint64_t(index[i]));
  }
  for (int t = 1; t < enzo_types; ++t)
    if (!wanted[std::size_t(t)].empty()) out[std::size_t(t)].count += per_type[std::size_t(t)];
}

}  // namespace

const char* enzo_type_name(int t) {
  static const char* const names[enzo_types] = {"gas (leaf cells)", "dark matter",           "stars",
                                                "tracers",          "must-refine particles", "single stars",
                                                "black holes",      "star clusters",         "massive black holes",
                                                "colour stars",     "simple sources",        "other particles"};
  return t >= 0 && t < enzo_types ? names[t] : "no such type";
}

ColumnSnapshot enzo_outline(const std::string& path) {
  const EnzoRun run = open_enzo_run(path);
  const Layout l = layout(run);
  ColumnSnapshot s;
  describe(run, s);
  s.types = empty_types();
  if (!l.fields.empty()) {
    s.types[gas_type].count = std::size_t(enzo_leaf_cells(run));
    s.types[gas_type].columns = cell_columns(run, l);
  }
  std::uint64_t particles = 0;
  for (const EnzoGrid& g : run.grids) particles += g.particles;
  const std::uint64_t stars = run.star_count_known ? std::min(run.star_particles, particles) : 0;
  s.types[2].count = std::size_t(stars);
  s.types[1].count = std::size_t(particles - stars);
  const std::vector<Column> columns = particle_columns(l);
  for (int t = 1; t < enzo_types; ++t) {
    s.types[std::size_t(t)].columns = columns;
    if (l.has_array("particle_index")) s.types[std::size_t(t)].id_name = "particle_index";
  }
  return s;
}

ColumnSnapshot load_enzo(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress) {
  const EnzoRun run = open_enzo_run(path);
  const Layout l = layout(run);
  ColumnSnapshot s;
  describe(run, s);
  s.types = empty_types();
  const bool cells = wanted.wants_type(gas_type) && !l.fields.empty();
  Plan gas;
  if (cells) {
    gas.columns = cell_columns(run, l);
    for (const Column& c : gas.columns)
      gas.wanted.push_back(c.label == "POS" || wanted.wants(c.name, c.label, c.component));
    ColumnType& g = s.types[gas_type];
    for (const Column& c : gas.columns) g.all_fields.push_back(c.name);
    g.columns = gas.columns;
  }
  const std::vector<Column> part_columns = particle_columns(l);
  std::vector<std::vector<bool>> part_wanted(enzo_types);  // per type (empty: not wanted)
  bool particles = false;
  for (int t = 1; t < enzo_types; ++t) {
    if (!wanted.wants_type(t) || part_columns.empty()) continue;
    particles = true;
    for (const Column& c : part_columns)
      part_wanted[std::size_t(t)].push_back(c.label == "POS" || wanted.wants(c.name, c.label, c.component));
    ColumnType& ct = s.types[std::size_t(t)];
    ct.columns = part_columns;
    for (const Column& c : part_columns) ct.all_fields.push_back(c.name);
    if (l.has_array("particle_index")) {
      ct.id_name = "particle_index";
      ct.all_fields.push_back("particle_index");
    }
  }
  // The grids in the order of their files; an MPI process's share is whole grids of about equal work.
  std::vector<const EnzoGrid*> order;
  for (const EnzoGrid& g : run.grids) order.push_back(&g);
  std::stable_sort(order.begin(), order.end(), [](const EnzoGrid* a, const EnzoGrid* b) {
    return (a->baryon_file.empty() ? a->particle_file : a->baryon_file) <
           (b->baryon_file.empty() ? b->particle_file : b->baryon_file);
  });
  auto work = [&](const EnzoGrid& g) {
    return double((cells && g.baryon_fields > 0 ? g.cells() : 0) + (particles ? g.particles : 0)) + 1;
  };
  double total = 0;
  for (const EnzoGrid* g : order) total += work(*g);
  double before = 0, done = 0;
  const double from = total * wanted.part / std::max(1, wanted.parts),
               to = total * (wanted.part + 1) / std::max(1, wanted.parts);
  s.shared_by_file = wanted.parts > 1;
  const double mine = wanted.parts > 1 ? to - from : total;
  OpenFiles files;
  for (const EnzoGrid* g : order) {
    const double w = work(*g), middle = before + w / 2;
    before += w;
    if (wanted.parts > 1 && !(middle >= from && middle < to)) continue;
    if (cells && g->baryon_fields > 0 && !g->baryon_file.empty() && gas.any())
      read_cells(run, l, files.get(run.data_path(g->baryon_file)), *g, gas, s.types[gas_type]);
    if (particles && g->particles > 0 && !g->particle_file.empty())
      read_particles(files.get(run.data_path(g->particle_file)), *g, l, part_columns, part_wanted,
                     wanted.ids || wanted.all, s.types);
    done += w;
    if (progress) progress(std::min(1.0, done / mine));
  }
  for (ColumnType& t : s.types) t.drop_unread();
  return s;
}

}  // namespace splotch
