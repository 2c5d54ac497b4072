// The last steps of a frame: its image made a picture (exposure, post-processing, the check for
// a picture that is probably wrong, the colour bars) and written with its record, used.par.
#pragma once

#include <string>
#include <vector>

#include "io/image.h"
#include "params/param_file.h"
#include "splotch/frame/frame_plan.h"
#include "splotch/stages/normalize.h"
#include "splotch/util/console.h"

namespace splotch {

// Exposure (with a_eq_e, on the sums; exposure = auto is written to used.par), post-processing
// and the colour bars. `particles_in_view`: whether the picture can show anything (it warns if
// not, and checks the picture's levels if so). Returns the exposure factor applied (1 for none).
// `ranges`: the frame's colour and intensity ranges, which may explain a black picture.
double finish_picture(Image& image, const Settings& s, const Palettes& palettes, bool particles_in_view,
                      const NormalizedRanges& ranges, ParamFile& params, std::vector<std::string>& notes,
                      Console& console);

// The original's show_palette.par (no snapshot): the palettes as bands.
Image palette_bands(const Settings& s, const Palettes& palettes);

// The record of a picture: used.par's text, the data ranges as comments.
std::string used_par_text(const ParamFile& params, const NormalizedRanges& ranges);

// The image file and its record, used.par, with the data ranges as comments.
void write_picture(const ParamFile& params, const Settings& s, const Image& image, const NormalizedRanges& ranges);

}  // namespace splotch
