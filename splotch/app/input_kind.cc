#include "splotch/app/input_kind.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "io/count_text.h"
#include "io/gadget_file.h"
#include "io/hdf5_file.h"
#include "io/input_file.h"
#include "io/read_snapshot.h"
#include "io/tipsy_aux_array.h"
#include "io/tipsy_file.h"
#include "params/user_error.h"
#include "splotch/settings/starter_parameters.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

// `snap.den` beside the Tipsy snapshot `snap`, with a count that fits it: its description.
std::string tipsy_aux_description(const std::string& path, std::string& snapshot) {
  const std::size_t dot = path.rfind('.'), slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  snapshot = path.substr(0, dot);
  if (!is_regular_file(snapshot) || !is_tipsy_file(snapshot)) return "";
  try {
    const TipsyFile tipsy(snapshot);
    const TipsyAuxArray aux(path, tipsy.total(), tipsy.swapped());
    return "an auxiliary array of the Tipsy snapshot '" + snapshot + "' (" + (aux.binary() ? "binary" : "ASCII") +
           ", " + plural(tipsy.total(), "value") + ", one per particle)";
  } catch (const UserError&) { return ""; }
}

}  // namespace

InputKind input_kind(const std::string& path) {
  InputKind k;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    k.kind = InputKind::Kind::missing;
    k.description = std::strerror(errno);
    return k;
  }
  if (S_ISDIR(st.st_mode)) {
    k.kind = InputKind::Kind::directory;
    k.description = "a directory";
    return k;
  }
  if (!S_ISREG(st.st_mode)) {  // a device or a pipe: read as text, within the bound
    k.kind = InputKind::Kind::text;
    return k;
  }
  if (st.st_size == 0) {
    k.kind = InputKind::Kind::empty;
    k.description = "empty";
    return k;
  }
  if ((k.format = detect_snapshot_format(path))) {
    k.kind = InputKind::Kind::snapshot;
    k.description = describe_snapshot(path, *k.format);
    return k;
  }
  k.description = tipsy_aux_description(path, k.snapshot);
  k.kind = k.description.empty() ? InputKind::Kind::text : InputKind::Kind::tipsy_aux_array;
  return k;
}

ParamFile read_parameter_file(const std::string& path) {
  const InputKind k = input_kind(path);
  const std::string what = "'" + path + "' is ";
  const std::string how = " (README: A minimal parameter file)";
  switch (k.kind) {
    case InputKind::Kind::snapshot:  // a first picture, with the choices of splotch --init
      return starter_parameters(path, *k.format);
    case InputKind::Kind::tipsy_aux_array:
      throw UserError(what + k.description +
                      ", not a parameter file: a parameter file with simtype = 11 and infile = " + k.snapshot +
                      " draws it with a label of its name (color_label0 = " + path.substr(k.snapshot.size() + 1) +
                      ", say)");
    case InputKind::Kind::directory:
      throw UserError(what + "a directory, not a parameter file: name the .par file in it" + how);
    case InputKind::Kind::empty: throw UserError(what + "empty: a parameter file holds key = value lines" + how);
    case InputKind::Kind::missing: throw UserError("cannot open parameter file '" + path + "': " + k.description);
    default: return ParamFile::read(path);
  }
}

std::string init_parameter_text(const std::string& path) {
  const InputKind k = input_kind(path);
  if (k.kind == InputKind::Kind::snapshot) return starter_parameter_text(path, *k.format);
  if (k.kind == InputKind::Kind::missing) throw UserError("cannot open '" + path + "': " + k.description);
  throw UserError("--init writes a parameter file for a snapshot (Gadget, HDF5 or Tipsy), and '" + path + "' is " +
                  (k.description.empty() ? std::string("not one") : k.description) +
                  (k.kind == InputKind::Kind::text ? " (a parameter file? render it: bin/splotch " + path + ")" : ""));
}

}  // namespace splotch
