#include "io/enzo_run.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "errors/user_error.h"

namespace splotch {
namespace {

bool is_directory(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "./" : path.substr(0, slash + 1);
}
std::string base_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const std::size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The parameter file and hierarchy `path` stands for ("" where it names none).
std::pair<std::string, std::string> locate(const std::string& path) {
  if (is_directory(path)) {
    const std::string dir = path.back() == '/' ? path : path + "/";
    const std::string p = dir + base_name(path);
    if (is_file(p + ".hierarchy")) return {p, p + ".hierarchy"};
    return {};
  }
  const std::string twin = ".hierarchy.hdf5";  // (the HDF5 twin of the text hierarchy: the output too)
  if (path.size() > twin.size() && path.compare(path.size() - twin.size(), twin.size(), twin) == 0) {
    const std::string p = path.substr(0, path.size() - twin.size());
    if (is_file(p + ".hierarchy")) return {p, p + ".hierarchy"};
  }
  const std::string suffix = ".hierarchy";
  if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    const std::string p = path.substr(0, path.size() - suffix.size());
    return is_file(path) ? std::make_pair(p, path) : std::make_pair(std::string(), std::string());
  }
  if (is_file(path + ".hierarchy")) return {path, path + ".hierarchy"};
  // A data file (DD0018.cpu0000, DD0018.grid0001, DD0018.boundary): the output it belongs to.
  const std::size_t dot = path.rfind('.'), slash = path.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    const std::string p = path.substr(0, dot);
    if (is_file(p + ".hierarchy")) return {p, p + ".hierarchy"};
  }
  return {};
}

std::vector<double> numbers(const std::string& value) {
  std::vector<double> v;
  std::istringstream in(value);
  for (std::string word; in >> word;) {
    char* end = nullptr;
    const double x = std::strtod(word.c_str(), &end);
    if (end == word.c_str()) break;
    v.push_back(x);
  }
  return v;
}

// A number of the text as an int where it is one within `limit` of 0, else `otherwise` (a damaged
// file's 1e30 is no grid's size).
int whole_number(double v, int otherwise, double limit = 1e9) {
  return std::isfinite(v) && std::abs(v) <= limit ? int(v) : otherwise;
}

double number_or(const EnzoRun& run, const std::string& key, double otherwise) {
  const std::string* v = run.parameter(key);
  if (!v) return otherwise;
  const std::vector<double> n = numbers(*v);
  return n.empty() ? otherwise : n[0];
}

void read_parameters(EnzoRun& run) {
  std::ifstream in(run.parameter_path);
  if (!in) throw UserError("cannot open the Enzo parameter file '" + run.parameter_path + "'");
  for (std::string line; std::getline(in, line);) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(line.substr(0, eq));
    if (!key.empty()) run.parameters[key] = trim(line.substr(eq + 1));
  }
  if (!run.parameter("TopGridRank") && !run.parameter("InitialTime"))
    throw UserError("'" + run.parameter_path +
                    "' has no TopGridRank or InitialTime line: it is not an Enzo output's parameter file; name the "
                    "output's directory, its parameter file (DD0018/DD0018) or its .hierarchy");
  run.rank = whole_number(number_or(run, "TopGridRank", 3), 0);
  if (run.rank < 1 || run.rank > 3)
    throw UserError("'" + run.parameter_path + "': TopGridRank = " + std::to_string(run.rank) +
                    " is not 1, 2 or 3: the parameter file is damaged");
  auto triple = [&](const char* key, auto& out) {
    if (const std::string* v = run.parameter(key)) {
      const std::vector<double> n = numbers(*v);
      for (std::size_t d = 0; d < n.size() && d < 3; ++d) {
        using T = std::decay_t<decltype(out[0])>;
        out[d] = std::is_integral_v<T> ? T(whole_number(n[d], 0)) : T(n[d]);
      }
    }
  };
  triple("TopGridDimensions", run.top_dims);
  triple("DomainLeftEdge", run.domain_left);
  triple("DomainRightEdge", run.domain_right);
  for (int d = run.rank; d < 3; ++d) run.top_dims[std::size_t(d)] = 1;
  run.time = number_or(run, "InitialTime", 0);
  run.cosmological = number_or(run, "ComovingCoordinates", 0) != 0;
  run.hydro_method = whole_number(number_or(run, "HydroMethod", -1), -1);
  run.dual_energy = number_or(run, "DualEnergyFormalism", 0) != 0;
  run.gamma = number_or(run, "Gamma", 0);
  // Boundary condition 3 is Enzo's periodic one; the box wraps only when every face is.
  const std::string* faces = run.parameter("LeftFaceBoundaryCondition");
  if (faces) {
    const std::vector<double> f = numbers(*faces);
    run.periodic = !f.empty() && std::all_of(f.begin(), f.end(), [](double b) { return b == 3; });
  }
  if (run.cosmological) {
    // Enzo's CosmologyGetUnits, with the constants it uses: code lengths are proper at the output's
    // redshift, densities in units of the mean matter density.
    const double z = number_or(run, "CosmologyCurrentRedshift", 0), zi = number_or(run, "CosmologyInitialRedshift", 0);
    const double h = number_or(run, "CosmologyHubbleConstantNow", 0), om = number_or(run, "CosmologyOmegaMatterNow", 0);
    const double box = number_or(run, "CosmologyComovingBoxSize", 0);
    run.redshift = z;
    run.hubble = h;
    if (h > 0 && om > 0 && box > 0) {
      const double density = 1.8788e-29 * om * h * h * std::pow(1 + z, 3);
      run.length_cm = 3.085678e24 * box / h / (1 + z);
      run.mass_g = density * run.length_cm * run.length_cm * run.length_cm;
      run.time_s = 2.519445e17 / std::sqrt(om) / h / std::pow(1 + zi, 1.5);
      run.velocity_cm_s = 1.22475e7 * box * std::sqrt(om) * std::sqrt(1 + zi);
    }
  } else {
    run.length_cm = number_or(run, "LengthUnits", 0);
    run.time_s = number_or(run, "TimeUnits", 0);
    const double density = number_or(run, "DensityUnits", 0), mass = number_or(run, "MassUnits", 0);
    if (run.length_cm > 0) run.mass_g = density > 0 ? density * std::pow(run.length_cm, 3) : mass;
    if (run.length_cm > 0 && run.time_s > 0) run.velocity_cm_s = run.length_cm / run.time_s;
  }
}

