#include "splotch/settings/starter_parameters.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "errors/user_error.h"
#include "io/read_snapshot.h"
#include "io/snapshot_survey.h"
#include "params/number_text.h"
#include "splotch/settings/settings_keys.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

// The snapshot's files, found as a parameter file naming it with infile finds them.
std::vector<std::string> files_of(const std::string& path, SnapshotFormat format) {
  ParamFile p = ParamFile::parse("", path);
  p.set("infile", path, path);  // (not through the text, where a '#' in the path would start a comment)
  return typed_snapshot_files(p, format);
}

// One line of the file: a key and its value, and what it does (or a comment line alone).
struct Line {
  std::string key, value, comment;
};

std::string text_of(const std::vector<Line>& lines) {
  std::size_t width = 0;
  for (const Line& l : lines)
    if (!l.key.empty()) width = std::max(width, l.key.size() + 3 + l.value.size());
  std::ostringstream out;
  for (const Line& l : lines) {
    if (l.key.empty()) {
      out << l.comment << "\n";
      continue;
    }
    const std::string assignment = l.key + " = " + l.value;
    out << assignment << std::string(width - assignment.size() + 2, ' ') << "# " << l.comment << "\n";
  }
  return out.str();
}

std::string counted(std::uint64_t n, const std::string& what) { return std::to_string(n) + " " + what; }

// "1: dark matter (4096), 4: stars (57)": the types not drawn.
std::string other_types(const SnapshotSurvey& s, int drawn) {
  std::string list;
  for (const TypeSurvey& t : s.types)
    if (t.count > 0 && t.file_type != drawn)
      list += (list.empty() ? "" : ", ") + std::to_string(t.file_type) + ": " + t.name + " (" +
              std::to_string(t.count) + ")";
  return list;
}

const char* format_words(SnapshotFormat f) {
  switch (f) {
    case SnapshotFormat::gadget: return "Gadget binary";
    case SnapshotFormat::hdf5: return "HDF5 (Gadget, AREPO, GIZMO, SWIFT)";
    case SnapshotFormat::ramses: return "a RAMSES output";
    case SnapshotFormat::enzo: return "an Enzo output";
    case SnapshotFormat::phantom: return "a Phantom dump";
    case SnapshotFormat::fits: return "FITS";
    case SnapshotFormat::bonsai: return "Bonsai";
    default: return "Tipsy";
  }
}

}  // namespace

std::string starter_picture_name(const std::string& path, bool several_files) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  for (const std::string ending : {".hdf5", ".h5"})
    if (name.size() > ending.size() && name.compare(name.size() - ending.size(), ending.size(), ending) == 0)
      name.erase(name.size() - ending.size());
  // The files' base name (snap_010 of snap_010.0, or of snap_010.3 given instead).
  const std::size_t dot = name.rfind('.');
  if (several_files && dot != std::string::npos && dot + 1 < name.size() &&
      name.find_first_not_of("0123456789", dot + 1) == std::string::npos)
    name.erase(dot);
  return name + ".png";
}

