#include "splotch/load/particle_count.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "io/column_formats.h"
#include "io/gadget_reader.h"
#include "io/hdf5_reader.h"
#include "io/tipsy_file.h"

namespace splotch {
namespace {

// The particles of the requested file types, summed over the files ([file][type] counts).
std::uint64_t requested(const std::vector<std::vector<std::uint64_t>>& counts, const TypedSnapshotRequest& o) {
  std::uint64_t n = 0;
  for (const RenderTypeRequest& r : o.types)
    for (const auto& file : counts)
      if (r.file_type >= 0 && std::size_t(r.file_type) < file.size()) n += file[std::size_t(r.file_type)];
  return n;
}

std::uint64_t whole_snapshot(const SnapshotRequest& in) {
  switch (in.format) {
    case SnapshotFormat::raw_table:
    case SnapshotFormat::raw_blocks: {
      const std::uint64_t record = 4 * std::uint64_t(in.raw.num_fields);
      return record ? std::filesystem::file_size(in.path) / record : 0;
    }
    case SnapshotFormat::gadget: return requested(gadget_file_counts(in.typed), in.typed);
    case SnapshotFormat::hdf5: return requested(hdf5_file_counts(in.typed), in.typed);
    case SnapshotFormat::tipsy: {
      std::vector<std::vector<std::uint64_t>> counts;
      for (const std::string& path : in.typed.files) {
        const TipsyFile f(path, in.typed.swap_endian);
        counts.emplace_back(f.header().count.begin(), f.header().count.end());
      }
      return requested(counts, in.typed);
    }
    case SnapshotFormat::ramses:
    case SnapshotFormat::enzo:
    case SnapshotFormat::phantom:
    case SnapshotFormat::arrays: {
      const ColumnSnapshot s = in.arrays ? ColumnSnapshot{} : *column_outline(in.format, in.typed.files[0]);
      const ColumnSnapshot& outline = in.arrays ? *in.arrays : s;
      std::vector<std::vector<std::uint64_t>> counts(1);
      for (const ColumnType& t : outline.types) {
        counts[0].resize(std::max(counts[0].size(), std::size_t(t.file_type) + 1), 0);
        counts[0][std::size_t(t.file_type)] = t.count;
      }
      return requested(counts, in.typed);
    }
    default: throw std::invalid_argument("no count before reading");
  }
}

}  // namespace

std::optional<std::uint64_t> particles_to_read(const SnapshotRequest& input) {
  try {
    const std::uint64_t all = whole_snapshot(input);
    const int parts = std::max(1, input.typed.share.parts);
    return all / std::uint64_t(parts) + (all % std::uint64_t(parts) != 0);
  } catch (const std::exception&) { return std::nullopt; }
}

}  // namespace splotch
