#include "splotch/serve/served_series.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <regex>
#include <system_error>

#include "splotch/settings/settings_keys.h"

namespace splotch {

namespace {

// The formats whose file names fidx builds.
bool numbered_format(const std::string& simtype, SnapshotFormat& format) {
  if (simtype == "2" || simtype == "4") {
    format = SnapshotFormat::gadget;
    return true;
  }
  if (simtype == "8") {
    format = SnapshotFormat::hdf5;
    return true;
  }
  return false;
}

bool exists(const std::string& path) {
  std::error_code e;
  return std::filesystem::is_regular_file(path, e);
}

}  // namespace

ServedSeries served_series(const ParamFile& params) {
  ServedSeries out;
  SnapshotFormat format;
  if (!params.has("infile") || !numbered_format(params.peek("simtype"), format)) return out;
  if (!params.peek("snapdir").empty())
    out.scene_note =
        "with snapdir the view's record names one snapshot's directory, so its scene would stay at one "
        "snapshot: give your .par a scene file with a fidx column (and interpolation_mode) yourself";
  try {
    if (params.has("fidx")) {
      const double given = std::stod(params.peek("fidx"));
      if (!(given >= 0 && given < 1e6) || given != int(given)) return out;  // (between two: refused as a picture)
      out.first = int(given);
      // A number counts where fidx numbered a file of its own (infile + NNN): infile naming one
      // file is found for every fidx, which is no series.
      std::vector<std::string> seen;
      auto numbered = [&](int k) {
        ParamFile p = params;
        p.set("fidx", std::to_string(k), "the server: the series");
        try {
          const std::vector<std::string> files = typed_snapshot_files(p, format);
          char digits[16];
          std::snprintf(digits, sizeof digits, "%03d", k);
          const std::string name = files.empty() ? "" : std::filesystem::path(files[0]).filename().string();
          if (files.empty() || name.find(digits) == std::string::npos ||
              std::find(seen.begin(), seen.end(), files[0]) != seen.end())
            return false;
          seen.push_back(files[0]);
          return true;
        } catch (const std::exception&) { return false; }  // (no snapshot of that number)
      };
      for (int k = 0; k < 1000; ++k)
        if (numbered(k)) out.fidx.push_back(k);
      // (numbers of four digits and more: the run's from the one served on, as long as they last)
      for (int k = std::max(1000, out.first); k < out.first + 1000 && numbered(k); ++k) out.fidx.push_back(k);
      if (std::find(out.fidx.begin(), out.fidx.end(), out.first) == out.fidx.end()) out.fidx.clear();
      return out;
    }
    ParamFile p = params;
    const std::string path = input_path(p, "infile");
    std::smatch m;
    static const std::regex numbered("^(.*[^0-9/])([0-9]{3})(\\.hdf5)?$");
    if (!exists(path) || !std::regex_match(path, m, numbered)) return out;
    // (an HDF5 name takes .hdf5 after the number, as fidx builds it; a Gadget file none)
    if (m[3].matched != (format == SnapshotFormat::hdf5)) return out;
    char digits[8];
    for (int k = 0; k < 1000; ++k) {
      std::snprintf(digits, sizeof digits, "%03d", k);
      if (exists(m[1].str() + digits + m[3].str())) out.fidx.push_back(k);
    }
    out.first = std::stoi(m[2].str());
    if (out.fidx.size() >= 2) out.stem = m[1].str();
  } catch (const std::exception&) { out.fidx.clear(); }
  return out;
}

}  // namespace splotch
