// The input half of the settings: which snapshot, in which format, and what to read of each type
// (docs/design.md section 3, input keys). Reading them may open a snapshot's first file (its header
// counts the files, its markers the byte order), but reads no particle.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/enzo_reader.h"
#include "io/enzo_run.h"
#include "io/field_names.h"
#include "io/fits_reader.h"
#include "io/gadget_file.h"
#include "io/hdf5_file.h"
#include "io/hdf5_table_reader.h"
#include "io/mesh_reader.h"
#include "io/phantom_reader.h"
#include "io/ramses_output.h"
#include "io/ramses_reader.h"
#include "io/snapshot_survey.h"
#include "io/tipsy_file.h"
#include "io/visivo_reader.h"
#include "params/number_text.h"
#include "splotch/load/snapshot_files.h"
#include "splotch/settings/settings.h"
#include "splotch/settings/settings_keys.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

// A relative path is taken from the working directory, as the original does; when nothing is
// there, from the parameter file's directory, so that a .par and its data can move together.
std::string resolve(const std::string& path, const ParamFile& params) {
  if (path.empty() || path[0] == '/' || path_exists(path)) return path;
  const std::string beside = directory_of(params.name()) + path;
  return path_exists(beside) ? beside : path;
}

}  // namespace

// The file a key names, found as resolve() finds it, and recorded in used.par as an absolute
// path: the record reproduces the picture from any working directory.
std::string input_path(ParamFile& p, const std::string& key) {
  const std::string given = p.get<std::string>(key);
  const std::string found = resolve(given, p);
  if (path_exists(found) && !is_regular_file(found))
    throw UserError(at(p, key) + " = " + given + " names a directory, not a file: name the file in it");
  if (path_exists(found)) p.resolve(key, absolute_path(found), "given as " + given);
  return found;
}

std::vector<std::string> snapshot_files(ParamFile& p, const std::string& extension,
                                        const std::function<int(const std::string& path)>& files_in_header,
                                        std::vector<std::string>* warnings) {
  SnapshotNames names;
  names.infile = p.get<std::string>("infile");
  names.datadir = p.get<std::string>("datadir", "");
  names.snapdir = p.get<std::string>("snapdir", "");
  // fidx is looked up only when given: its presence changes which names are tried first, and
  // used.par must not give it where the run did not.
  if (p.has("fidx")) names.fidx = p.get<int>("fidx");
  if (names.fidx && (*names.fidx < 0 || *names.fidx > 999999))
    throw UserError(p.origin("fidx") + ": fidx = " + std::to_string(*names.fidx) + " must be from 0");
  if (p.has("numfiles")) names.numfiles = p.get<int>("numfiles", 0);
  if (names.numfiles && *names.numfiles < 1)
    throw UserError(p.origin("numfiles") + ": numfiles = " + std::to_string(*names.numfiles) + " must be at least 1");
  names.beside = directory_of(p.name());
  names.infile_origin = p.origin("infile");
  names.numfiles_origin = p.origin("numfiles");
  const FoundSnapshot found = find_snapshot_files(names, extension, files_in_header, warnings);
  // The record (used.par) names what was found: the absolute name the files derive from and their
  // count, which find the same files from any working directory.
  // Numbered by fidx: the stem it numbered, so that the record's fidx (a scene's, or one given on
  // top) names the snapshot it says.
  if (!found.numbered_stem.empty())
    p.resolve(
        "infile", absolute_path(found.numbered_stem),
        "given as " + names.infile + "; with fidx = " + std::to_string(*names.fidx) + ": " + absolute_path(found.base));
  else
    p.resolve("infile", absolute_path(found.base), "given as " + names.infile);
  if (!names.datadir.empty()) p.resolve("datadir", "", "in infile");
  if (!names.snapdir.empty()) p.resolve("snapdir", "", "in infile");
  p.resolve("numfiles", std::to_string(found.files.size()), names.numfiles ? "" : "from the files found");
  return found.files;
}

std::vector<std::string> typed_snapshot_files(ParamFile& p, SnapshotFormat format, std::vector<std::string>* warnings) {
  // HDF5 file names are Gadget's plus .hdf5 (snap_010.hdf5, snap_010.3.hdf5), or as given; a
  // Tipsy snapshot is one file.
  if (reads_hdf5(format))
    return snapshot_files(
        p, ".hdf5", [](const std::string& f) { return Hdf5File(f).header().num_files; }, warnings);
  if (format == SnapshotFormat::tipsy || format == SnapshotFormat::phantom || format == SnapshotFormat::ascii ||
      format == SnapshotFormat::visivo || format == SnapshotFormat::fits || format == SnapshotFormat::mesh ||
      format == SnapshotFormat::bonsai)
    return snapshot_files(p, "", [](const std::string&) { return 1; });
  if (format == SnapshotFormat::enzo) {  // an output's directory, parameter file or hierarchy
    if (!p.has("infile") && p.has("hierarchy_file"))
      throw UserError(at(p, "hierarchy_file") +
                      ": the original's list of grids made for its Enzo reader is not read here; give infile = the "
                      "output's directory, its parameter file (DD0018/DD0018) or its .hierarchy, which hold the grids");
    const std::string given = p.get<std::string>("infile");
    const std::string found = resolve(given, p);
    if (!is_enzo_output(found))
      throw UserError(at(p, "infile") + " = " + given +
                      (path_exists(found) ? " is not an Enzo output: simtype = 3 reads an output's directory (DD0018), "
                                            "its parameter file (DD0018/DD0018) or its DD0018.hierarchy, side by side"
                                          : ": no such directory or file, here or beside the parameter file"));
    p.resolve("infile", absolute_path(found), "given as " + given);
    return {found};
  }
  if (format == SnapshotFormat::ramses) {  // an output directory (or its info file), whose files its info names
    const std::string given = p.get<std::string>("infile");
    const std::string found = resolve(given, p);
    if (!is_ramses_output(found))
      throw UserError(at(p, "infile") + " = " + given +
                      (path_exists(found) ? " is not a RAMSES output: simtype = 13 reads an output_NNNNN directory "
                                            "(with its info_NNNNN.txt), named by the directory or its info file"
                                          : ": no such directory or file, here or beside the parameter file"));
    p.resolve("infile", absolute_path(found), "given as " + given);
    return {found};
  }
  return snapshot_files(
      p, "", [](const std::string& f) { return GadgetFile(f).header().num_files; }, warnings);
}

