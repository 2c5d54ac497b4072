// Stands in for io/hdf5_file.cc in a build without the HDF5 library (make HDF5=0, or
// /usr/include/hdf5/serial missing): HDF5 snapshots are then refused with a message saying how
// to get them read.
#include "io/hdf5_file.h"
#include "params/user_error.h"

namespace splotch {

bool hdf5_supported() { return false; }
bool hdf5_thread_safe() { return true; }  // never called: nothing to guard

Hdf5File::Hdf5File(const std::string& path) : path_(path) {
  throw UserError("cannot read the HDF5 snapshot '" + path +
                  "': this splotch was built without HDF5; install libhdf5-dev (make deps) and rebuild");
}

Hdf5File::~Hdf5File() = default;
const std::vector<Hdf5Field>& Hdf5File::fields(int) const { return fields_[0]; }
std::optional<Hdf5Field> Hdf5File::find(int, const std::string&) const { return std::nullopt; }
std::string Hdf5File::field_names(int) const { return {}; }
ParticleArray<float> Hdf5File::read_field(int, const Hdf5Field&, int) const { return {}; }
void Hdf5File::read(int, const Hdf5Field&, std::size_t, std::size_t, float* const[], int, float) const {}

}  // namespace splotch
