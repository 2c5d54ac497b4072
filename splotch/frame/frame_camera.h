// The camera a frame projects with: the one its parameters give, or, when they give none, one
// placed from the bounding box of the particles (of all processes), written into used.par (so
// that the record shows the same view even of other data) and into the report.
#pragma once

#include <string>
#include <vector>

#include "params/param_file.h"
#include "splotch/frame/particle_source.h"
#include "splotch/settings/settings.h"

namespace splotch {

Camera frame_camera(const Settings& s, const ParticleSource& source, ParamFile& params,
                    std::vector<std::string>& notes);

}  // namespace splotch