namespace {

// The text for a snapshot of `survey` at `path` of `files` (none: arrays in memory, which no
// parameter file names).
std::string starter_text(const SnapshotSurvey& survey, const std::string& path, const std::vector<std::string>& files,
                         SnapshotFormat format, int file_type) {
  const bool arrays = format == SnapshotFormat::arrays;
  const TypeSurvey* drawn = file_type >= 0 ? survey.type(file_type) : survey.main_type();
  if (file_type >= 0 && (!drawn || drawn->count == 0))  // chosen as for the others (the run says it has none)
    drawn = survey.main_type();
  if (!drawn) throw UserError("'" + path + "' holds no particles: there is nothing to draw");
  const bool coloured = !drawn->density.empty();
  const std::string type = std::to_string(drawn->file_type);
  const std::string others = other_types(survey, drawn->file_type);

  std::vector<Line> lines;
  auto comment = [&](const std::string& text) { lines.push_back({"", "", text}); };
  auto key = [&](const std::string& k, const std::string& v, const std::string& what) {
    lines.push_back({k, v, what});
  };
  if (arrays) {
    comment("# The keys of a first picture of the particles given in memory (" + path + "), chosen");
    comment("# from their fields. Each key below can be changed; docs/parameters.md lists them all.");
  } else {
    comment("# A parameter file for " + absolute_path(path) + ", written by `splotch --init` from");
    comment("# its headers and field lists. Render it with `bin/splotch THIS_FILE [key=value ...]`");
    comment("# (key=value arguments override the file); `bin/splotch --info " + path + "`");
    comment("# lists every field of every type. Each key below can be changed; docs/parameters.md");
    comment("# lists them all.");
  }
  comment("");
  if (!arrays) comment("# the snapshot");
  if (!arrays)
    key("simtype", std::to_string(simtype_number(format)),
        std::string("its format, ") + format_words(format) +
            " (2 Gadget binary, 3 Enzo, 8 HDF5, 11 Tipsy, 13 RAMSES, 14 Bonsai, 16 FITS, 20 Phantom, 0/1 raw floats)");
  if (!arrays)
    key("infile", absolute_path(path),
        files.size() > 1 ? "the first of its " + std::to_string(files.size()) + " files (the others are found from it)"
        : format == SnapshotFormat::ramses ? "the output directory (its CPU files are found from its info file)"
        : format == SnapshotFormat::enzo   ? "the output (its grids and files are found from its hierarchy)"
                                           : "the snapshot file");
  comment("");
  comment("# what is drawn");
  key("ptypes", "1", "how many particle types are drawn (for a second: ptypes = 2, ptype1, palette1, ...)");
  key("ptype0", type,
      "the " + drawn->name + " (" + counted(drawn->count, "particles") + ")" +
          (others.empty() ? "" : "; the snapshot also has " + others));
  key("size_estimate0", "auto",
      drawn->smoothing.empty()
          ? std::string("smoothing lengths: the file has none for this type, so they are estimated (auto: ") +
                (drawn->has_mass && !drawn->density.empty() ? "(mass / density)^(1/3), the size of a cell"
                                                            : "from the 32 nearest neighbours") +
                "); knn, volume, or size_fix0 = one length for all"
          : "smoothing lengths: the file's " + drawn->smoothing +
                " (auto: the file's where they vary, else from the 32 nearest neighbours); knn, volume, or "
                "size_fix0 = one length for all");
  if (coloured) {
    key("color_label0", drawn->density, "the colour: its density (any field --info lists; XXXX: one colour for all)");
    key("color_log0", "TRUE", "the colour on a log10 scale (FALSE: linear; color_asinh0 = TRUE: asinh)");
  } else {
    key("color_label0", "XXXX",
        "one colour for all: the file has no density for this type (name a field --info lists to colour by it)");
  }
  if (!drawn->brightness.empty())
    key("intensity_label0", drawn->brightness,
        drawn->brightness == "value"
            ? "each voxel as bright as its value, the cube's emission (without it every voxel shines alike)"
        : drawn->brightness == "mass_over_h"
            ? "each cell as bright as its mass over its splat (the kernel divides by h), so that the picture shows "
              "the gas's column alike at every level (without it the smaller cells outshine the larger)"
            : "each particle as bright as this field");
  // (one colour for all: a palette's last entry, which ice has bright; fire's is near white)
  key("palette0", coloured ? "fire" : "ice",
      "the colours: fire, ice, temperature, bluered, grey (the project's), or a .pal file");
  comment(
      "# color_min0 = ..., color_max0 = ...: the colour's range (the data's by default; each run's report gives it)");
  comment("");
  comment("# how bright");
  comment("# exposure = auto, as no exposure or brightness0 is given: the picture's brightest 0.5% just below white");
  comment("# (a movie keeps its first frame's); exposure = a number fixes it; brightness0 = a factor on type 0 alone");
  key("a_eq_e", "TRUE",
      "light is absorbed as it is emitted, an order-free sum (FALSE: composited front to back, with "
      "gray_absorption)");
  comment("");
  comment("# the view");
  comment("# No camera_x/y/z: the camera frames the particles from +y; face = BACK (-y), LEFT (+x), RIGHT (-x),");
  comment("# TOP (+z) or BOTTOM (-z) frames them from another side; camera_x/y/z and lookat_x/y/z place it yourself");
  comment("# (the report and the picture's used.par say where it went).");
  if (survey.dimensions < 3)
    key("face", "TOP", "a " + std::to_string(survey.dimensions) + "-D run lies in z = 0: seen from +z, x to the right");
  key("fov", "45", "the horizontal field of view, in degrees");
  key("xres", "800", "the picture's width in pixels (yres: its height, the width by default)");
  key("outfile", arrays ? "particles.png" : starter_picture_name(path, files.size() > 1),
      "the picture, in the working directory: .png, .jpg, .tga or .ppm (its used.par is written beside it)");
  return text_of(lines);
}

}  // namespace

std::string starter_parameter_text(const std::string& path, SnapshotFormat format, int file_type) {
  const std::vector<std::string> files = files_of(path, format);
  return starter_text(survey_snapshot(format, files), path, files, format, file_type);
}

ParamFile starter_parameters_of_arrays(const ColumnSnapshot& arrays, int file_type) {
  const std::string text =
      starter_text(survey_columns(SnapshotFormat::arrays, arrays), arrays.path, {}, SnapshotFormat::arrays, file_type);
  return ParamFile::parse(text, arrays.path + " [first picture]");
}

ParamFile starter_parameters(const std::string& path, SnapshotFormat format, int file_type) {
  ParamFile p = ParamFile::parse(starter_parameter_text(path, format, file_type), path + " [--init]");
  // The path as it is: in the text, a '#' in it would start a comment.
  p.set("infile", absolute_path(path), p.origin("infile"));
  return p;
}

std::string record_of_arrays(std::string used_par) {
  used_par.insert(used_par.find('\n') + 1,
                  "# The particles were arrays in memory, which no key names: write them to a file and add its\n"
                  "# simtype and infile (and the fields' keys) to render them with bin/splotch.\n");
  return used_par;
}

}  // namespace splotch
