#include "splotch/app/input_kind.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/count_text.h"
#include "io/file_start.h"
#include "io/gadget_file.h"
#include "io/hdf5_file.h"
#include "io/input_file.h"
#include "io/ramses_output.h"
#include "io/read_snapshot.h"
#include "io/tipsy_aux_array.h"
#include "io/tipsy_file.h"
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

// What binary bytes look like: a picture, a FITS file, a snapshot's start; "" for none of these.
std::string looks_like(const std::string& bytes) {
  auto starts = [&](const char* magic, std::size_t n) {
    return bytes.size() >= n && bytes.compare(0, n, magic, n) == 0;
  };
  if (starts("\x89PNG\r\n\x1a\n", 8)) return "a PNG image";
  if (starts("\xff\xd8\xff", 3)) return "a JPEG image";
  if (starts("SIMPLE  =", 9)) return "a FITS file (not read yet)";
  if (starts("\x7f"
             "ELF",
             4))
    return "a program";
  return describe_file_start(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

// The RAMSES output directories (output_NNNNN with an info file) in `directory`, in name order.
std::vector<std::string> ramses_outputs_in(const std::string& directory) {
  std::vector<std::string> found;
  if (DIR* d = ::opendir(directory.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("output_", 0) == 0 && is_ramses_output(directory + "/" + name)) found.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(found.begin(), found.end());
  return found;
}

// A snapshot named by the base name of its files (snap_010 for snap_010.0, snap_010.1, ...; for
// snap_010.0.hdf5 or snap_010.hdf5): its first file, or "".
std::string first_file_of(const std::string& base) {
  for (const std::string& first : {base + ".0", base + ".0.hdf5", base + ".hdf5"})
    if (is_regular_file(first) && detect_snapshot_format(first)) return first;
  return "";
}

}  // namespace

InputKind input_kind(const std::string& path) {
  InputKind k;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    const int why = errno;  // (before the looks at other names)
    k.first_file = first_file_of(path);
    if (!k.first_file.empty()) {  // a snapshot's name, as infile takes it
      k.kind = InputKind::Kind::snapshot;
      k.format = detect_snapshot_format(k.first_file);
      k.description = describe_snapshot(k.first_file, *k.format) + ", named by its files' base name";
      return k;
    }
    k.kind = InputKind::Kind::missing;
    k.description = std::strerror(why);
    return k;
  }
  if (S_ISDIR(st.st_mode)) {
    if (const std::optional<SnapshotFormat> f = detect_snapshot_format(path);
        f == SnapshotFormat::ramses || f == SnapshotFormat::enzo) {
      k.kind = InputKind::Kind::snapshot;
      k.format = *f;
      k.description = describe_snapshot(path, *f);
      return k;
    }
    k.kind = InputKind::Kind::directory;
    k.description = "a directory";
    return k;
  }
  if (!S_ISREG(st.st_mode)) {  // a device or a pipe: read as text, within the bound
    k.kind = InputKind::Kind::text;
    if (S_ISCHR(st.st_mode)) {  // /dev/null, /dev/zero: a look at what it gives costs nothing
      const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
      const bool terminal = fd >= 0 && ::isatty(fd);
      if (fd >= 0) ::close(fd);
      const std::string bytes = terminal ? std::string("x") : file_start(path);
      if (bytes.empty()) k.kind = InputKind::Kind::empty, k.description = "a device with nothing to read";
      if (looks_binary(bytes)) k.kind = InputKind::Kind::binary, k.description = "a device of binary data";
    }
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
  if (!k.description.empty()) {
    k.kind = InputKind::Kind::tipsy_aux_array;
    return k;
  }
  const std::string bytes = file_start(path);
  const std::string looks = looks_like(bytes);
  if (looks.rfind("a Tipsy file", 0) == 0) {  // a Tipsy header whose records do not fit: what is wrong
    k.kind = InputKind::Kind::damaged;
    k.format = SnapshotFormat::tipsy;
    try {
      TipsyFile damaged(path);
    } catch (const UserError& e) { k.description = "a Tipsy snapshot that cannot be read: " + std::string(e.what()); }
    return k;
  }
  // A file of a known kind (a FITS header is text for its first 2880 bytes), or bytes that are no text.
  if ((!looks.empty() && looks != "a text file") || looks_binary(bytes)) {
    k.kind = InputKind::Kind::binary;
    k.description = looks.empty() ? "binary data of no format splotch recognises (Gadget, HDF5 and Tipsy snapshots "
                                    "are; a raw binary table is read through a parameter file, simtype 0 or 1)"
                                  : looks;
    return k;
  }
  k.kind = InputKind::Kind::text;
  return k;
}

int ptype0_override(const std::vector<std::string>& overrides) {
  int file_type = -1;
  for (const std::string& o : overrides)
    if (o.rfind("ptype0=", 0) == 0) try {
        file_type = int(parse_integer(o.substr(7), "ptype0"));
      } catch (const UserError&) {}  // (said when the keys are read)
  return file_type;
}

void yield_to_overrides(ParamFile& starter, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) {
    const std::string key = o.substr(0, o.find('='));
    for (const std::string prefix : {"size_fix", "size_label"}) {
      if (key.rfind(prefix, 0) != 0 || key.size() == prefix.size()) continue;
      const std::string n = key.substr(prefix.size());
      if (n.find_first_not_of("0123456789") != std::string::npos) continue;
      if (starter.has("size_estimate" + n))
        starter.set("size_estimate" + n, "none", "the first picture (" + key + " given: the sizes it names)");
    }
  }
}

ParamFile read_parameter_file(const std::string& path, const std::vector<std::string>& overrides) {
  const InputKind k = input_kind(path);
  const std::string what = "'" + path + "' is ";
  const std::string how = " (README: Example parameter files)";
  switch (k.kind) {
    case InputKind::Kind::snapshot:  // a first picture, with the choices of splotch --init
    {
      ParamFile starter = starter_parameters(path, *k.format, ptype0_override(overrides));
      yield_to_overrides(starter, overrides);
      return starter;
    }
    case InputKind::Kind::tipsy_aux_array:
      throw UserError(what + k.description +
                      ", not a parameter file: a parameter file with simtype = 11 and infile = " + k.snapshot +
                      " draws it with a label of its name (color_label0 = " + path.substr(k.snapshot.size() + 1) +
                      ", say)");
    case InputKind::Kind::directory: {
      if (k.description != "a directory") throw UserError(what + k.description);
      // A run's directory of RAMSES outputs: say which to name.
      const std::vector<std::string> outputs = ramses_outputs_in(path);
      if (!outputs.empty())
        throw UserError(what + "a directory of RAMSES outputs (" + outputs.front() +
                        (outputs.size() > 1 ? " to " + outputs.back() : std::string()) +
                        "): name one of them, bin/splotch " + path + (path.back() == '/' ? "" : "/") + outputs.back());
      throw UserError(what + "a directory, not a parameter file: name the .par file in it" + how);
    }
    case InputKind::Kind::empty:
      throw UserError(what + k.description + ": a parameter file holds key = value lines, and a snapshot particles" +
                      how);
    case InputKind::Kind::damaged: throw UserError(what + k.description);
    case InputKind::Kind::binary:
      throw UserError(what + k.description + ", not a parameter file (key = value lines) nor a snapshot" + how);
    case InputKind::Kind::missing:
      throw UserError("cannot open '" + path + "': " + k.description +
                      " (neither a parameter file nor a snapshot of that name, nor a snapshot's files " + path +
                      ".0, ...)");
    default: return ParamFile::read(path);
  }
}

std::string init_parameter_text(const std::string& path) {
  const InputKind k = input_kind(path);
  if (k.kind == InputKind::Kind::snapshot && absolute_path(path).find('#') != std::string::npos)
    throw UserError("'" + path + "' holds '#', which starts a comment in a parameter file: link the snapshot under " +
                    "a name without one (ln -s), or render it without a parameter file: bin/splotch '" + path + "'");
  if (k.kind == InputKind::Kind::snapshot) return starter_parameter_text(path, *k.format);
  if (k.kind == InputKind::Kind::missing) throw UserError("cannot open '" + path + "': " + k.description);
  throw UserError(
      "--init writes a parameter file for a snapshot (Gadget, HDF5, Tipsy, Phantom, Bonsai, FITS or RAMSES), and '" +
      path + "' is " + (k.description.empty() ? std::string("not one") : k.description) +
      (k.kind == InputKind::Kind::text ? " (a parameter file? render it: bin/splotch " + path + ")" : ""));
}

}  // namespace splotch
