#include "splotch/frame/colour_bar_labels.h"

#include <algorithm>
#include <cmath>

#include "io/text_draw.h"
#include "splotch/frame/map_figure.h"

namespace splotch {

std::vector<BarTick> bar_ticks(const LabelledBar& bar) {
  std::vector<BarTick> out;
  if (!(bar.hi > bar.lo) || !std::isfinite(bar.lo) || !std::isfinite(bar.hi)) return out;
  // A log scale's ends as values (10^lo to 10^hi) where a double holds them, else its exponents.
  const bool decades = bar.log && bar.lo > -300 && bar.hi < 300;
  FigureScale scale;
  scale.log = decades;
  scale.lo = decades ? std::pow(10.0, bar.lo) : bar.lo;
  scale.hi = decades ? std::pow(10.0, bar.hi) : bar.hi;
  for (double t : colour_bar_ticks(scale)) {
    const double at = tick_position(scale, t);
    if (at >= -1e-9 && at <= 1 + 1e-9) out.push_back({t, std::clamp(at, 0.0, 1.0)});
  }
  return out;
}

void draw_labelled_colour_bars(Image& image, const std::vector<LabelledBar>& bars) {
  if (bars.empty() || image.width < 1) return;
  const Font font(default_font_path());
  const int band = 10, text = std::clamp(image.height / 50, 9, 24), block = band + text + 4;
  const float white[3] = {1.0f, 1.0f, 1.0f};
  for (std::size_t b = 0; b < bars.size(); ++b) {
    const LabelledBar& bar = bars[b];
    const int bottom = image.height - 1 - int(b) * block;  // the band's lowest row
    const int band_top = bottom - band + 1, text_top = band_top - text - 4;
    if (text_top < 0) return;
    for (int y = text_top; y <= bottom; ++y)
      for (int x = 0; x < image.width; ++x) {
        float* p = image.pixel(x, y);
        if (y >= band_top) {
          const Rgb c = bar.palette->at(float(x) / float(image.width));
          p[0] = c.r, p[1] = c.g, p[2] = c.b;
        } else {
          p[0] = p[1] = p[2] = 0.0f;  // the text's row: black, so that white text reads on any picture
        }
      }
    const std::string name = bar.asinh                                     ? "asinh(" + bar.name + ")"
                             : bar.log && !(bar.lo > -300 && bar.hi < 300) ? "log10(" + bar.name + ")"
                                                                           : bar.name;
    font.draw(image, 2, text_top + 1, float(text), name, white);
    int free_from = 2 + font.width(name, float(text)) + text;  // labels right of the name only
    for (const BarTick& t : bar_ticks(bar)) {
      const int x = int(std::lround(t.position * (image.width - 1)));
      const std::string label = tick_text(t.value);
      const int w = font.width(label, float(text));
      const int left = std::clamp(x - w / 2, 0, std::max(0, image.width - w));
      for (int y = band_top - 3; y < band_top; ++y) {  // the tick: 3 rows over the band
        float* p = image.pixel(x, y);
        p[0] = p[1] = p[2] = 1.0f;
      }
      if (left < free_from) continue;  // it would cover the name or the label before it
      font.draw(image, left, text_top + 1, float(text), label, white);
      free_from = left + w + text / 2;
    }
  }
}

}  // namespace splotch
