// Settings: the parameter file turned into the plain option structs of the stages. This (with
// splotch/settings/input_settings.cc for the input keys) is the one place that knows the keys of
// docs/design.md section 3, their defaults and their valid values, so
// every key is read (and checked) before the first particle is: a typo in the camera fails at
// once, not after a long read.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/cuda_renderer.h"
#include "io/image_writer.h"
#include "io/map_writer.h"
#include "io/snapshot_request.h"
#include "params/param_file.h"
#include "splotch/load/interpolate_snapshots.h"
#include "splotch/render/host_renderer.h"
#include "splotch/splat/map_kernel.h"
#include "splotch/splat/map_view.h"
#include "splotch/stages/camera_placement.h"
#include "splotch/stages/exposure.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/map_units.h"
#include "splotch/stages/normalize.h"
#include "splotch/stages/sort.h"

namespace splotch {

struct TypeSettings {
  TypeNormalization normalization;
  bool vector_colour = false;
  std::string palette_path;  // empty for vector types
  float brightness = 1.0f;
  float smooth_factor = 1.0f;
};

struct OutputSettings {
  std::string path;  // the image file
  ImageFormat format = ImageFormat::tga;
  int jpeg_quality = 90;  // ImageFormat::jpeg
  bool colour_bar = false;
  bool colour_bar_labels = false;  // colorbar = labels: with the values (colour_bar is true too)
  double gamma = 1.0, contrast = 1.0, brightness = 0.0;
};

enum class RendererChoice { host, cuda };

// The pictures a frame draws from one read of its particles (splotch/frame/frame_views.h).
struct ViewSettings {
  double eye_separation_degrees = 0;  // EyeSeparation > 0: a stereo pair, right_ and left_
  bool panorama = false;              // the six faces of a cube about the camera, 1_ to 6_
};

// A frame between two snapshots (interpolation_mode, a fractional fidx): `input` reads the first,
// `second_input` the second (splotch/load/interpolate_snapshots.h draws the particles between).
struct InterpolationSettings {
  bool between = false;  // false: the frame is of one snapshot
  InterpolationOptions options;
  double fraction = 0;        // of the way from the first to the second
  int first = 0, second = 0;  // their fidx
  SnapshotRequest second_input;
  std::string second_input_keys;  // as SettingsFor::input_keys, for the second (its cache signature)
};

// A quantitative map instead of the picture (map = column | average | slice: docs/maps.md).
struct MapSettings {
  MapMode mode = MapMode::none;
  std::vector<std::string> quantity, weight;  // per type: what the map is of (and an average's weight)
  std::optional<double> width, depth;         // map_width, map_depth (code units)
  std::optional<MapKernel> kernel;            // map_kernel; else the file's code's
  std::optional<double> support_factor;       // map_hsml_factor; else the code's convention
  MapUnitOptions units;
  bool log = true;                 // the figure's scale
  std::optional<double> min, max;  // the figure's range
  bool data_file = false;          // outfile names a data file (FITS, HDF5, .npy), not a figure
  MapFileFormat format = MapFileFormat::fits;
};

struct Settings {
  SnapshotRequest input;
  MapSettings map;
  InterpolationSettings interpolation;
  std::vector<TypeSettings> types;  // [ptypes]
  Camera camera;
  CameraPlacement placement;  // from_data: the camera is placed from the particles once they are read
  ViewSettings views;
  float minrad_pix = 1.0f;
  RenderOptions render;
  Exposure exposure;  // a factor on every brightness (splotch/stages/exposure.h)
  SortOrder sort = SortOrder::depth;
  RendererChoice renderer = RendererChoice::host;
  CudaOptions cuda;  // renderer = cuda
  OutputSettings output;
  std::vector<std::string> warnings;  // for the user, e.g. a pictype that the file name overrides
};

// The normalisation of each type (one per ptypes), as the load takes them.
std::vector<TypeNormalization> normalizations(const Settings& s);

// What reading the settings needs to know besides the keys.
struct SettingsFor {
  int frame = 0;               // numbers the image (docs/design.md section 4, "Output name")
  bool in_scene = false;       // a frame of a scene file (its number goes into the image's name)
  bool gpu_available = false;  // decides renderer = auto
  std::string no_gpu_reason;   // why there is none, for the error of renderer = cuda
  // When given, receives the keys that reading the input settings looked up, with their values
  // (as used.par lists them): they decide which particles a frame reads.
  std::string* input_keys = nullptr;
  // The particles a caller holds in memory (the Python module's arrays), drawn instead of a file.
  std::shared_ptr<const ColumnSnapshot> arrays;
};

// Every problem with the keys is gathered and thrown as one UserError listing them all (file, line,
// key, value each), so that a user fixes a parameter file in one round.
Settings read_settings(ParamFile& params, const SettingsFor& context = {});

// Throws a UserError (`where`: the key's origin) where the directory of `image_path` does not
// exist or cannot be written.
void check_writable_directory(const std::string& image_path, const std::string& where);

// The map's keys (splotch/settings/map_settings.cc), after the camera's: `outfile` naming a data
// file sets output.path; problems are rejected (gathered) in `p`.
void read_map(ParamFile& p, Settings& s, int frame, bool in_scene);

// The keys of the views and the dome (splotch/settings/view_settings.cc), after the camera's;
// problems are rejected (gathered) in `p`.
void read_views(ParamFile& p, Settings& s);

// An interpolated frame's place between its snapshots, read before the input keys: fidx is set to
// the first snapshot's number for their reading (none when the frame is of one snapshot).
struct InterpolationPoint {
  int mode = 0;
  int first = 0, second = 0;
  double fraction = 0;
  std::string fidx_text, origin;
};
std::optional<InterpolationPoint> interpolation_point(ParamFile& p);
// The second snapshot's request and the options (splotch/settings/interpolation_settings.cc);
// gives fidx its own value back.
InterpolationSettings read_interpolation(ParamFile& p, const InterpolationPoint& point, const SnapshotRequest& first);

// Only what reading the snapshot needs (for --info; ptypes = 0 is allowed there).
// `arrays`: the particles a caller holds in memory (io/memory_arrays.h), read instead of a file.
SnapshotRequest read_snapshot_request(ParamFile& params, std::shared_ptr<const ColumnSnapshot> arrays = nullptr);

// The original's ways of asking for no picture: AnalyzeSimulationOnly = TRUE or ptypes = 0 (what
// the snapshot holds, as --info says it), and print_snapIDs_in_file_ONLY = TRUE with simtype 7
// (the snapshot IDs of a compound table).
bool analysis_only(ParamFile& params);
bool snapshot_ids_only(ParamFile& params);

// The image file for `outfile`: used as given when it ends in .png/.tga/.ppm/.jpg/.jpeg (a frame of
// a scene file: with the 4-digit frame number before the extension), else with the 4-digit frame
// number and the extension of `pictype` appended (and a warning when the name ends like another
// image type, .gif say). Exposed for tests.
struct OutputName {
  std::string path;
  ImageFormat format;
  std::string warning;  // non-empty when a given pictype contradicts the extension
};
OutputName output_name(const std::string& outfile, int pictype, bool pictype_given, int frame, bool in_scene = false);

}  // namespace splotch