[[noreturn]] void bad_line(const EnzoRun& run, int line, const std::string& text, const std::string& why) {
  throw UserError("'" + run.hierarchy_path + "', line " + std::to_string(line) + " ('" + text + "'): " + why +
                  ": the hierarchy is damaged");
}

void read_hierarchy(EnzoRun& run) {
  std::ifstream in(run.hierarchy_path);
  if (!in) throw UserError("cannot open the Enzo hierarchy '" + run.hierarchy_path + "'");
  std::map<int, int> first_child, next_sibling;
  std::map<int, std::size_t> index;
  EnzoGrid* g = nullptr;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string text = trim(line);
    if (text.empty()) continue;
    if (text.rfind("Pointer:", 0) == 0) {
      // "Pointer: Grid[2]->NextGridNextLevel = 3": 3 is 2's first child; NextGridThisLevel: the next sibling.
      int a = 0, b = 0;
      char kind[32] = {0};
      if (std::sscanf(text.c_str(), "Pointer: Grid[%d]->NextGrid%31[A-Za-z] = %d", &a, kind, &b) != 3)
        bad_line(run, number, text, "not a grid pointer");
      if (b != 0) (std::string(kind) == "NextLevel" ? first_child : next_sibling)[a] = b;
      continue;
    }
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(text.substr(0, eq)), value = trim(text.substr(eq + 1));
    if (key == "Grid") {
      run.grids.emplace_back();
      g = &run.grids.back();
      g->id = std::atoi(value.c_str());
      if (g->id < 1 || index.count(g->id)) bad_line(run, number, text, "a grid number twice or below 1");
      index[g->id] = run.grids.size() - 1;
      g->rank = run.rank;
      continue;
    }
    if (key == "NumberOfStarParticles") {
      const std::vector<double> n = numbers(value);
      run.star_particles = !n.empty() && n[0] > 0 && n[0] < 1e18 ? std::uint64_t(n[0]) : 0;
      run.star_count_known = true;
      continue;
    }
    if (!g) continue;
    const std::vector<double> n = numbers(value);
    auto fill = [&](auto& out) {
      if (int(n.size()) < g->rank) bad_line(run, number, text, std::to_string(g->rank) + " numbers expected");
      for (int d = 0; d < g->rank; ++d) {
        using T = std::decay_t<decltype(out[0])>;
        const double v = n[std::size_t(d)];
        if constexpr (std::is_integral_v<T>) {
          if (!(std::isfinite(v) && std::abs(v) <= 1e9)) bad_line(run, number, text, "not a grid's index or size");
          out[std::size_t(d)] = T(v);
        } else {
          if (!std::isfinite(v)) bad_line(run, number, text, "not a position");
          out[std::size_t(d)] = T(v);
        }
      }
    };
    if (key == "GridRank") {
      g->rank = n.empty() ? 0 : whole_number(n[0], 0);
      if (g->rank < 1 || g->rank > 3) bad_line(run, number, text, "a rank of 1, 2 or 3 expected");
    } else if (key == "GridDimension") {
      fill(g->dims);
    } else if (key == "GridStartIndex") {
      fill(g->start);
    } else if (key == "GridEndIndex") {
      fill(g->end);
    } else if (key == "GridLeftEdge") {
      fill(g->left);
    } else if (key == "GridRightEdge") {
      fill(g->right);
    } else if (key == "NumberOfBaryonFields") {
      g->baryon_fields = n.empty() ? 0 : whole_number(n[0], 0);
    } else if (key == "NumberOfParticles") {
      if (!n.empty() && !(n[0] >= 0 && n[0] < 1e15)) bad_line(run, number, text, "not a number of particles");
      g->particles = n.empty() ? 0 : std::uint64_t(n[0]);
    } else if (key == "BaryonFileName") {
      g->baryon_file = value;
    } else if (key == "ParticleFileName") {
      g->particle_file = value;
    }
  }
  if (run.grids.empty())
    throw UserError("'" + run.hierarchy_path + "' holds no \"Grid = \" block: it is not an Enzo hierarchy");
  for (EnzoGrid& grid : run.grids) {
    // (every grid of Enzo's fits in memory: more than 2^36 cells, ghost zones included, is damage)
    double all = 1;
    for (int d = 0; d < grid.rank; ++d) {
      const long long active = (long long)(grid.end[std::size_t(d)]) - grid.start[std::size_t(d)] + 1;
      all *= double(grid.dims[std::size_t(d)]);
      if (active < 1 || grid.start[std::size_t(d)] < 0 || grid.end[std::size_t(d)] >= grid.dims[std::size_t(d)] ||
          !(grid.right[std::size_t(d)] > grid.left[std::size_t(d)]) || all > double(std::uint64_t(1) << 36))
        throw UserError("'" + run.hierarchy_path + "': grid " + std::to_string(grid.id) +
                        "'s dimensions, indices or edges do not make a grid: the hierarchy is damaged");
    }
    for (int d = grid.rank; d < 3; ++d) {
      grid.start[std::size_t(d)] = grid.end[std::size_t(d)] = 0;
      grid.left[std::size_t(d)] = 0;
      grid.right[std::size_t(d)] = 1;
    }
  }
  // The tree: each grid's first child, and that child's siblings. A level is a parent's plus one.
  std::vector<int> level(run.grids.size(), -1);
  std::vector<std::size_t> todo;
  std::vector<bool> child(run.grids.size(), false);
  for (const auto& fc : first_child)
    for (int c = fc.second; c != 0;) {
      const auto it = index.find(c);
      if (it == index.end()) break;
      if (child[it->second]) break;  // a loop in a damaged file
      child[it->second] = true;
      const auto parent = index.find(fc.first);
      if (parent != index.end()) run.grids[parent->second].children.push_back(c);
      const auto next = next_sibling.find(c);
      c = next == next_sibling.end() ? 0 : next->second;
    }
  for (std::size_t i = 0; i < run.grids.size(); ++i)
    if (!child[i]) {
      level[i] = 0;
      todo.push_back(i);
    }
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    run.grids[i].level = level[i];
    for (int c : run.grids[i].children) {
      const std::size_t k = index[c];
      if (level[k] >= 0) continue;
      level[k] = level[i] + 1;
      todo.push_back(k);
    }
  }
}

}  // namespace

