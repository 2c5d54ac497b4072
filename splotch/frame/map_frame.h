// A quantitative map of one view (docs/maps.md): the kernel and its support chosen from the
// file's code (or the keys), the particles taken to the map's pixels (splotch/stages/
// map_splats.h), their kernels integrated over the pixels (splotch/render/host_map.h), the
// processes' sums added (MPI), the values in their units (splotch/stages/map_units.h), and the
// map written: a data file (FITS, HDF5, .npy) or a figure through palette0.
#pragma once

#include <string>
#include <vector>

#include "cuda/device_particles.h"
#include "io/image.h"
#include "io/map_writer.h"
#include "io/palette.h"
#include "io/particle_set.h"
#include "params/param_file.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/settings/settings.h"

namespace splotch {

class Comm;

// The kernel and its support over the smoothing length for `units` (the file's code), unless
// the settings give them; `why` says which and why, for the report.
struct MapKernelChoice {
  MapKernel kernel = MapKernel::cubic;
  double support_factor = 1;
  std::string why;
};
MapKernelChoice choose_map_kernel(const MapSettings& map, const SnapshotUnits& units);

// A map's values, row 0 at the bottom, in their units, and what they sum to.
struct MapValues {
  int xres = 0, yres = 0;
  std::vector<float> values;
  MapUnits units;
  double pixel = 0;  // code units
  double total = 0;  // column: the sum of value times pixel area, in the value's units times length^2
  MapKernelChoice kernel;
  bool on_gpu = false;      // drawn by the GPU's map drawer (cuda/map_renderer.h)
  bool from_kept = false;   // ... from the particles kept on the GPU (no splats made on the host)
  std::string gpu_failure;  // why the GPU did not draw it where it was asked to ("" otherwise)
};

// The map of the view `camera` from `particles` (this process's share under MPI: every process
// calls it, and rank 0's values hold the sum), drawn on GPU `gpu` where it is not -1 (on the host
// where that fails, said in MapValues::gpu_failure): from `kept`, the particles' copy on that GPU,
// where given, else from splats made on the host.
MapValues draw_map(const Settings& s, const Camera& camera, const ParticleSet& particles, const Comm* comm,
                   int gpu = -1, DeviceParticles* kept = nullptr);

// The map with what a data file records of it (units, axes, the parameters).
MapFile map_record(const ParamFile& params, const Settings& s, const MapValues& map, const ParticleSet& particles);
// The map's figure through `palette`: the map, its colour bar and labels.
Image8 map_figure_of(const Settings& s, const MapValues& map, const ParticleSet& particles, const Palette& palette);

// Writes `map` to s.output.path: a data file, or a figure through `palette` (and used.par); a data
// file needs no palette (nullptr).
void write_map(const ParamFile& params, const Settings& s, const MapValues& map, const ParticleSet& particles,
               const Palette* palette);

// The report's lines for the map.
std::vector<std::string> map_notes(const Settings& s, const MapValues& map);

}  // namespace splotch