namespace {

// "bluered, fire, grey" of the .pal files in `directory`.
std::string palettes_in(const std::string& directory) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(directory.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".pal") == 0)
        names.push_back(name.substr(0, name.size() - 4));
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

std::string palette_path(ParamFile& p, const std::string& key) {
  const std::string given = p.get<std::string>(key);
  std::string found = resolve(given, p);
  const std::string project = project_palette_directory();
  // A bare name, or a relative path to the project's palettes from elsewhere (testdata/palettes/fire.pal
  // run from another directory): the project's palette of that name.
  const std::string name_only = given.substr(given.rfind('/') == std::string::npos ? 0 : given.rfind('/') + 1);
  if (!path_exists(found) && !given.empty() && given[0] != '/')
    for (const std::string& name : {name_only, name_only + ".pal"})
      if (is_regular_file(project + name)) {
        found = project + name;
        break;
      }
  if (path_exists(found))
    p.resolve(key, absolute_path(found), "given as " + given);
  else if (!path_exists(project))  // (a program copied away from its checkout)
    p.reject(at(p, key) + " = " + given + ": no such file here or beside the parameter file, and the project's " +
             "palettes (" + project + ") are not beside this program: give the path of a .pal file, or run the " +
             "bin/splotch of a built checkout");
  else
    p.reject(at(p, key) + " = " + given + ": no such file here or beside the parameter file, nor a palette of the " +
             "project's (" + palettes_in(project) + ", in " + project + ")");
  return found;
}

namespace {

// 1-based column key; 0, negative or absent mean "no such column" (as in the original).
int column(ParamFile& p, const std::string& key, bool required) {
  int v = required ? p.get<int>(key) : p.get<int>(key, -1);
  if (required && v < 1) throw UserError(at(p, key) + " = " + std::to_string(v) + ": a column number from 1 is needed");
  return v >= 1 ? v - 1 : -1;
}

// map = ..., or "" (no map; the map's settings say whether the value is one).
std::string map_mode(ParamFile& p) { return p.has("map") ? p.get<std::string>("map") : std::string(); }

// A map of a file whose fields are chosen by the parameter file (raw: column numbers; simtype 7:
// dataset names): a column sums map_quantity0, else I, else 1 per particle (a number surface
// density); an average weights map_quantity0 by map_weight0, else I, else 1. `field_of` gives a
// key's field, `none` where it is absent.
template <class Field, class FieldOf>
void map_fields(ParamFile& p, Field& amount, Field& averaged, float& amount_absent, FieldOf field_of, Field none) {
  const std::string mode = map_mode(p);
  amount_absent = 1.0f;
  if (mode == "column") {
    const Field q = field_of("map_quantity0");
    if (q != none) amount = q;
    return;
  }
  const Field w = field_of("map_weight0");
  if (w != none) amount = w;
  averaged = field_of("map_quantity0");
  if (averaged == none)
    p.reject(p.origin("map") + ": map = average needs map_quantity0, the field averaged along the line of sight");
}

RawOptions read_raw_options(ParamFile& p, SnapshotFormat format) {
  RawOptions o;
  o.layout = format == SnapshotFormat::raw_table ? RawOptions::Layout::table : RawOptions::Layout::blocks;
  o.num_fields = p.get<int>("num_blocks");
  if (o.num_fields < 1)
    throw UserError(at(p, "num_blocks") + " = " + std::to_string(o.num_fields) + " must be at least 1");
  o.x = column(p, "x", true);
  o.y = column(p, "y", true);
  o.z = column(p, "z", true);
  o.hsml = column(p, "r", false);
  o.intensity = column(p, "I", false);
  o.colour[0] = column(p, "C1", false);
  o.vector_colour = p.get<bool>("color_is_vector0", false);
  if (o.vector_colour) {
    o.colour[1] = column(p, "C2", false);
    o.colour[2] = column(p, "C3", false);
  }
  const char* keys[] = {"x", "y", "z", "r", "I", "C1", "C2", "C3"};
  const int cols[] = {o.x, o.y, o.z, o.hsml, o.intensity, o.colour[0], o.colour[1], o.colour[2]};
  for (int k = 0; k < 8; ++k)
    if (cols[k] >= o.num_fields)
      p.reject(at(p, keys[k]) + " = " + std::to_string(cols[k] + 1) +
               " is beyond num_blocks = " + std::to_string(o.num_fields));
  if (map_mode(p) == "column" || map_mode(p) == "average") {
    // A map of a raw file: its columns have numbers, not names.
    auto numbered = [&](const std::string& key) {
      if (!p.has(key)) return -1;
      const std::string v = p.get<std::string>(key);
      char* end = nullptr;
      const long c = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || c < 1 || c > o.num_fields) {
        p.reject(at(p, key) + " = " + v + ": a raw file's fields have no names; give the column's number, 1 to " +
                 "num_blocks = " + std::to_string(o.num_fields));
        return -1;
      }
      return int(c - 1);
    };
    map_fields(p, o.intensity, o.colour[0], o.intensity_absent, numbered, -1);
  }
  o.swap_endian = p.get<bool>("swap_endian", true);
  o.smooth_factor = p.get<float>("smooth_factor", 1.0f);
  if (!(o.smooth_factor > 0)) p.reject(at(p, "smooth_factor") + " must be positive");
  return o;
}

