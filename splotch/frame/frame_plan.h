// A frame's plan: the parameter file resolved once, before any particle is read, into the options
// of every step. Nothing in it changes while the frame runs: what the run learns on the way (the
// renderer that renderer = auto settles on, a camera placed from the data) travels in the steps'
// own results.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/palette.h"
#include "io/read_region.h"
#include "params/param_file.h"
#include "splotch/frame/frame_options.h"
#include "splotch/settings/settings.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/postprocess.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;
class RendererDecision;

struct FramePlan {
  Settings settings;
  std::vector<TypeNormalization> normalization;  // per type, as the load takes them
  std::string input_keys;  // the keys that chose the snapshot (its signature in a cache and on the GPU)
  bool memory_check = true;
  // The part of space the frame's picture needs, read alone where the snapshot says where its
  // particles lie (read_region; a given camera's one view of an HDF5 snapshot, one process).
  std::optional<ReadRegion> region;
};

// Reads and checks every key (all processes of an MPI run agreeing on a failure), and gives the
// settings' warnings to `console` and their notes to `notes`.
FramePlan plan_frame(ParamFile& params, const FrameOptions& frame, RendererDecision& renderer, const Comm* comm,
                     Console& console, std::vector<std::string>& notes);

// One palette per scalar-colour type (null for vector types), read before the snapshot so that a
// bad palette fails before a long read.
using Palettes = std::vector<std::unique_ptr<Palette>>;
Palettes read_palettes(const Settings& s);

// The options of the stages, from the plan (and the camera the frame uses).
GeometryOptions geometry_options(const Settings& s, const Camera& camera);
std::vector<TypeColour> colour_options(const Settings& s, const Palettes& palettes);
PostOptions post_options(const Settings& s, const Palettes& palettes);

}  // namespace splotch
