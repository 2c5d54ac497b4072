#include "io/column_formats.h"

#include <stdexcept>

#include "io/bonsai_reader.h"
#include "io/enzo_reader.h"
#include "io/phantom_reader.h"
#include "io/ramses_reader.h"
#include "io/visivo_reader.h"

namespace splotch {

ColumnSnapshot load_columns(const SnapshotRequest& input, const ColumnWanted& wanted,
                            const ProgressCallback& progress) {
  const std::string& path = input.typed.files.at(0);
  switch (input.format) {
    case SnapshotFormat::ramses: return load_ramses(path, wanted, progress);
    case SnapshotFormat::enzo: return load_enzo(path, wanted, progress);
    case SnapshotFormat::phantom: return load_phantom(path, wanted, progress);
    case SnapshotFormat::ascii: return load_ascii(path, input.ascii, wanted, progress);
    case SnapshotFormat::visivo: return load_visivo(path, input.ascii, wanted, progress);
    case SnapshotFormat::fits: return load_fits(path, input.fits, wanted, progress);
    case SnapshotFormat::mesh: return load_mesh(path, input.mesh, wanted, progress);
    case SnapshotFormat::bonsai: return load_bonsai(path, wanted, progress);
    case SnapshotFormat::arrays: return *input.arrays;  // (a copy: --info-like callers take the columns whole)
    default: break;
  }
  throw std::logic_error("load_columns: not a format read as columns");
}

std::optional<ColumnSnapshot> column_outline(SnapshotFormat format, const std::string& path) {
  switch (format) {
    case SnapshotFormat::ramses: return ramses_outline(path);
    case SnapshotFormat::enzo: return enzo_outline(path);
    case SnapshotFormat::phantom: return phantom_outline(path);
    case SnapshotFormat::fits: return fits_outline(path, FitsLayout{});
    case SnapshotFormat::bonsai: return bonsai_outline(path);
    case SnapshotFormat::visivo: return visivo_outline(path, AsciiLayout{});
    default: return std::nullopt;
  }
}

}  // namespace splotch