// A mask of Gadget particle types (bit t: type t), when the key is given; 0, as the original's
// files write it, means "from the block's size", as when the key is absent. So does a mask
// without the bit of the type read (`file_type`): the original's files use the key for the types
// before it whose values to skip (demo.par: color_present1 = 1 for the stars' AGE), and the
// block's size says the same where it can.
std::optional<unsigned> type_mask(ParamFile& p, const std::string& key, int file_type,
                                  std::vector<std::string>& notes) {
  if (!p.has(key)) return std::nullopt;
  const int mask = p.get<int>(key);
  if (mask < 0 || mask > 63)
    p.reject(
        at(p, key) + " = " + std::to_string(mask) +
        " must be a mask of particle types from 1 to 63 (bit t: type t), or 0 to work it out from the block's size");
  if (mask <= 0 || mask > 63) return std::nullopt;
  if (file_type >= 0 && file_type < 6 && !(mask & (1 << file_type))) {
    notes.push_back(at(p, key) + " = " + std::to_string(mask) + " does not hold particle type " +
                    std::to_string(file_type) +
                    ", whose values it reads: the types the block holds were worked out "
                    "from its size");
    return std::nullopt;
  }
  return unsigned(mask);
}

// The original's placeholder label, its default: no such field.
constexpr const char* no_label = "XXXX";

// A block or dataset label (`fallback` when absent); XXXX means none ("").
std::string label(ParamFile& p, const std::string& key, const std::string& fallback) {
  const std::string v = p.get<std::string>(key, fallback);
  return v == no_label ? "" : v;
}

QuantityRequest quantity_request(ParamFile& p, const std::string& what, const std::string& n, const std::string& label,
                                 int file_type, std::vector<std::string>& notes) {
  QuantityRequest q;
  q.label = label;
  q.factor = p.get<float>(what + "_fac" + n, 1.0f);
  q.present = type_mask(p, what + "_present" + n, file_type, notes);
  return q;
}

// A map (map = column | average | slice, docs/maps.md) reads its own values instead of the
// picture's: the intensity is what a column sums (map_quantityN, MASS by default), an average's
// weight (map_weightN, MASS) or a slice's volume (MASS / RHO); the colour the quantity an average
// or slice takes (map_quantityN; a slice's default RHO). Every one must be in the file.
void map_quantities(ParamFile& p, const std::string& n, RenderTypeRequest& r) {
  if (!p.has("map")) return;  // (not looked up: used.par records no map for a picture)
  const std::string mode = p.get<std::string>("map");
  if (mode != "column" && mode != "average" && mode != "slice") return;  // (no map; or one the settings reject)
  auto quantity = [&](const std::string& key, const std::string& fallback) {
    QuantityRequest q;
    q.label = p.get<std::string>(key + n, fallback);
    return q;
  };
  r.vector_colour = false;
  r.values_required = true;
  r.colour = QuantityRequest{};
  r.colour.label.clear();
  if (mode == "column") {
    r.intensity = quantity("map_quantity", "MASS");
  } else if (mode == "average") {
    r.intensity = quantity("map_weight", "MASS");
    if (!p.has("map_quantity" + n))
      p.reject(p.origin("map") + ": map = average needs map_quantity" + n +
               ", the quantity averaged along the line of sight (Temperature, InternalEnergy, a metallicity, ...)");
    r.colour = quantity("map_quantity", "");
  } else {
    r.intensity = quantity("map_mass", "MASS");
    r.intensity_divisor = quantity("map_density", "RHO");
    r.colour = quantity("map_quantity", "RHO");
  }
}

using SurveyOf = std::function<const SnapshotSurvey*()>;

std::string join(const std::vector<std::string>& parts, const std::string& between = ", ") {
  std::string s;
  for (const std::string& part : parts) s += (s.empty() ? "" : between) + part;
  return s;
}

// "4039 of type 0 (gas), 4096 of type 1 (dark matter), 57 of type 4 (stars)": the types it has.
std::string type_counts(const SnapshotSurvey& survey) {
  std::vector<std::string> parts;
  for (const TypeSurvey& t : survey.types)
    if (t.count > 0)
      parts.push_back(std::to_string(t.count) + " of type " + std::to_string(t.file_type) + " (" + t.name + ")");
  return parts.empty() ? "no particles" : join(parts);
}

