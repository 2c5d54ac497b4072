// The steps between the particles and the renderer, each taking the splats in one phase and
// giving them in the next: projected (screen space, with depth) -> coloured (in image-tile order,
// or counted per type when the processes split the draw order) -> ordered (draw keys given; after
// a split, each process's range of the draw order, in image-tile order). The types say which
// phase the data is in, so that a step cannot be skipped or run twice.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "splotch/frame/frame_plan.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/splat/splat_view.h"
#include "splotch/stages/splats.h"

namespace splotch {

class Comm;

struct ProjectedSplats {
  Splats splats;
};

struct ColouredSplats {
  Splats splats;
  std::vector<std::size_t> tile_start;  // where each image tile's splats begin (not for a split)
  std::vector<std::size_t> per_type;    // a split: the splats of each type, which lie type after type
};

struct OrderedSplats {
  Splats splats;
  std::vector<std::size_t> tile_start;
  std::vector<std::size_t> per_type;  // a split not yet exchanged (exchange_draw_order)
  SplatView view() const;             // what the renderers take
};

// Stages geometry (the ordering by image tile, `tile_size` pixels) and colour. `split`: the
// processes will split the draw order, so the splats are counted per type instead of ordered.
ColouredSplats colour_splats(ProjectedSplats&& projected, const Settings& s, const Palettes& palettes, bool split,
                             int tile_size, StageClock& clock);

// Stage sort: the draw keys (a_eq_e = FALSE; with a_eq_e nothing needs ordering).
OrderedSplats order_splats(ColouredSplats&& coloured, const Settings& s, StageClock& clock);

// Stage exchange, for a split: every process gets one range of the draw order
// (splotch/mpi/draw_order_split.h), ordered by image tile; its parts' times go to `parts`.
OrderedSplats exchange_draw_order(OrderedSplats&& ordered, const Settings& s, const Comm& comm, int tile_size,
                                  StageClock& clock, std::vector<std::pair<std::string, double>>& parts);

}  // namespace splotch
