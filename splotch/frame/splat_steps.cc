#include "splotch/frame/splat_steps.h"

#include <utility>

#include "splotch/mpi/draw_order_split.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/sort.h"
#include "splotch/stages/tile_order.h"
#include "splotch/util/stopwatch.h"

namespace splotch {

SplatView OrderedSplats::view() const {
  SplatView v = view_of(splats);
  v.tile_start = tile_start.data();
  return v;
}

ColouredSplats colour_splats(ProjectedSplats&& projected, const Settings& s, const Palettes& palettes, bool split,
                             int tile_size, StageClock& clock) {
  ColouredSplats c;
  c.splats = std::move(projected.splats);
  // Screen space is ordered by image tile here, before the colour stage makes three arrays of
  // one (a split orders what it receives instead). Only the draw order needs depth; with a_eq_e
  // its memory serves as scratch space.
  ParticleArray<float> spare;
  if (s.render.a_eq_e) spare.swap(c.splats.depth);
  // sort_type 0, file order: the keys are the positions before the tiles reorder the splats.
  if (!s.render.a_eq_e && s.sort == SortOrder::none && !split) assign_draw_keys(c.splats, s.sort);
  if (split)
    c.per_type = splats_per_type(c.splats, s.input.ptypes);
  else
    c.tile_start = order_by_tile(c.splats, tile_size, s.camera.xres, s.camera.yres, spare);
  clock.done("geometry");

  colourize(c.splats, colour_options(s, palettes), std::move(spare));
  clock.done("colour");
  return c;
}

OrderedSplats order_splats(ColouredSplats&& coloured, const Settings& s, StageClock& clock) {
  OrderedSplats o{std::move(coloured.splats), std::move(coloured.tile_start), std::move(coloured.per_type)};
  if (!s.render.a_eq_e && o.splats.draw_key.empty()) assign_draw_keys(o.splats, s.sort);  // releases the depth array
  clock.done("sort");
  return o;
}

OrderedSplats exchange_draw_order(OrderedSplats&& ordered, const Settings& s, const Comm& comm, int tile_size,
                                  StageClock& clock, std::vector<std::pair<std::string, double>>& parts) {
  OrderedSplats o = std::move(ordered);
  const SplitTimes t = split_draw_order(o.splats, o.per_type, s.sort, comm);
  o.per_type.clear();
  Stopwatch tiles;
  o.tile_start = order_by_tile(o.splats, tile_size, s.camera.xres, s.camera.yres);
  parts = {{"ranges", t.ranges},
           {"packing", t.packing},
           {"passing", t.passing},
           {"unpacking", t.unpacking},
           {"tiles", tiles.seconds()}};
  clock.done("exchange");
  return o;
}

}  // namespace splotch
