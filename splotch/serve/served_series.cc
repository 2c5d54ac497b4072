#include "splotch/serve/served_series.h"

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
  try {
    if (params.has("fidx")) {
      const double given = std::stod(params.peek("fidx"));
      if (given != int(given)) return out;  // (between two snapshots: refused as a picture)
      out.first = int(given);
      for (int k = 0; k < 1000; ++k) {
        ParamFile p = params;
        p.set("fidx", std::to_string(k), "the server: the series");
        try {
          typed_snapshot_files(p, format);
          out.fidx.push_back(k);
        } catch (const std::exception&) {}  // (no snapshot of that number)
      }
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
