#include "splotch/snapshot_files.h"

#include <algorithm>
#include <cstdio>

#include "params/user_error.h"
#include "splotch/file_paths.h"

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
                                        const std::function<int(const std::string&)>& files_in_header) {
  const std::string infile = p.get<std::string>("infile");
  const std::string datadir = p.get<std::string>("datadir", "");
  const std::string snapdir = p.get<std::string>("snapdir", "");
  const bool fidx_given = p.has("fidx");
  const int fidx = p.get<int>("fidx", 0);
  if (fidx < 0 || fidx > 999999) throw UserError(p.origin("fidx") + ": fidx = " + std::to_string(fidx) + " must be from 0");
  const int numfiles = p.get<int>("numfiles", 0);
  if (p.has("numfiles") && numfiles < 1)
    throw UserError(p.origin("numfiles") + ": numfiles = " + std::to_string(numfiles) + " must be at least 1");

  char nnn[16];
  std::snprintf(nnn, sizeof nnn, "%03d", fidx);
  const std::string exact = joined(datadir, infile) + extension;
  const std::string numbered =
      joined(snapdir.empty() ? datadir : joined(datadir, snapdir + nnn), infile + nnn) + extension;
  std::vector<std::string> bases = fidx_given ? std::vector<std::string>{numbered, exact}
                                              : std::vector<std::string>{exact, numbered};
  // Relative names: the working directory first, then the parameter file's.
  const std::string beside = directory_of(p.name());
  for (std::size_t k = 0, n = bases.size(); k < n; ++k)
    if (!beside.empty() && !bases[k].empty() && bases[k][0] != '/') bases.push_back(beside + bases[k]);

  std::string tried;
  for (const std::string& base : bases) {
    if (numfiles > 1) {
      if (!is_regular_file(base + ".0")) {
        tried += (tried.empty() ? "" : ", ") + base + ".0";
        continue;
      }
      std::vector<std::string> files;
      for (int k = 0; k < numfiles; ++k) files.push_back(base + "." + std::to_string(k));
      return files;
    }
    if (is_regular_file(base)) {
      // One file, unless it is the first of several (snap.0) and numfiles was left out.
      const int in_header = p.has("numfiles") ? 1 : files_in_header(base);
      if (in_header > 1 && ends_with(base, ".0")) {
        const std::string stem = base.substr(0, base.size() - 2);
        std::vector<std::string> files;
        for (int k = 0; k < in_header; ++k) files.push_back(stem + "." + std::to_string(k));
        return files;
      }
      return {base};
    }
    if (!p.has("numfiles") && is_regular_file(base + ".0")) {
      const int in_header = std::max(files_in_header(base + ".0"), 1);
      std::vector<std::string> files;
      for (int k = 0; k < in_header; ++k) files.push_back(base + "." + std::to_string(k));
      return files;
    }
    tried += (tried.empty() ? "" : ", ") + base + (p.has("numfiles") ? "" : " (or " + base + ".0)");
  }
  throw UserError(p.origin("infile") + ": cannot find the snapshot of infile = " + infile + "; tried " + tried +
                  " (from infile, datadir, snapdir, fidx and numfiles)");
}

}  // namespace splotch