// Where render type n's smoothing lengths come from: size_fixN (one for all, or 0: the field
// size_labelN), size_estimateN, or, none of them given, size_estimateN = auto: the file's own
// where it has them (`found` surveyed the file type), else the size of a cell (masses and
// densities, AREPO) or the nearest-neighbour estimate. Returns the report's words for it.
// `given`: the caller's arrays in memory, whose sizes are the caller's choice even where they are
// all one value (a file's may be a softening or a placeholder).
std::string read_type_sizes(ParamFile& p, const std::string& n, RenderTypeRequest& r, const TypeSurvey* found,
                            bool gadget, bool given, std::vector<std::string>& notes) {
  const std::string type = "ptype" + n + " = " + std::to_string(r.file_type) + (found ? " (" + found->name + ")" : "");
  const bool fix_given = p.has("size_fix" + n), label_given = p.has("size_label" + n);
  const std::string estimate = p.get<std::string>("size_estimate" + n, fix_given || label_given ? "none" : "auto");
  if (estimate == "knn" || estimate == "auto" || estimate == "volume") {
    // size_fix is looked up only when given, so that used.par does not give it.
    if (fix_given && p.get<float>("size_fix" + n) != 0)
      p.reject(at(p, "size_fix" + n) + " and size_estimate" + n + " both give the smoothing lengths; drop one");
    r.size_fix = 0;
  }
  auto knn = [&] {
    r.size_estimate = SizeEstimate::knn;
    r.neighbours = p.get<int>("hsml_neighbours" + n, 32);
    if (r.neighbours < 2 || r.neighbours > 1024)
      p.reject(at(p, "hsml_neighbours" + n) + " = " + std::to_string(r.neighbours) + " must be from 2 to 1024");
    r.size.factor = p.get<float>("size_fac" + n, 1.0f);
    return "estimated from the " + std::to_string(r.neighbours) + " nearest neighbours";
  };
  auto volume = [&] {
    r.size_estimate = SizeEstimate::volume;
    r.size.factor = p.get<float>("size_fac" + n, 1.0f);
    return std::string("estimated as (mass / density)^(1/3), the size of a cell");
  };
  if (estimate == "knn") return type + ": " + knn() + " (size_estimate" + n + " = knn)";
  if (estimate == "volume") return type + ": " + volume() + " (size_estimate" + n + " = volume)";
  if (estimate == "auto") {
    const std::string why = p.has("size_estimate" + n) ? " (size_estimate" + n + " = auto)" : " (no size key given)";
    const std::string field = label_given ? label(p, "size_label" + n, "HSML") : found ? found->smoothing : "";
    if (!field.empty()) {
      r.size = quantity_request(p, "size", n, field, gadget ? r.file_type : -1, notes);
      // (a uniform grid's cells are all alike, and their sizes right)
      r.estimate_if_constant = !given && !(found && found->cell_sizes && !label_given);
      r.neighbours = p.get<int>("hsml_neighbours" + n, 32);
      return type + ": the file's " + field + why;
    }
    r.estimate_chosen = true;
    if (found && found->has_mass && !found->density.empty())
      return type + ": " + volume() + ", from the file's masses and " + found->density + why +
             ": the file has no smoothing lengths";
    return type + ": " + knn() + why + (found ? ": the file has no smoothing lengths for it" : "");
  }
  if (estimate != "none")
    p.reject(at(p, "size_estimate" + n) + " = " + estimate +
             " is not a way to find smoothing lengths: auto (the file's, else estimated), knn (the distance to the "
             "hsml_neighbours" +
             n +
             "-th nearest particle), volume ((mass/density)^(1/3), AREPO cells) or none "
             "(size_fix" +
             n + ")");
  r.size_fix = p.get<float>("size_fix" + n, label_given ? 0.0f : 1.0f);
  if (!(r.size_fix >= 0)) {
    p.reject(at(p, "size_fix" + n) + " must not be negative (0: read size_label" + n + ")");
    r.size_fix = 1;
  }
  if (r.size_fix != 0) return type + ": " + float_text(r.size_fix) + " for every particle (size_fix" + n + ")";
  r.size = quantity_request(p, "size", n, label(p, "size_label" + n, "HSML"), gadget ? r.file_type : -1, notes);
  if (r.size.label.empty())
    p.reject(at(p, "size_label" + n) + " = " + no_label + " names no field, but size_fix" + n +
             " = 0 takes the smoothing lengths from one: name the field (HSML), or give size_fix" + n +
             " > 0 or size_estimate" + n + " = knn");
  return type + ": the file's " + r.size.label + " (size_fix" + n + " = 0)";
}

