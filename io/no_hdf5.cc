// Stands in for io/hdf5_file.cc, io/hdf5_table_reader.cc, io/phantom_hdf5.cc, io/enzo_hdf5.cc and io/swift_cells.cc in
// a build without the HDF5 library (make HDF5=0, or /usr/include/hdf5/serial missing): HDF5 snapshots and tables are
// then refused with a message saying how to get them read.
#include "errors/user_error.h"
#include "io/enzo_data_file.h"
#include "io/hdf5_file.h"
#include "io/hdf5_table_reader.h"
#include "io/phantom_reader.h"
#include "io/swift_cells.h"

namespace splotch {
namespace {

UserError without_hdf5(const std::string& what, const std::string& path) {
  return UserError("cannot read the HDF5 " + what + " '" + path +
                   "': this splotch was built without HDF5; install libhdf5-dev (make deps) and rebuild");
}

}  // namespace

bool hdf5_supported() { return false; }
bool hdf5_thread_safe() { return true; }  // never called: nothing to guard

Hdf5File::Hdf5File(const std::string& path) : path_(path) { throw without_hdf5("snapshot", path); }

Hdf5File::~Hdf5File() = default;
const std::vector<Hdf5Field>& Hdf5File::fields(int) const { return fields_[0]; }
std::optional<Hdf5Field> Hdf5File::find(int, const std::string&) const { return std::nullopt; }
std::string Hdf5File::field_names(int) const { return {}; }
ParticleArray<float> Hdf5File::read_field(int, const Hdf5Field&, int) const { return {}; }
void Hdf5File::read(int, const Hdf5Field&, std::size_t, std::size_t, float* const[], int, float) const {}
void Hdf5File::read_ids(int, const Hdf5Field&, std::size_t, std::size_t, std::uint64_t*) const {}

ParticleSet read_hdf5_table(const Hdf5TableOptions& options, const ProgressCallback&) {
  throw without_hdf5("table", options.path);
}
std::vector<std::pair<std::int64_t, std::size_t>> hdf5_table_snapshot_ids(const Hdf5TableOptions& options) {
  throw without_hdf5("table", options.path);
}
bool is_phantom_hdf5(const std::string&) { return false; }
PhantomDump read_phantom_hdf5(const std::string& path, const ColumnWanted&, bool) {
  throw without_hdf5("Phantom dump", path);
}
struct EnzoDataFile::Handle {};
EnzoDataFile::EnzoDataFile(const std::string& path) : path_(path) { throw without_hdf5("Enzo data file", path); }
EnzoDataFile::~EnzoDataFile() = default;
std::vector<EnzoDataset> EnzoDataFile::datasets(int) const { return {}; }
std::vector<double> EnzoDataFile::read(int, const std::string&) const { return {}; }
std::vector<std::int64_t> EnzoDataFile::read_integers(int, const std::string&) const { return {}; }
std::optional<CellSelection> swift_cells_reaching(const std::vector<std::string>&,
                                                  const std::vector<std::vector<std::uint64_t>>&, const ReadRegion&,
                                                  double, std::string& why) {
  why = "this splotch was built without HDF5";
  return std::nullopt;
}
// Without the library nothing is HDF5 to us: the caller goes on to say so when it reads the file.
bool is_gadget_layout_hdf5(const std::string&) { return false; }

}  // namespace splotch
