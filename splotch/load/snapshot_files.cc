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

}  // namespace

std::vector<std::string> snapshot_files(ParamFile& p, const std::string& extension,
                                        const std::function<int(const std::string&)>& files_in_header,
                                        std::vector<std::string>* warnings) {
  const std::string infile = p.get<std::string>("infile");
  const std::string datadir = p.get<std::string>("datadir", "");
  const std::string snapdir = p.get<std::string>("snapdir", "");
  // fidx is looked up only when given: its presence changes which names are tried first, and
  // used.par must not give it where the run did not.
  const bool fidx_given = p.has("fidx");
  const int fidx = fidx_given ? p.get<int>("fidx") : 0;
  if (fidx < 0 || fidx > 999999)
    throw UserError(p.origin("fidx") + ": fidx = " + std::to_string(fidx) + " must be from 0");
  const int numfiles = p.get<int>("numfiles", 0);
  if (p.has("numfiles") && numfiles < 1)
    throw UserError(p.origin("numfiles") + ": numfiles = " + std::to_string(numfiles) + " must be at least 1");

  char nnn[16];
  std::snprintf(nnn, sizeof nnn, "%03d", fidx);
  const std::string exact = joined(datadir, infile);
  const std::string numbered = joined(snapdir.empty() ? datadir : joined(datadir, snapdir + nnn), infile + nnn);
  // Each name with the extension (when it lacks it), then as given: snap_005.hdf5 before a
  // Gadget snap_005 beside it.
  std::vector<std::string> bases;
  for (const std::string& b :
       fidx_given ? std::vector<std::string>{numbered, exact} : std::vector<std::string>{exact, numbered}) {
    if (!extension.empty() && !ends_with(b, extension)) bases.push_back(b + extension);
    bases.push_back(b);
  }
  // Relative names: the working directory first, then the parameter file's.
  const std::string beside = directory_of(p.name());
  for (std::size_t k = 0, n = bases.size(); k < n; ++k)
    if (!beside.empty() && !bases[k].empty() && bases[k][0] != '/') bases.push_back(beside + bases[k]);

  // File k of a snapshot in several: snap.k, or snap.k.hdf5 where the extension ends the name.
  auto without_extension = [&](const std::string& name) {
    return !extension.empty() && ends_with(name, extension) ? name.substr(0, name.size() - extension.size()) : name;
  };
  auto part = [&](const std::string& base, int k) {
    return without_extension(base) + "." + std::to_string(k) + (ends_with(base, extension) ? extension : "");
  };
  auto parts = [&](const std::string& base, int count) {
    std::vector<std::string> files;
    for (int k = 0; k < count; ++k) files.push_back(part(base, k));
    return files;
  };
  // The record (used.par) names what was found: the absolute name the files derive from and their
  // count, which find the same files from any working directory.
  auto found = [&](const std::string& base, std::vector<std::string> files) {
    p.resolve("infile", absolute_path(base), "given as " + infile);
    if (!datadir.empty()) p.resolve("datadir", "", "in infile");
    if (!snapdir.empty()) p.resolve("snapdir", "", "in infile");
    p.resolve("numfiles", std::to_string(files.size()), p.has("numfiles") ? "" : "from the files found");
    return files;
  };

  std::string tried, hint;
  for (const std::string& base : bases) {
    if (numfiles > 1) {
      if (!is_regular_file(part(base, 0))) {
        tried += (tried.empty() ? "" : ", ") + part(base, 0);
        continue;
      }
      return found(base, parts(base, numfiles));
    }
    if (is_regular_file(base)) {
      // One file, unless it is one of several (snap.0, snap.1) and numfiles was left out.
      const int in_header = p.has("numfiles") ? 1 : files_in_header(base);
      if (p.has("numfiles") && warnings) {  // the original's files say numfiles = 1 by habit
        const int said = files_in_header(base);
        if (said > 1)
          warnings->push_back(p.origin("numfiles") + ": numfiles = 1, but the header of '" + base +
                              "' says the snapshot "
                              "has " +
                              std::to_string(said) +
                              " files: only this one is read (leave numfiles out, or "
                              "give numfiles = " +
                              std::to_string(said) + " and infile without the .0, to read all)");
      }
      const std::string stem = without_extension(base);
      // snap.0, or any other file of the snapshot (snap.1): all its files.
      const std::size_t dot = stem.rfind('.');
      const bool has_number = dot != std::string::npos && dot + 1 < stem.size() &&
                              stem.find_first_not_of("0123456789", dot + 1) == std::string::npos &&
                              std::stoll(stem.substr(dot + 1, 9)) < in_header;
      if (in_header > 1 && has_number) {
        const std::string first = stem.substr(0, dot) + (ends_with(base, extension) ? extension : "");
        if (is_regular_file(part(first, 0))) return found(first, parts(first, in_header));
      }
      return found(base, {base});
    }
    if (!p.has("numfiles") && is_regular_file(part(base, 0)))
      return found(base, parts(base, std::max(files_in_header(part(base, 0)), 1)));
    tried += (tried.empty() ? "" : ", ") + base + (p.has("numfiles") ? "" : " (or " + part(base, 0) + ")");
    if (p.has("numfiles") && numfiles == 1 && is_regular_file(part(base, 0)) && hint.empty())
      hint = "; " + part(base, 0) + " exists: for a snapshot in several files leave numfiles out (or give their count)";
  }
  for (const std::string& base : bases)
    if (path_exists(base) && !is_regular_file(base))
      throw UserError(p.origin("infile") + ": infile = " + infile + " names " + base +
                      ", a directory: name the snapshot file in it (its first file, for a snapshot in several: "
                      "snap_010.0 or snap_010.0.hdf5)");
  throw UserError(p.origin("infile") + ": cannot find the snapshot of infile = " + infile + "; tried " + tried +
                  " (from infile, datadir, snapdir, fidx and numfiles)" + hint);
}

}  // namespace splotch