// Gadget binary (2), HDF5 (7, 8) and Tipsy (11) snapshots: files, byte order, and per render
// type the file type and the labels of its quantities.
TypedSnapshotRequest read_typed_request(ParamFile& p, SnapshotRequest& in) {
  const int ptypes = in.ptypes;
  const bool gadget = in.format == SnapshotFormat::gadget;
  std::vector<std::string>& notes = in.notes;
  TypedSnapshotRequest o;
  const bool hdf5 = reads_hdf5(in.format), tipsy = in.format == SnapshotFormat::tipsy;
  const bool ramses = in.format == SnapshotFormat::ramses, phantom = in.format == SnapshotFormat::phantom,
             ascii = in.format == SnapshotFormat::ascii || in.format == SnapshotFormat::visivo,
             fits = in.format == SnapshotFormat::fits, mesh = in.format == SnapshotFormat::mesh,
             bonsai = in.format == SnapshotFormat::bonsai, enzo = in.format == SnapshotFormat::enzo;
  const bool arrays = in.format == SnapshotFormat::arrays;
  o.files = arrays ? std::vector<std::string>{in.arrays->path} : typed_snapshot_files(p, in.format, &in.warnings);
  if (!hdf5 && !ramses && !phantom && !ascii && !fits && !mesh && !bonsai && !enzo && p.has("swap_endian"))
    o.swap_endian = p.get<bool>("swap_endian");
  // (Gadget-4 may have more than 6 types in HDF5)
  const int max_type = arrays          ? 255
                       : hdf5          ? 63
                       : tipsy         ? 2
                       : ramses        ? ramses_types - 1
                       : enzo          ? enzo_types - 1
                       : phantom       ? phantom_max_type
                       : ascii || fits ? 0
                                       : 5;
  // What the snapshot offers (its headers and field lists), looked at once when first needed; a
  // snapshot that cannot be surveyed is left to its reader, which says what is wrong with it.
  std::optional<std::optional<SnapshotSurvey>> surveyed;
  const SurveyOf survey = [&]() -> const SnapshotSurvey* {
    if (!surveyed) try {
        surveyed.emplace(
            arrays                                ? survey_columns(in.format, *in.arrays)
            : in.format == SnapshotFormat::ascii  ? survey_columns(in.format, ascii_outline(o.files[0], in.ascii))
            : in.format == SnapshotFormat::visivo ? survey_columns(in.format, visivo_outline(o.files[0], in.ascii))
            : in.format == SnapshotFormat::fits   ? survey_columns(in.format, fits_outline(o.files[0], in.fits))
            : in.format == SnapshotFormat::mesh
                ? survey_columns(in.format, mesh_outline(o.files[0], in.mesh))
                : survey_snapshot(hdf5 ? SnapshotFormat::hdf5 : in.format, o.files, o.swap_endian));
      } catch (const std::exception&) { surveyed.emplace(); }  // (the reader says what is wrong, if it is)
    return *surveyed ? &**surveyed : nullptr;
  };
  std::vector<std::string> sizes, empty_types;
  for (int t = 0; t < ptypes; ++t) {
    const std::string n = std::to_string(t);
    RenderTypeRequest r;
    r.file_type = p.get<int>("ptype" + n, 0);
    if (r.file_type < 0 || r.file_type > max_type) {
      p.reject(at(p, "ptype" + n) + " = " + std::to_string(r.file_type) + ": " +
               (tipsy    ? std::string("Tipsy particle types are 0 (gas), 1 (dark) and 2 (star)")
                : ramses ? std::string("RAMSES types are 0 (gas: the leaf cells), 1 dark matter, 2 stars, 3 clouds, "
                                       "4 debris, 5 other, 6 undefined family, 7 tracers, 8 sinks")
                : enzo
                    ? std::string("Enzo types are 0 (gas: the leaf cells), then particle_type: 1 dark matter, "
                                  "2 stars, 3 tracers, 4 must-refine, 5 single stars, 6 black holes, 7 star "
                                  "clusters, 8 massive black holes, 9 colour stars, 10 simple sources, 11 others")
                    : std::string(hdf5 ? "HDF5" : "Gadget") + " particle types are 0 to " + std::to_string(max_type)));
      r.file_type = 0;
    }
    const TypeSurvey* found = survey() ? survey()->type(r.file_type) : nullptr;
    // (a type beyond those the header lists, as an HDF5 file of a code built with fewer types: none)
    const bool none = survey() && (!found || found->count == 0);
    if (none) {
      in.warnings.push_back(at(p, "ptype" + n) + " = " + std::to_string(r.file_type) + ": '" + o.files[0] + "'" +
                            (o.files.size() > 1 ? " (and its other files)" : "") + " holds no particles of type " +
                            std::to_string(r.file_type) + " (it holds " + type_counts(*survey()) + "): render type " +
                            n + " is skipped (choose another ptype" + n + " or fewer ptypes)");
      empty_types.push_back("ptype" + n + " = " + std::to_string(r.file_type));
    }
    const std::string size = read_type_sizes(p, n, r, found, gadget, in.format == SnapshotFormat::arrays, notes);
    if (!none) {
      sizes.push_back(size);
    } else {  // skipped: nothing to size (and no estimate for an MPI run to refuse)
      r.size_estimate = SizeEstimate::none;
      r.estimate_if_constant = false;
      r.size_fix = 1;
    }
    r.colour = quantity_request(p, "color", n, label(p, "color_label" + n, ""), gadget ? r.file_type : -1, notes);
    r.vector_colour = p.get<bool>("color_is_vector" + n, false);
    r.intensity =
        quantity_request(p, "intensity", n, label(p, "intensity_label" + n, ""), gadget ? r.file_type : -1, notes);
    // A movie between snapshots reads the IDs (and for mode 2 the velocities) in every frame, so
    // that a snapshot kept for the next frame has them (splotch/settings/interpolation_settings.cc).
    r.motion = std::clamp(p.get<int>("interpolation_mode", 0), 0, 2);
    if (r.motion > 0) r.id_label = p.get<std::string>("id_label", "ID");
    map_quantities(p, n, r);
    o.types.push_back(r);
  }
  if ((ramses || enzo) && survey()) in.dimensions = survey()->dimensions;
  if (!empty_types.empty() && empty_types.size() == std::size_t(ptypes))
    in.nothing_to_draw = ("'" + o.files[0] + "'" + (o.files.size() > 1 ? " (and its other files)" : "") +
                          " holds no particles of the types asked for (" + join(empty_types) + "); it holds " +
                          type_counts(*survey()) + ": choose a type it has with ptype0");
  // (a render fails with it; --info and AnalyzeSimulationOnly show what the snapshot has)
  if (!sizes.empty()) notes.push_back("smoothing lengths: " + join(sizes, "; "));
  return o;
}