double EnzoGrid::width(int d) const {
  if (d >= rank) return 1;
  return (right[std::size_t(d)] - left[std::size_t(d)]) / active(d);
}

double EnzoGrid::volume() const {
  double v = 1;
  for (int d = 0; d < rank; ++d) v *= width(d);
  return v;
}

const std::string* EnzoRun::parameter(const std::string& key) const {
  const auto it = parameters.find(key);
  return it == parameters.end() ? nullptr : &it->second;
}

std::string EnzoRun::data_path(const std::string& as_written) const {
  const std::string here = directory + base_name(as_written);
  if (is_file(here) || as_written.empty()) return here;
  const std::string written = as_written[0] == '/' ? as_written : directory + "../" + as_written;
  return is_file(written) ? written : here;  // (a missing file is named where the output's others are)
}

int EnzoRun::max_level() const {
  int m = 0;
  for (const EnzoGrid& g : grids) m = std::max(m, g.level);
  return m;
}

const EnzoGrid* EnzoRun::grid(int id) const {
  if (id >= 1 && std::size_t(id) <= grids.size() && grids[std::size_t(id - 1)].id == id)
    return &grids[std::size_t(id - 1)];
  for (const EnzoGrid& g : grids)
    if (g.id == id) return &g;
  return nullptr;
}

