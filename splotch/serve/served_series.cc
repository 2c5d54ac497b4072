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

// The series' step, and why there is none (served_series's answer without it).
ServedSeries with_step(ServedSeries out) {
  if (!out.scene_note.empty()) {
    out.step_note = out.scene_note;
    return out;
  }
  out.step = series_step(out.fidx, out.step_note);
  return out;
}

ServedSeries listed(const ParamFile& params);

}  // namespace

int series_step(const std::vector<int>& series, std::string& why) {
  std::string list;
  for (int k : series) list += (list.empty() ? "" : ", ") + std::to_string(k);
  if (series.size() < 2) {
    why = "a time between snapshots needs a series of them; the server holds one";
    return 0;
  }
  const int step = series[1] - series[0];
  for (std::size_t i = 1; i < series.size(); ++i)
    if (series[i] - series[i - 1] != step) {
      why = "the series' snapshots are not evenly numbered (" + list +
            "): a time between them needs one step (snapshot_spacing)";
      return 0;
    }
  // (a fidx between snapshots reads those at multiples of the spacing: the series must lie on them)
  if (series.front() % step != 0) {
    why = "the series' snapshots (" + list + ") do not lie at multiples of their step " + std::to_string(step) +
          ", which a time between them reads (snapshot_spacing)";
    return 0;
  }
  why.clear();
  return step;
}

ServedSeries served_series(const ParamFile& params) { return with_step(listed(params)); }

namespace {

ServedSeries listed(const ParamFile& params) {
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

}  // namespace

}  // namespace splotch