// simtype 7: the original's generic HDF5 reader, datasets (or compound members) named by keys.
Hdf5TableOptions read_table_options(ParamFile& p, int ptypes) {
  if (ptypes != 1)
    p.reject(at(p, "ptypes") + " = " + std::to_string(ptypes) + ": simtype = 7 reads one particle type (ptypes = 1)");
  Hdf5TableOptions o;
  o.path = input_path(p, "infile");
  auto name = [&](const char* key) {  // "-1", the original's word for none
    const std::string v = p.get<std::string>(key, "-1");
    return v == "-1" ? std::string() : v;
  };
  for (auto [key, field] : {std::pair{"x", &o.x}, std::pair{"y", &o.y}, std::pair{"z", &o.z}}) {
    *field = name(key);
    if (field->empty()) p.reject(at(p, key) + " names no dataset: simtype = 7 needs the positions' datasets x, y, z");
  }
  o.hsml = name("r");
  o.intensity = name("I");
  o.colour[0] = name("C1");
  o.vector_colour = p.get<bool>("color_is_vector0", false);
  if (o.vector_colour) {
    o.colour[1] = name("C2");
    o.colour[2] = name("C3");
  }
  o.compound = p.get<bool>("is_compound_data", false);
  if (o.compound) {
    o.dataset = p.get<std::string>("dataset_name");
    o.snapshot_field = name("snapshot");
    if (!o.snapshot_field.empty()) o.snapshot_id = p.get<long long>("snapshotID");
  }
  o.hsml_absent = p.get<float>("smooth_param", 1.0f);
  if (o.hsml.empty() && !(o.hsml_absent > 0))
    p.reject(at(p, "smooth_param") + " must be positive: it is every particle's smoothing length when r is -1");
  o.colour_offset = p.get<float>("thresh", 0.0f);
  if (map_mode(p) == "column" || map_mode(p) == "average") {
    o.colour_offset = 0;                        // (a map's values as the file holds them)
    auto named = [&](const std::string& key) {  // ("-1", the original's word for none)
      const std::string v = p.has(key) ? p.get<std::string>(key) : std::string();
      return v == "-1" ? std::string() : v;
    };
    map_fields(p, o.intensity, o.colour[0], o.intensity_absent, named, std::string());
  }
  return o;
}

// simtype 15: the positions' columns (x, y, z: numbers from 1 or the header's names; none: the
// original's catalogue of 39 columns), the smoothing lengths' (r), and the original's C1 and I.
// A table's column names (ASCII: its head; VisIVO: its header's).
std::vector<std::string> table_names(SnapshotFormat format, const std::string& path) {
  return format == SnapshotFormat::visivo ? read_visivo_header(path).names : ascii_column_names(path);
}

AsciiLayout read_ascii_layout(ParamFile& p, SnapshotFormat format) {
  AsciiLayout a;
  if (p.has("x") || p.has("y") || p.has("z")) {
    a.x = p.get<std::string>("x");
    a.y = p.get<std::string>("y");
    a.z = p.get<std::string>("z");
    if (p.has("r")) a.hsml = p.get<std::string>("r");
    // Each column key against the table's columns, every problem said with its line.
    std::vector<std::string> names;
    try {
      names = table_names(format, resolve(p.get<std::string>("infile"), p));
    } catch (const UserError&) {}  // (the reader says what is wrong with the file)
    for (const char* key : {"x", "y", "z", "r"}) {
      if (names.empty() || !p.has(key)) continue;
      const std::string v = p.get<std::string>(key);
      char* end = nullptr;
      const long k = std::strtol(v.c_str(), &end, 10);
      const bool number = end != v.c_str() && *end == '\0';
      const bool named =
          std::any_of(names.begin(), names.end(), [&](const std::string& n) { return lower_case(n) == lower_case(v); });
      if (number && (k < 1 || std::size_t(k) > names.size()))
        p.reject(at(p, key) + " = " + v + ": the table has columns 1 to " + std::to_string(names.size()));
      else if (!number && !named)
        p.reject(at(p, key) + " = " + v + ": the table has no column of that name (it has: " + join(names) + ")");
    }
    // r names the smoothing lengths: kept as the file has them (no estimate replaces them).
    if (p.has("r") && !p.has("size_fix0") && !p.has("size_label0") && !p.has("size_estimate0")) {
      p.set("size_fix0", "0", p.origin("r"));
      p.set("size_label0", "HSML", p.origin("r"));
    }
  } else if (format == SnapshotFormat::ascii && p.has("r") && !p.has("size_fix0") && !p.has("size_label0") &&
             !p.has("size_estimate0")) {
    // The original's catalogue: r, a whole number, every point's radius.
    p.set("size_fix0", std::to_string(p.get<int>("r", 1)), p.origin("r"));
  }
  return a;
}