bool is_enzo_output(const std::string& path) {
  const auto [parameters, hierarchy] = locate(path);
  if (hierarchy.empty() || !is_file(parameters)) return false;
  std::ifstream in(parameters);
  std::string line;
  for (int n = 0; n < 400 && std::getline(in, line); ++n)
    if (line.rfind("TopGridRank", 0) == 0 || line.rfind("InitialTime", 0) == 0) return true;
  return false;
}

EnzoRun open_enzo_run(const std::string& path) {
  const auto [parameters, hierarchy] = locate(path);
  if (hierarchy.empty()) {
    std::string also;
    if (is_file(path + ".hierarchy.hdf5"))
      also =
          " (only the HDF5 hierarchy is there, which this reader does not read: rerun the output with "
          "HierarchyFileOutputFormat = 2, or write the text hierarchy)";
    throw UserError("'" + path + "' is not an Enzo output: no NAME.hierarchy beside it" + also +
                    "; name the output's directory (DD0018), its parameter file (DD0018/DD0018) or its .hierarchy");
  }
  EnzoRun run;
  run.parameter_path = parameters;
  run.hierarchy_path = hierarchy;
  run.directory = directory_of(hierarchy);
  run.name = base_name(parameters);
  if (!is_file(parameters))
    throw UserError("the Enzo output's parameter file '" + parameters + "' is missing beside '" + hierarchy +
                    "': the units, time and domain are read from it; copy it from the run's output directory");
  read_parameters(run);
  read_hierarchy(run);
  return run;
}

namespace {

// The range of `g`'s cells that child `c` covers, [lo, hi) per axis (the child's edges lie on
// the parent's cell faces: found by rounding); false where it covers none.
bool child_cells(const EnzoGrid& g, const EnzoGrid& c, int lo[3], int hi[3]) {
  bool inside = true;
  for (int d = 0; d < 3; ++d) {
    lo[d] = 0;
    hi[d] = g.active(d);
  }
  for (int d = 0; d < g.rank; ++d) {
    const double w = g.width(d);
    const double a = (c.left[std::size_t(d)] - g.left[std::size_t(d)]) / w,
                 b = (c.right[std::size_t(d)] - g.left[std::size_t(d)]) / w;
    if (!(a < hi[d] && b > 0)) return false;  // (NaN and grids beside this one too)
    lo[d] = std::max(0, int(std::lround(std::max(a, 0.0))));
    hi[d] = std::min(hi[d], int(std::lround(std::min(b, double(hi[d])))));
    inside = inside && lo[d] < hi[d];
  }
  return inside;
}

}  // namespace

std::vector<std::uint8_t> covered_cells(const EnzoRun& run, const EnzoGrid& g) {
  std::vector<std::uint8_t> covered(g.cells(), 0);
  const std::size_t nx = std::size_t(g.active(0)), ny = std::size_t(g.active(1));
  for (int id : g.children) {
    const EnzoGrid* c = run.grid(id);
    int lo[3], hi[3];
    if (!c || !child_cells(g, *c, lo, hi)) continue;
    for (int k = lo[2]; k < hi[2]; ++k)
      for (int j = lo[1]; j < hi[1]; ++j)
        std::fill_n(covered.begin() + std::ptrdiff_t((std::size_t(k) * ny + std::size_t(j)) * nx + std::size_t(lo[0])),
                    hi[0] - lo[0], std::uint8_t(1));
  }
  return covered;
}

std::uint64_t enzo_leaf_cells(const EnzoRun& run) {
  // By counting, without a mask per grid: a grid's cells less those its children cover (the
  // children of a grid do not overlap).
  std::uint64_t leaves = 0;
  for (const EnzoGrid& g : run.grids) {
    std::uint64_t covered = 0;
    for (int id : g.children) {
      const EnzoGrid* c = run.grid(id);
      int lo[3], hi[3];
      if (c && child_cells(g, *c, lo, hi))
        covered += std::uint64_t(hi[0] - lo[0]) * std::uint64_t(hi[1] - lo[1]) * std::uint64_t(hi[2] - lo[2]);
    }
    leaves += std::uint64_t(g.cells()) - std::min<std::uint64_t>(covered, g.cells());
  }
  return leaves;
}

}  // namespace splotch
