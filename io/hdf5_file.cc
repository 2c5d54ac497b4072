#include "io/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <type_traits>

#include "errors/user_error.h"
#include "io/field_names.h"
#include "io/gadget_file.h"
#include "io/hdf5_handles.h"
#include "io/input_file.h"

namespace splotch {
namespace {

static_assert(std::is_same<hid_t, std::int64_t>::value, "Hdf5File keeps hid_t as int64_t");

template <class T>
std::vector<T> attribute(hid_t group, const char* name, hid_t memory_type) {
  if (H5Aexists(group, name) <= 0) return {};
  Id a(H5Aopen(group, name, H5P_DEFAULT), H5Aclose);
  Id space(H5Aget_space(a.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (!a.valid() || n <= 0 || n > 4096) return {};  // header attributes are short; more is corruption
  std::vector<T> values(static_cast<std::size_t>(n));
  if (H5Aread(a.get(), memory_type, values.data()) < 0) return {};
  return values;
}

std::vector<double> doubles(hid_t group, const char* name) { return attribute<double>(group, name, H5T_NATIVE_DOUBLE); }
std::vector<std::uint64_t> counts(hid_t group, const char* name) {
  return attribute<std::uint64_t>(group, name, H5T_NATIVE_UINT64);
}

std::string group_name(int type) { return "PartType" + std::to_string(type); }

std::string value_type_name(hid_t type) {
  const std::size_t bytes = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_FLOAT: return "float" + std::to_string(8 * bytes);
    case H5T_INTEGER:
      return std::string(H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(8 * bytes);
    default: return "other";
  }
}

bool is_ieee_float(hid_t type) {
  for (hid_t ieee : {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE})
    if (H5Tequal(type, ieee) > 0) return true;
  return false;
}

// The dataset `name` of `group`, described; none when it is not a dataset of 1 or 2 dimensions.
std::optional<Hdf5Field> describe(hid_t group, const std::string& name) {
  Id d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) return std::nullopt;
  Id space(H5Dget_space(d.get()), H5Sclose);
  Id type(H5Dget_type(d.get()), H5Tclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2) return std::nullopt;
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  Hdf5Field f;
  f.name = name;
  f.rows = std::size_t(dims[0]);
  f.components = int(dims[1]);
  f.value_type = value_type_name(type.get());
  Id plist(H5Dget_create_plist(d.get()), H5Pclose);
  if (H5Tget_class(type.get()) == H5T_FLOAT && is_ieee_float(type.get()) &&
      H5Pget_layout(plist.get()) == H5D_CONTIGUOUS && H5Pget_nfilters(plist.get()) == 0 &&
      H5Pget_external_count(plist.get()) == 0) {
    const haddr_t at = H5Dget_offset(d.get());
    if (at != HADDR_UNDEF) {
      f.raw = true;
      f.offset = std::size_t(at);
      f.value_bytes = int(H5Tget_size(type.get()));
      f.big_endian = H5Tget_order(type.get()) == H5T_ORDER_BE;
    }
  }
  return f;
}

// A string attribute (fixed or variable length); "" when there is none.
std::string text_attribute(hid_t group, const char* name) {
  if (H5Aexists(group, name) <= 0) return "";
  Id a(H5Aopen(group, name, H5P_DEFAULT), H5Aclose);
  Id type(H5Aget_type(a.get()), H5Tclose);
  if (!a.valid() || H5Tget_class(type.get()) != H5T_STRING) return "";
  Id space(H5Aget_space(a.get()), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) return "";
  if (H5Tis_variable_str(type.get()) > 0) {
    char* value = nullptr;
    Id memory(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(memory.get(), H5T_VARIABLE);
    if (H5Aread(a.get(), memory.get(), &value) < 0 || !value) return "";
    std::string out(value);
    H5free_memory(value);
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0 || size > 4096) return "";
  std::string out(size, '\0');
  Id memory(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(memory.get(), size);
  if (H5Aread(a.get(), memory.get(), &out[0]) < 0) return "";
  return out.substr(0, out.find('\0'));
}

// The first of `names` that one of `groups` holds as a number (its first value); none when none does.
std::optional<double> number_in(const std::vector<hid_t>& groups, std::initializer_list<const char*> names) {
  for (const char* name : names)
    for (hid_t g : groups) {
      if (g < 0) continue;
      const std::vector<double> v = doubles(g, name);
      if (!v.empty()) return v[0];
    }
  return std::nullopt;
}

// SWIFT's exponents of U_M, U_L, U_t, U_T from an older file's "Conversion factor" text
// ("a^-3 h^2 U_M U_L^-3  [ g cm^-3 ]"), where it wrote no exponent attributes.
void parse_swift_exponents(const std::string& text, FieldUnits& f) {
  std::size_t at = 0;
  const std::string words = text.substr(0, text.find('['));
  while (at < words.size()) {
    while (at < words.size() && words[at] == ' ') ++at;
    const std::size_t end = std::min(words.find(' ', at), words.size());
    const std::string word = words.substr(at, end - at);
    at = end;
    if (word.size() < 3 || word.compare(0, 2, "U_") != 0) continue;
    const std::size_t hat = word.find('^');
    const double power = hat == std::string::npos ? 1.0 : std::atof(word.c_str() + hat + 1);
    switch (word[2]) {
      case 'M': f.mass += power; break;
      case 'L': f.length += power; break;
      case 't': f.time += power; break;
      case 'T': f.temperature += power; break;
      default: break;  // (U_I, a current: no map unit names it)
    }
  }
}

// The units of each dataset of the particle groups that names its own: SWIFT's (newer: the
// exponent attributes; older: the "Conversion factor" text) and Gadget-4's and AREPO's.
std::vector<FieldUnits> read_field_units(hid_t file, int types) {
  QuietErrors quiet;
  std::vector<FieldUnits> out;
  for (int t = 0; t < std::max(types, 6); ++t) {  // (SWIFT writes 7 types)
    const std::string group = "PartType" + std::to_string(t);
    if (H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0) continue;
    Id g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
    if (!g.valid()) continue;
    for (const std::string& name : link_names(g.get())) {
      bool known = false;
      for (const FieldUnits& f : out) known = known || f.field == name;
      if (known) continue;
      Id d(H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
      if (!d.valid()) continue;
      const std::vector<hid_t> at = {d.get()};
      FieldUnits f;
      f.field = name;
      if (const std::optional<double> cgs = number_in(
              at, {"Conversion factor to CGS (not including cosmological corrections)", "CGS conversion factor"})) {
        f.cgs = *cgs;
        f.a_exponent = number_in(at, {"a-scale exponent"}).value_or(0);
        f.h_exponent = number_in(at, {"h-scale exponent"}).value_or(0);
        if (const std::optional<double> m = number_in(at, {"U_M exponent"})) {
          f.mass = *m;
          f.length = number_in(at, {"U_L exponent"}).value_or(0);
          f.time = number_in(at, {"U_t exponent"}).value_or(0);
          f.temperature = number_in(at, {"U_T exponent"}).value_or(0);
        } else {
          parse_swift_exponents(text_attribute(d.get(), "Conversion factor"), f);
        }
      } else if (const std::optional<double> to_cgs = number_in(at, {"to_cgs"})) {
        // Gadget-4 and AREPO: powers of mass, length and velocity (L / t)
        f.cgs = *to_cgs;
        f.a_exponent = number_in(at, {"a_scaling"}).value_or(0);
        f.h_exponent = number_in(at, {"h_scaling"}).value_or(0);
        const double velocity = number_in(at, {"velocity_scaling"}).value_or(0);
        f.mass = number_in(at, {"mass_scaling"}).value_or(0);
        f.length = number_in(at, {"length_scaling"}).value_or(0) + velocity;
        f.time = -velocity;
      }
      if (f.cgs > 0 && std::isfinite(f.cgs)) out.push_back(f);  // (AREPO writes to_cgs = 0 for none)
    }
  }
  return out;
}

// What the file says of its units: SWIFT's Units and Cosmology groups, else the Gadget family's
// UnitLength_in_cm (and its spellings) in the Header or Parameters, with HubbleParam and
// ComovingIntegrationOn (where no flag is written, a header whose redshift is 1 / Time - 1 with
// Omega0 > 0 is taken as cosmological).
SnapshotUnits read_units(hid_t file, hid_t header, const Hdf5Header& h) {
  SnapshotUnits u;
  auto open = [&](const char* name) {
    return H5Lexists(file, name, H5P_DEFAULT) > 0 ? Id(H5Gopen2(file, name, H5P_DEFAULT), H5Gclose) : Id(-1, H5Gclose);
  };
  const Id units = open("Units"), parameters = open("Parameters"), cosmology = open("Cosmology"),
           hydro = open("HydroScheme");
  if (const std::optional<double> length = number_in({units.get()}, {"Unit length in cgs (U_L)"})) {
    u.code = "SWIFT";
    u.source = "the Units group";
    u.length_cm = *length;
    u.mass_g = number_in({units.get()}, {"Unit mass in cgs (U_M)"}).value_or(0);
    const double time_s = number_in({units.get()}, {"Unit time in cgs (U_t)"}).value_or(0);
    u.velocity_cm_s = time_s > 0 ? u.length_cm / time_s : 0;
    u.comoving = number_in({cosmology.get()}, {"Cosmological run"}).value_or(0) != 0;
    u.scale_factor = number_in({header}, {"Scale-factor"}).value_or(h.time > 0 ? h.time : 1);
    u.hubble = number_in({cosmology.get()}, {"h"}).value_or(0);
    if (hydro.valid()) {
      u.kernel = text_attribute(hydro.get(), "Kernel function");
      u.kernel_gamma = number_in({hydro.get()}, {"Kernel gamma"}).value_or(0);
    }
    u.fields = read_field_units(file, h.types());
    return u;
  }
  u.code = "Gadget";
  const std::vector<hid_t> where = {header, parameters.get()};
  if (const std::optional<double> length =
          number_in(where, {"UnitLength_in_cm", "UnitLength_In_CGS", "UnitLength_in_CGS", "Unit_length_in_cgs"})) {
    u.source = "the file's UnitLength, UnitMass and UnitVelocity attributes";
    u.length_cm = *length;
    u.mass_g = number_in(where, {"UnitMass_in_g", "UnitMass_In_CGS", "UnitMass_in_CGS"}).value_or(0);
    u.velocity_cm_s =
        number_in(where, {"UnitVelocity_in_cm_per_s", "UnitVelocity_In_CGS", "UnitVelocity_in_CGS"}).value_or(0);
  }
  u.hubble = number_in(where, {"HubbleParam"}).value_or(0);
  u.h_scaled = true;
  const std::optional<double> comoving = number_in(where, {"ComovingIntegrationOn"});
  const double omega = number_in(where, {"Omega0", "Omega_Matter"}).value_or(0);
  u.comoving = comoving ? *comoving != 0
                        : omega > 0 && h.time > 0 && h.time <= 1 && h.has_redshift &&
                              std::fabs(1 / h.time - 1 - h.redshift) < 1e-3 * (1 + h.redshift);
  u.scale_factor = u.comoving ? h.time : 1;
  u.fields = read_field_units(file, h.types());
  return u;
}

}  // namespace

bool hdf5_supported() { return true; }

bool hdf5_thread_safe() {
  hbool_t safe = false;
  return H5is_library_threadsafe(&safe) >= 0 && safe;
}

Hdf5File::Hdf5File(const std::string& path) : path_(path) {
  QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    InputFile f(path);  // a missing file or a directory says so
    unsigned char start[4] = {0, 0, 0, 0};
    if (f.size() >= 4) f.read_at(start, 4, 0);
    throw UserError("'" + path + "' is not an HDF5 file" +
                    (is_gadget_start(start) ? ": it looks like a Gadget binary snapshot (simtype 2)" : ""));
  }
  errno = 0;
  file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_ < 0)
    throw UserError("cannot open the HDF5 file '" + path + "'" +
                    (errno == EMFILE ? ": too many open files (a snapshot of many files? raise the limit: ulimit -n)"
                                     : " (damaged or truncated?)"));
  Id header(H5Gopen2(file_, "Header", H5P_DEFAULT), H5Gclose);
  if (!header.valid() || H5Aexists(header.get(), "NumPart_ThisFile") <= 0) {
    const std::vector<std::string> names = link_names(file_);
    std::string groups;
    for (std::size_t k = 0; k < names.size() && k < 8; ++k) groups += (groups.empty() ? "" : ", ") + names[k];
    if (names.size() > 8) groups += ", ... (" + std::to_string(names.size()) + " in all)";
    // Enzo's data files hold a group per grid (Grid00000001), its hierarchy's HDF5 twin Level0, ...
    const bool enzo = std::any_of(names.begin(), names.end(), [](const std::string& n) {
      return n == "Level0" || (n.size() == 12 && n.rfind("Grid", 0) == 0);
    });
    H5Fclose(file_);
    throw UserError("HDF5 file '" + path + "' has no Header group with NumPart_ThisFile, so it is not a " +
                    "Gadget/AREPO/GIZMO/SWIFT snapshot; its top-level objects: " + (groups.empty() ? "none" : groups) +
                    (enzo ? ". It is a file of an Enzo output: read the output (its directory, its parameter file or "
                            "its .hierarchy) with simtype = 3"
                          : ""));
  }
  Hdf5Header& h = header_;
  h.npart = counts(header.get(), "NumPart_ThisFile");
  h.npart_total = counts(header.get(), "NumPart_Total");
  const std::vector<std::uint64_t> high = counts(header.get(), "NumPart_Total_HighWord");
  for (std::size_t t = 0; t < h.npart_total.size() && t < high.size(); ++t) h.npart_total[t] += high[t] << 32;
  h.mass = doubles(header.get(), "MassTable");
  auto scalar = [&](const char* name, double fallback) {
    const std::vector<double> v = doubles(header.get(), name);
    return v.empty() ? fallback : v[0];  // BoxSize may be a 3-vector: a cube's side
  };
  h.time = scalar("Time", 0);
  h.has_redshift = H5Aexists(header.get(), "Redshift") > 0;
  h.redshift = scalar("Redshift", 0);
  h.box_sides = doubles(header.get(), "BoxSize");
  const bool cube = !h.box_sides.empty() && std::all_of(h.box_sides.begin(), h.box_sides.end(),
                                                        [&](double side) { return side == h.box_sides[0]; });
  h.box_size = cube ? h.box_sides[0] : 0.0;
  h.num_files = int(scalar("NumFilesPerSnapshot", 1));
  h.units = read_units(file_, header.get(), h);
}

Hdf5File::~Hdf5File() {
  if (file_ >= 0) H5Fclose(file_);
}

const std::vector<Hdf5Field>& Hdf5File::fields(int type) const {
  auto known = fields_.find(type);
  if (known != fields_.end()) return known->second;
  QuietErrors quiet;
  std::vector<Hdf5Field>& out = fields_[type];
  Id group(H5Gopen2(file_, group_name(type).c_str(), H5P_DEFAULT), H5Gclose);
  if (!group.valid()) return out;
  for (const std::string& name : link_names(group.get()))
    if (std::optional<Hdf5Field> f = describe(group.get(), name)) out.push_back(*f);
  return out;
}

std::optional<Hdf5Field> Hdf5File::find(int type, const std::string& label) const {
  const std::vector<Hdf5Field>& all = fields(type);
  for (const Hdf5Field& f : all)
    if (lower_case(f.name) == lower_case(label)) return f;
  const std::string block = gadget_block_label(label);
  for (const Hdf5Field& f : all)
    if (gadget_block_label(f.name) == block) return f;
  return std::nullopt;
}

std::string Hdf5File::field_names(int type) const {
  std::string names;
  for (const Hdf5Field& f : fields(type)) names += (names.empty() ? "" : ", ") + f.name;
  return names.empty() ? "none (no " + group_name(type) + " group)" : names;
}

ParticleArray<float> Hdf5File::read_field(int type, const Hdf5Field& field, int component) const {
  ParticleArray<float> values(field.rows);
  const std::size_t piece = std::size_t(1) << 20;
  for (std::size_t first = 0; first < field.rows; first += piece) {
    float* targets[3] = {nullptr, nullptr, nullptr};
    targets[component] = values.data() + first;
    read(type, field, first, std::min(piece, field.rows - first), targets, component + 1, 1.0f);
  }
  return values;
}

namespace {

// Rows [first, first + count) of dataset `field` of group `group`, every component, converted by the
// library to `memory_type` into `dest`; `what` ends the error's text.
void read_rows(hid_t file, const std::string& path, const std::string& group, const Hdf5Field& field, std::size_t first,
               std::size_t count, hid_t memory_type, void* dest, const std::string& what) {
  QuietErrors quiet;
  const std::string where = "'" + path + "' " + group + "/" + field.name;
  Id g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
  Id d(g.valid() ? H5Dopen2(g.get(), field.name.c_str(), H5P_DEFAULT) : -1, H5Dclose);
  if (!d.valid()) throw UserError("cannot open " + where);
  Id file_space(H5Dget_space(d.get()), H5Sclose);
  const hsize_t start[2] = {hsize_t(first), 0}, size[2] = {hsize_t(count), hsize_t(field.components)};
  const int rank = H5Sget_simple_extent_ndims(file_space.get());
  Id memory(H5Screate_simple(rank, size, nullptr), H5Sclose);
  if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, size, nullptr) < 0 ||
      H5Dread(d.get(), memory_type, memory.get(), file_space.get(), H5P_DEFAULT, dest) < 0)
    throw UserError("cannot read rows " + std::to_string(first) + " to " + std::to_string(first + count) + " of " +
                    where + what);
}

}  // namespace

void Hdf5File::read(int type, const Hdf5Field& field, std::size_t first, std::size_t count, float* const targets[],
                    int target_count, float factor) const {
  const std::size_t k = std::size_t(field.components);
  std::vector<float> values(count * k);
  read_rows(file_, path_, group_name(type), field, first, count, H5T_NATIVE_FLOAT, values.data(),
            " (damaged or truncated file?)");
  for (int c = 0; c < target_count && c < int(k); ++c)
    if (float* out = targets[c])
      for (std::size_t i = 0; i < count; ++i) out[i] = values[i * k + std::size_t(c)] * factor;
}

void Hdf5File::read_ids(int type, const Hdf5Field& field, std::size_t first, std::size_t count,
                        std::uint64_t* out) const {
  read_rows(file_, path_, group_name(type), field, first, count, H5T_NATIVE_UINT64, out,
            " as integer IDs (damaged file, or not integers?)");
}

}  // namespace splotch
