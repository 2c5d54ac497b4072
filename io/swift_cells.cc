// SWIFT's top-level cells (io/swift_cells.h).
#include "io/swift_cells.h"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "io/hdf5_handles.h"

namespace splotch {
namespace {

bool has(hid_t file, const std::string& path) {
  // Each part of the path in turn (H5Lexists needs its parents to exist).
  std::size_t at = 0;
  while (true) {
    const std::size_t slash = path.find('/', at);
    const std::string part = path.substr(0, slash);
    if (H5Lexists(file, part.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    at = slash + 1;
  }
}

template <class T>
std::vector<T> read_all(hid_t file, const std::string& path, hid_t type) {
  Id d(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) return {};
  Id space(H5Dget_space(d.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  std::vector<T> v(n > 0 ? std::size_t(n) : 0);
  if (!v.empty() && H5Dread(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) return {};
  return v;
}

}  // namespace

std::optional<CellSelection> swift_cells_reaching(const std::vector<std::string>& files,
                                                  const std::vector<std::vector<std::uint64_t>>& counts,
                                                  const ReadRegion& region, double box_size, std::string& why) {
  QuietErrors quiet;
  Id file(H5Fopen(files.at(0).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid() || !has(file.get(), "Cells/Meta-data") || !has(file.get(), "Cells/Centres")) {
    why = swift_no_cells;
    return std::nullopt;
  }
  Id meta(H5Gopen2(file.get(), "Cells/Meta-data", H5P_DEFAULT), H5Gclose);
  double size[3] = {0, 0, 0};
  {
    Id a(H5Aopen(meta.get(), "size", H5P_DEFAULT), H5Aclose);
    Id space(a.valid() ? H5Aget_space(a.get()) : -1, H5Sclose);
    if (!a.valid() || H5Sget_simple_extent_npoints(space.get()) != 3 || H5Aread(a.get(), H5T_NATIVE_DOUBLE, size) < 0 ||
        !(size[0] > 0 && size[1] > 0 && size[2] > 0)) {
      why = "its /Cells/Meta-data has no cell size";
      return std::nullopt;
    }
  }
  const std::vector<double> centres = read_all<double>(file.get(), "Cells/Centres", H5T_NATIVE_DOUBLE);
  const std::size_t cells = centres.size() / 3;
  if (cells == 0 || centres.size() != 3 * cells) {
    why = "its /Cells/Centres is not a list of 3-vectors";
    return std::nullopt;
  }
  CellSelection s;
  s.cells = cells;
  s.cell_size = std::max({size[0], size[1], size[2]});
  std::size_t types = 0;
  for (const auto& f : counts) types = std::max(types, f.size());
  s.runs.assign(files.size(), std::vector<std::vector<RowRun>>(types));
  // Which cells reach the region (the same for every type).
  // (each cell grown by half its side for the drift; the kernels' reach by the largest side)
  const double reach = s.cell_size * region.reach_per_hsml;
  std::vector<bool> reaching(cells, false);
  // Where a cell's particles can be drawn: in a box wrapped about a centre, within half a box of
  // it (the cell, or an image of it, there); in a periodic box not wrapped, within the box, where
  // SWIFT writes them (a particle that drifted across a face is written at the opposite one, and
  // stays listed in its cell). Per axis the cell's images nearest that domain are tried.
  const bool wrapped = box_size > 0 && region.wrap_centre;
  for (std::size_t c = 0; c < cells; ++c) {
    int k0[3] = {0, 0, 0};
    double domain_lo[3] = {-1e300, -1e300, -1e300}, domain_hi[3] = {1e300, 1e300, 1e300};
    for (std::size_t d = 0; d < 3 && box_size > 0; ++d) {
      const double middle = wrapped ? (*region.wrap_centre)[d] : 0.5 * box_size;
      const double k = std::round((middle - centres[3 * c + d]) / box_size);
      k0[d] = std::isfinite(k) && std::abs(k) < 1e9 ? int(k) : 0;
      domain_lo[d] = middle - 0.5 * box_size;
      domain_hi[d] = middle + 0.5 * box_size;
    }
    const int images = box_size > 0 ? 1 : 0;
    for (int i = -images; i <= images && !reaching[c]; ++i)
      for (int j = -images; j <= images && !reaching[c]; ++j)
        for (int k = -images; k <= images && !reaching[c]; ++k) {
          const int shift[3] = {k0[0] + i, k0[1] + j, k0[2] + k};
          std::array<double, 3> lo, hi;
          bool inside = true;
          for (std::size_t d = 0; d < 3; ++d) {
            lo[d] = std::max(centres[3 * c + d] - size[d] + shift[d] * box_size, domain_lo[d]);
            hi[d] = std::min(centres[3 * c + d] + size[d] + shift[d] * box_size, domain_hi[d]);
            inside = inside && lo[d] <= hi[d];
          }
          reaching[c] = inside && region.reaches(lo, hi, 0, reach);
        }
    s.reaching += reaching[c];
  }
  for (std::size_t t = 0; t < types; ++t) {
    if (!region.applies_to(int(t))) continue;
    const std::string type = "PartType" + std::to_string(t);
    std::uint64_t total = 0;
    for (const auto& f : counts) total += t < f.size() ? f[t] : 0;
    const auto count_in = [&](std::size_t f) { return t < counts[f].size() ? counts[f][t] : std::uint64_t(0); };
    if (total == 0) continue;
    const std::vector<std::int64_t> count =
        read_all<std::int64_t>(file.get(), "Cells/Counts/" + type, H5T_NATIVE_INT64);
    const bool in_file = has(file.get(), "Cells/OffsetsInFile/" + type);
    const std::vector<std::int64_t> offset = read_all<std::int64_t>(
        file.get(), (in_file ? "Cells/OffsetsInFile/" : "Cells/Offsets/") + type, H5T_NATIVE_INT64);
    std::vector<std::int64_t> file_of = read_all<std::int64_t>(file.get(), "Cells/Files/" + type, H5T_NATIVE_INT64);
    if (in_file && file_of.empty() && files.size() > 1) {
      why = "its /Cells give offsets in files (OffsetsInFile) but not which files (Files) for " + type;
      return std::nullopt;
    }
    if (count.size() != cells || offset.size() != cells || (!file_of.empty() && file_of.size() != cells)) {
      why = "its /Cells lists for " + type + " are not one per cell";
      return std::nullopt;
    }
    // Without Files, the offsets run over the files in order (one file: its rows).
    std::vector<std::uint64_t> first(files.size() + 1, 0);
    for (std::size_t f = 0; f < files.size(); ++f) first[f + 1] = first[f] + count_in(f);
    std::uint64_t listed = 0;
    std::vector<std::pair<std::int64_t, RowRun>> picked;  // (file, rows)
    for (std::size_t c = 0; c < cells; ++c) {
      if (count[c] < 0 || offset[c] < 0) {
        why = "its /Cells lists for " + type + " hold negative counts or offsets";
        return std::nullopt;
      }
      listed += std::uint64_t(count[c]);
      if (!reaching[c] || count[c] == 0) continue;
      std::int64_t f = 0;
      std::uint64_t row = std::uint64_t(offset[c]);
      if (!file_of.empty() && in_file) {
        f = file_of[c];
      } else {
        while (std::size_t(f) + 1 < files.size() && row >= first[std::size_t(f) + 1]) ++f;
        row -= first[std::size_t(f)];
      }
      if (f < 0 || std::size_t(f) >= files.size() || row + std::uint64_t(count[c]) > count_in(std::size_t(f))) {
        why = "its /Cells lists for " + type + " point past the particles of its files";
        return std::nullopt;
      }
      picked.push_back({f, RowRun{std::size_t(row), std::size_t(count[c])}});
    }
    if (listed != total) {
      why = "its cells hold " + std::to_string(listed) + " particles of " + type + " and its headers " +
            std::to_string(total);
      return std::nullopt;
    }
    std::sort(picked.begin(), picked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second.row < b.second.row;
    });
    for (const auto& [f, run] : picked) {
      std::vector<RowRun>& runs = s.runs[std::size_t(f)][t];
      if (!runs.empty() && runs.back().row + runs.back().count == run.row)
        runs.back().count += run.count;  // (neighbouring cells: one read)
      else
        runs.push_back(run);
    }
  }
  return s;
}

}  // namespace splotch
