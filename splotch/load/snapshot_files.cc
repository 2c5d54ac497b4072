#include "splotch/load/snapshot_files.h"

#include <algorithm>
#include <cstdio>

#include "errors/user_error.h"
#include "splotch/util/file_paths.h"

namespace splotch {
namespace {

std::string joined(const std::string& directory, const std::string& name) {
  if (directory.empty() || (!name.empty() && name[0] == '/')) return name;
  return directory.back() == '/' ? directory + name : directory + "/" + name;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The names tried, in order: each with the extension (when it lacks it), then as given
// (snap_005.hdf5 before a Gadget snap_005 beside it); relative names from the working directory
// first, then from the parameter file's.
// A name tried, and the stem fidx numbered in it (empty where it is not numbered so).
struct Candidate {
  std::string base, stem;
};
std::vector<Candidate> names_to_try(const SnapshotNames& n, const std::string& extension) {
  char nnn[16];
  std::snprintf(nnn, sizeof nnn, "%03d", n.fidx.value_or(0));
  const std::string exact = joined(n.datadir, n.infile);
  const std::string numbered =
      joined(n.snapdir.empty() ? n.datadir : joined(n.datadir, n.snapdir + nnn), n.infile + nnn);
  // (with snapdir the number is in the directory too: the record keeps the keys as given)
  const std::string stem = n.fidx && n.snapdir.empty() ? joined(n.datadir, n.infile) : "";
  std::vector<Candidate> bases;
  for (const Candidate& b : n.fidx ? std::vector<Candidate>{{numbered, stem}, {exact, ""}}
                                   : std::vector<Candidate>{{exact, ""}, {numbered, ""}}) {
    if (!extension.empty() && !ends_with(b.base, extension)) bases.push_back({b.base + extension, b.stem});
    bases.push_back(b);
  }
  for (std::size_t k = 0, count = bases.size(); k < count; ++k)
    if (!n.beside.empty() && !bases[k].base.empty() && bases[k].base[0] != '/')
      bases.push_back({n.beside + bases[k].base, bases[k].stem.empty() ? "" : n.beside + bases[k].stem});
  return bases;
}

// The files of a snapshot in several from their base name: snap.k, or snap.k.hdf5 where the
// extension ends the name.
class Parts {
 public:
  explicit Parts(std::string extension) : extension_(std::move(extension)) {}
  std::string without_extension(const std::string& name) const {
    return !extension_.empty() && ends_with(name, extension_) ? name.substr(0, name.size() - extension_.size()) : name;
  }
  std::string part(const std::string& base, int k) const {
    return without_extension(base) + "." + std::to_string(k) + (ends_with(base, extension_) ? extension_ : "");
  }
  FoundSnapshot all(const std::string& base, int count) const {
    FoundSnapshot found{base, {}};
    for (int k = 0; k < count; ++k) found.files.push_back(part(base, k));
    return found;
  }
  const std::string& extension() const { return extension_; }

 private:
  std::string extension_;
};

// `base`, an existing file: that file alone, unless it is one of several (snap.0, snap.1) and
// numfiles was left out (then all of them).
FoundSnapshot from_one_file(const SnapshotNames& n, const std::string& base, const Parts& parts,
                            const std::function<int(const std::string&)>& files_in_header,
                            std::vector<std::string>* warnings) {
  const int in_header = n.numfiles ? 1 : files_in_header(base);
  if (n.numfiles && warnings) {  // the original's files say numfiles = 1 by habit
    const int said = files_in_header(base);
    if (said > 1)
      warnings->push_back(n.numfiles_origin + ": numfiles = 1, but the header of '" + base +
                          "' says the snapshot has " + std::to_string(said) +
                          " files: only this one is read (leave numfiles out, or give numfiles = " +
                          std::to_string(said) + " and infile without the .0, to read all)");
  }
  const std::string stem = parts.without_extension(base);
  // snap.0, or any other file of the snapshot (snap.1): all its files.
  const std::size_t dot = stem.rfind('.');
  const bool has_number = dot != std::string::npos && dot + 1 < stem.size() &&
                          stem.find_first_not_of("0123456789", dot + 1) == std::string::npos &&
                          std::stoll(stem.substr(dot + 1, 9)) < in_header;
  if (in_header > 1 && has_number) {
    const std::string first = stem.substr(0, dot) + (ends_with(base, parts.extension()) ? parts.extension() : "");
    if (is_regular_file(parts.part(first, 0))) return parts.all(first, in_header);
  }
  return {base, {base}};
}

}  // namespace

FoundSnapshot find_snapshot_files(const SnapshotNames& n, const std::string& extension,
                                  const std::function<int(const std::string&)>& files_in_header,
                                  std::vector<std::string>* warnings) {
  const std::vector<Candidate> bases = names_to_try(n, extension);
  const Parts parts(extension);
  const int numfiles = n.numfiles.value_or(0);
  std::string tried, hint;
  for (const Candidate& candidate : bases) {
    const std::string& base = candidate.base;
    auto numbered = [&](FoundSnapshot found) {
      found.numbered_stem = candidate.stem;
      return found;
    };
    if (numfiles > 1) {
      if (is_regular_file(parts.part(base, 0))) return numbered(parts.all(base, numfiles));
      tried += (tried.empty() ? "" : ", ") + parts.part(base, 0);
      continue;
    }
    if (is_regular_file(base)) return numbered(from_one_file(n, base, parts, files_in_header, warnings));
    if (!n.numfiles && is_regular_file(parts.part(base, 0)))
      return numbered(parts.all(base, std::max(files_in_header(parts.part(base, 0)), 1)));
    tried += (tried.empty() ? "" : ", ") + base + (n.numfiles ? "" : " (or " + parts.part(base, 0) + ")");
    if (numfiles == 1 && is_regular_file(parts.part(base, 0)) && hint.empty())
      hint = "; " + parts.part(base, 0) +
             " exists: for a snapshot in several files leave numfiles out (or give their count)";
  }
  for (const Candidate& candidate : bases)
    if (const std::string& base = candidate.base; path_exists(base) && !is_regular_file(base))
      throw UserError(n.infile_origin + ": infile = " + n.infile + " names " + base +
                      ", a directory: name the snapshot file in it (its first file, for a snapshot in several: "
                      "snap_010.0 or snap_010.0.hdf5)");
  throw UserError(n.infile_origin + ": cannot find the snapshot of infile = " + n.infile + "; tried " + tried +
                  " (from infile, datadir, snapdir, fidx and numfiles)" + hint);
}

}  // namespace splotch
