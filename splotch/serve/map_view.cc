#include "splotch/serve/map_view.h"

#include <cmath>

#include "splotch/serve/json_text.h"

namespace splotch {

std::string map_frame_text(const MapFile& map) {
  std::string out;
  for (const double* v : {map.centre, map.x_axis, map.y_axis})
    for (int a = 0; a < 3; ++a) out += json_number(v[a]) + " ";
  return out + json_number(map.pixel_code);
}

MapView map_view(const MapFile& map, const Palette& palette, bool log, std::optional<double> min,
                 std::optional<double> max) {
  MapView out{Image8(map.xres, map.yres), figure_scale(map.values, log, min.value_or(NAN), max.value_or(NAN))};
  const FigureScale& s = out.scale;
  const double a = s.log ? std::log10(s.lo) : s.lo, b = s.log ? std::log10(s.hi) : s.hi;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < map.yres; ++y)
    for (int x = 0; x < map.xres; ++x) {
      const float v = map.values[std::size_t(y) * std::size_t(map.xres) + std::size_t(x)];
      std::uint8_t* p = out.image.pixel(x, y);
      if (!(v == v)) {
        p[0] = p[1] = p[2] = 96;
        continue;
      }
      const double t = s.log && !(v > 0) ? 0.0 : ((s.log ? std::log10(double(v)) : double(v)) - a) / (b - a);
      const Rgb c = palette.at(float(t));
      p[0] = to_8bit(c.r), p[1] = to_8bit(c.g), p[2] = to_8bit(c.b);
    }
  return out;
}

}  // namespace splotch