// C1 and I (the original's keys) choose the colour and the intensity: a catalogue's quantity by its
// index (0 gDES ... 7 gDES-zDES), a table's column by its number or name.
void ascii_quantities(ParamFile& p, SnapshotRequest& in) {
  if (in.typed.types.empty()) return;
  RenderTypeRequest& r = in.typed.types[0];
  std::vector<std::string> names;  // (from the table's head: a column's name by its number)
  try {
    names = table_names(in.format, in.typed.files[0]);
  } catch (const UserError&) {  // (the keys' problems are said with their lines; the file's by its reader)
    return;
  }
  auto name = [&](const char* key) -> std::string {
    const std::string v = p.get<std::string>(key);
    char* end = nullptr;
    const long k = std::strtol(v.c_str(), &end, 10);
    const bool whole = end != v.c_str() && *end == '\0';
    if (in.ascii.x.empty() && in.format == SnapshotFormat::ascii) {  // the catalogue's indices
      if (whole && k == -1) return "";
      if (!whole || catalogue_quantity(int(k)).empty())
        p.reject(at(p, key) + " = " + v + ": the original's catalogue has the quantities 0 gDES, 1 rDES, 2 iDES, " +
                 "3 zDES, 5 gDES-rDES, 6 gDES-iDES, 7 gDES-zDES (-1 none)");
      return catalogue_quantity(int(k));
    }
    if (whole) {
      if (k < 1 || std::size_t(k) > names.size()) {
        p.reject(at(p, key) + " = " + v + ": the table has columns 1 to " + std::to_string(names.size()));
        return "";
      }
      return names[std::size_t(k - 1)];
    }
    return v;
  };
  for (const char* key : {"C1", "I"}) {
    if (!p.has(key)) continue;
    const std::string other = key[0] == 'C' ? "color_label0" : "intensity_label0";
    if (p.has(other))
      p.reject(at(p, key) + " and " + other + " both choose the " + (key[0] == 'C' ? "colour" : "intensity") +
               ": drop one");
    (key[0] == 'C' ? r.colour : r.intensity).label = name(key);
  }
  if (p.has("C2") || p.has("C3") || p.get<bool>("color_is_vector0", false))
    p.reject(at(p, p.has("C2")   ? "C2"
                   : p.has("C3") ? "C3"
                                 : "color_is_vector0") +
             ": a table's colours are one column (C1, or color_label0) here; three columns as RGB are not read");
}

// simtype 16: a table's positions (x, y, z), an image's slices (cube_begin, cube_end), the original's
// r (every voxel's radius); an image's voxels coloured by their value unless a key says otherwise.
void read_fits_request(ParamFile& p, SnapshotRequest& in) {
  FitsLayout& f = in.fits;
  if (p.has("x")) f.x = p.get<std::string>("x");
  if (p.has("y")) f.y = p.get<std::string>("y");
  if (p.has("z")) f.z = p.get<std::string>("z");
  if (p.has("cube_begin")) f.cube_begin = p.get<long long>("cube_begin");
  if (p.has("cube_end")) f.cube_end = p.get<long long>("cube_end");
  if (p.has("r") && !p.has("size_fix0") && !p.has("size_label0") && !p.has("size_estimate0"))
    p.set("size_fix0", p.get<std::string>("r"), p.origin("r"));
  in.typed = read_typed_request(p, in);
  in.path = in.typed.files[0];
  if (!in.typed.types.empty() && !p.has("color_label0") && !p.has("map")) {
    const ColumnSnapshot outline = fits_outline(in.path, f);
    if (!outline.types.empty() && outline.types[0].name == "voxels") in.typed.types[0].colour.label = "value";
  }
}

// simtype 6: the grid (x, y, z: cells along each axis), num_blocks, swap_endian (TRUE, as the
// original's), order, r; C1 and I choose the colour's and the intensity's block (from 1).
void read_mesh_request(ParamFile& p, SnapshotRequest& in) {
  MeshLayout& m = in.mesh;
  m.nx = p.get<long long>("x");
  m.ny = p.get<long long>("y");
  m.nz = p.get<long long>("z");
  m.blocks = p.get<int>("num_blocks");
  for (const char* key : {"x", "y", "z"})
    if (p.get<long long>(key) < 1) p.reject(at(p, key) + ": a mesh's cells along each axis, from 1");
  if (m.blocks < 1) p.reject(at(p, "num_blocks") + " must be at least 1");
  m.swap_endian = p.get<bool>("swap_endian", true);
  const int order = p.get<int>("order", 0);
  if (order != 0 && order != 1) p.reject(at(p, "order") + " = " + std::to_string(order) + ": 0 (C) or 1 (Fortran)");
  m.fortran_order = order == 1;
  if (p.has("r") && !p.has("size_fix0") && !p.has("size_label0") && !p.has("size_estimate0"))
    p.set("size_fix0", p.get<std::string>("r"), p.origin("r"));
  in.typed = read_typed_request(p, in);
  in.path = in.typed.files[0];
  if (in.typed.types.empty()) return;
  RenderTypeRequest& r = in.typed.types[0];
  for (const char* key : {"C1", "I"}) {
    if (!p.has(key)) continue;
    const int b = p.get<int>(key);
    if (b < 1 || b > m.blocks) {
      if (b != -1)
        p.reject(at(p, key) + " = " + std::to_string(b) +
                 ": the blocks are 1 to num_blocks = " + std::to_string(m.blocks));
      continue;
    }
    (key[0] == 'C' ? r.colour : r.intensity).label = "block" + std::to_string(b);
  }
  if (p.has("C2") || p.has("C3") || p.get<bool>("color_is_vector0", false))
    p.reject(at(p, p.has("C2")   ? "C2"
                   : p.has("C3") ? "C3"
                                 : "color_is_vector0") +
             ": a mesh's colour is one block (C1) here; three blocks as RGB are not read");
}

// swap_endian is only the first guess for Gadget and Tipsy files, whose own markers decide (as
// the original's Gadget reader does): the report says so when the guess was wrong.
void note_byte_order(ParamFile& p, SnapshotRequest& in) {
  const bool guess = *in.typed.swap_endian;
  const bool tipsy = in.format == SnapshotFormat::tipsy;
  const bool swapped = tipsy ? TipsyFile(in.path, guess).swapped() : GadgetFile(in.path, guess).swapped();
  if (swapped == guess) return;
  const bool big = swapped != host_is_big_endian;
  in.notes.push_back(at(p, "swap_endian") + " = " + (guess ? "TRUE" : "FALSE") + " is only a first guess for " +
                     (tipsy ? "Tipsy" : "Gadget") + " files: '" + in.path + "' is " + (big ? "big" : "little") +
                     "-endian by its own " + (tipsy ? "header" : "record markers") + ", and was read so");
}

}  // namespace

