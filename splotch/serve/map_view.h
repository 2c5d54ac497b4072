// A map shown in the page (issue 42): the map's values through a palette on the figure's scale
// (splotch/frame/map_figure.h: log from the 1st percentile above 0, or the range map_min/map_max
// give), without the figure's panel, so that the page lays its own numbers over it and reads the
// value under the cursor from the values themselves. The image is in the picture's orientation:
// its row 0 is the map's row 0 (a picture's +sky points down, a map's row 0 is at -sky), so that the
// page's orbit and pan work alike on both.
#pragma once

#include <optional>
#include <string>

#include "io/image.h"
#include "io/map_writer.h"
#include "io/palette.h"
#include "splotch/frame/map_figure.h"

namespace splotch {

struct MapView {
  Image8 image;
  FigureScale scale;
};

// Where the map's pixels lie, as the page reads it (X-Splotch-Map-Frame): the centre, the x and y
// axes and a pixel's side, in the snapshot's coordinates, ten numbers.
std::string map_frame_text(const MapFile& map);

// No value (an average where no particle reaches) is grey, as in the figure.
MapView map_view(const MapFile& map, const Palette& palette, bool log, std::optional<double> min,
                 std::optional<double> max);

}  // namespace splotch
