#include "io/read_snapshot.h"

#include "io/gadget_reader.h"
#include "io/hdf5_reader.h"
#include "io/hdf5_table_reader.h"
#include "io/raw_reader.h"
#include "io/tipsy_reader.h"
#include "params/user_error.h"

namespace splotch {

ParticleSet read_snapshot(const SnapshotRequest& input, const ProgressCallback& progress) {
  switch (input.simtype) {
    case 0:
    case 1:
      return read_raw(input.path, input.raw, progress);
    case 2:
      return read_gadget(input.typed, progress);
    case 7:
      return read_hdf5_table(input.table, progress);
    case 8:
      return read_hdf5(input.typed, progress);
    case 11:
      return read_tipsy(input.typed, progress);
    default:
      throw UserError("simtype " + std::to_string(input.simtype) + " has no reader yet");
  }
}

std::vector<std::vector<std::uint64_t>> snapshot_file_counts(const SnapshotRequest& input) {
  if (input.typed.files.size() < 2) return {};
  if (input.simtype == 2) return gadget_file_counts(input.typed);
  if (input.simtype == 7 || input.simtype == 8) return hdf5_file_counts(input.typed);
  return {};
}

}  // namespace splotch