namespace {

SnapshotRequest read_format_request(ParamFile& p, const std::shared_ptr<const ColumnSnapshot>& arrays) {
  SnapshotRequest in;
  if (arrays) {  // (no simtype and no infile: the caller's arrays are the snapshot)
    in.format = SnapshotFormat::arrays;
    in.arrays = arrays;
    in.ptypes = p.get<int>("ptypes", 1);
    if (in.ptypes < 1 || in.ptypes > 255) throw UserError(at(p, "ptypes") + " must be between 1 and 255");
    in.periodic = p.get<bool>("periodic", true);
    in.typed = read_typed_request(p, in);
    in.path = arrays->path;
    return in;
  }
  const int simtype = p.get<int>("simtype");
  const std::optional<SnapshotFormat> format = format_of_simtype(simtype);
  if (!format)
    throw UserError(
        at(p, "simtype") + " = " + std::to_string(simtype) +
        " is not a known input type (0 raw table, 1 raw blocks (5 too, the original's MPI reader of them), 2 Gadget, 7 "
        "HDF5 datasets by name, 8 "
        "Gadget-layout HDF5, 11 Tipsy, 13 RAMSES, 14 Bonsai, 15 ASCII table, 16 FITS, 20 Phantom; -1 an image of the "
        "palette)");
  in.format = *format;
  if (in.format == SnapshotFormat::palette_only) return in;
  in.ptypes = p.get<int>("ptypes", 1);
  if (in.ptypes < 0 || in.ptypes > 255) throw UserError(at(p, "ptypes") + " must be between 1 and 255");
  in.periodic = p.get<bool>("periodic", true);
  if (in.format == SnapshotFormat::hdf5_table && !p.has("x")) {
    // The original's generic reader names its datasets; without them, a Gadget-layout file.
    in.typed = read_typed_request(p, in);
    in.path = in.typed.files[0];
    if (!is_gadget_layout_hdf5(in.path))
      throw UserError(at(p, "simtype") + " = 7 reads the datasets that the keys x, y, z (and r, I, C1) name, and " +
                      "there is no key x; for a Gadget-layout snapshot (Header, PartType0, ...) use simtype = 8");
    in.format = SnapshotFormat::hdf5;
    in.notes.push_back(at(p, "simtype") + " = 7 with no dataset names (x, y, z): '" + in.path +
                       "' is a Gadget-layout HDF5 snapshot and was read as simtype = 8 reads it");
    return in;
  }
  switch (in.format) {
    case SnapshotFormat::raw_table:
    case SnapshotFormat::raw_blocks: in.raw = read_raw_options(p, in.format); break;
    case SnapshotFormat::hdf5_table:
      in.table = read_table_options(p, in.ptypes);
      in.path = in.table.path;
      return in;
    case SnapshotFormat::fits: read_fits_request(p, in); return in;
    case SnapshotFormat::mesh: read_mesh_request(p, in); return in;
    case SnapshotFormat::ascii:
    case SnapshotFormat::visivo:
      in.ascii = read_ascii_layout(p, in.format);
      in.typed = read_typed_request(p, in);
      in.path = in.typed.files[0];
      ascii_quantities(p, in);
      return in;
    case SnapshotFormat::gadget:
    case SnapshotFormat::hdf5:
    case SnapshotFormat::tipsy:
    case SnapshotFormat::ramses:
    case SnapshotFormat::enzo:
    case SnapshotFormat::bonsai:
    case SnapshotFormat::phantom:
      in.typed = read_typed_request(p, in);
      in.path = in.typed.files[0];
      if (in.typed.swap_endian) note_byte_order(p, in);
      return in;
    case SnapshotFormat::palette_only:
    case SnapshotFormat::arrays: break;  // (no simtype gives arrays: read above)
  }
  in.path = input_path(p, "infile");
  return in;
}

// The original's boost = TRUE asks for a quick preview; boost_fraction (ours) says how much of the
// snapshot it draws, and alone asks for one too. boost = FALSE turns a given boost_fraction off.
double preview_fraction(ParamFile& p) {
  const bool preview = p.has("boost") ? p.get<bool>("boost") : p.has("boost_fraction");
  if (!preview) return 1.0;
  const double f = p.get<double>("boost_fraction", 0.1);
  if (!(f > 0 && f <= 1))
    throw UserError(at(p, "boost_fraction") + " = " + p.get<std::string>("boost_fraction") +
                    " must be a share of the particles above 0 and at most 1 (0.1 draws one in ten)");
  return f;
}

}  // namespace

SnapshotRequest read_snapshot_request(ParamFile& p, std::shared_ptr<const ColumnSnapshot> arrays) {
  SnapshotRequest in = read_format_request(p, arrays);
  if (in.format != SnapshotFormat::palette_only) in.keep_fraction = preview_fraction(p);
  return in;
}

bool analysis_only(ParamFile& p) {
  return p.get<bool>("AnalyzeSimulationOnly", false) || (p.has("ptypes") && p.get<int>("ptypes") == 0);
}

bool snapshot_ids_only(ParamFile& p) {
  return p.has("simtype") && p.get<std::string>("simtype") == "7" && p.get<bool>("print_snapIDs_in_file_ONLY", false);
}

}  // namespace splotch
