#include "splotch/frame/picture.h"

#include <sstream>

#include "io/image_writer.h"
#include "io/text_file.h"
#include "params/number_text.h"
#include "splotch/frame/colour_bar_labels.h"
#include "splotch/stages/exposure.h"
#include "splotch/stages/postprocess.h"

namespace splotch {

namespace {

// The bars of colorbar = labels: one per type with a palette, in the order of the plain bars.
std::vector<LabelledBar> labelled_bars(const Settings& s, const Palettes& palettes, const NormalizedRanges& ranges,
                                       const ParamFile& params) {
  std::vector<LabelledBar> out;
  for (std::size_t t = 0; t < s.types.size() && t < palettes.size(); ++t) {
    if (!palettes[t]) continue;
    LabelledBar b;
    b.palette = palettes[t].get();
    const std::string label = params.peek("color_label" + std::to_string(t));
    b.name = "type " + std::to_string(t) + ": " + (label.empty() ? "colour" : label);
    if (t < ranges.used.size() && !ranges.used[t].colour.empty()) {
      b.lo = ranges.used[t].colour.min;
      b.hi = ranges.used[t].colour.max;
    }
    b.log = s.types[t].normalization.color_log;
    b.asinh = s.types[t].normalization.color_asinh;
    out.push_back(b);
  }
  return out;
}

}  // namespace

double finish_picture(Image& image, const Settings& s, const Palettes& palettes, bool particles_in_view,
                      const NormalizedRanges& ranges, ParamFile& params, std::vector<std::string>& notes,
                      Console& console) {
  if (!particles_in_view) console.warning("no particle is in view: the image will be black (check the camera)");
  double suggested = 0, factor = 1.0;
  if (s.render.a_eq_e) {
    factor = s.exposure.mode == Exposure::Mode::factor ? s.exposure.factor : 1.0;
    const bool auto_exposure = s.exposure.mode == Exposure::Mode::automatic;
    const double relative = automatic_exposure(image, auto_exposure ? 1 : sample_stride(image));
    if (auto_exposure && relative > 0) {
      factor = double(float(relative));  // a float, so that its 9 digits in used.par give it back exactly
      params.resolve("exposure", number_text(factor), "auto: the 99.5th percentile of the lit pixels at 0.9");
      notes.push_back(std::string("exposure = auto") +
                      (s.exposure.by_default ? " (neither exposure nor a brightnessN is given)" : "") +
                      ": every brightness times " + number_text(factor) + " (written to used.par)" +
                      (!s.exposure.brightness_given ? ""
                       : s.types.size() == 1
                           ? "; it scales the whole picture, so brightness0 changes nothing here: give exposure a "
                             "number to set how bright"
                           : "; it scales the whole picture: the brightnessN weigh the types against one another"));
    } else if (!auto_exposure) {
      suggested = relative;  // (measured before the scaling: an exposure, not a factor on the one given)
    }
    if (factor != 1.0) scale(image, factor);
  }
  // The picture is checked before its colour bars.
  PostOptions post = post_options(s, palettes);
  const std::vector<const Palette*> bars = std::move(post.colour_bars);
  post.colour_bars.clear();
  postprocess(image, post);
  if (particles_in_view) {
    const std::string warning = level_warning(measure_levels(image), suggested, s.render.a_eq_e,
                                              s.render.gray_absorption, values_below_range(ranges));
    if (!warning.empty()) console.warning(warning);
  }
  if (s.output.colour_bar_labels)
    draw_labelled_colour_bars(image, labelled_bars(s, palettes, ranges, params));
  else
    draw_colour_bars(image, bars);
  return factor;
}

Image palette_bands(const Settings& s, const Palettes& palettes) {
  Image image(s.camera.xres, s.camera.yres);
  std::vector<const Palette*> bands;
  for (const auto& palette : palettes)
    if (palette) bands.push_back(palette.get());
  draw_palette_bands(image, bands);
  return image;
}

void write_picture(const ParamFile& params, const Settings& s, const Image& image, const NormalizedRanges& ranges) {
  write_image(s.output.path, to_8bit(image), s.output.format, s.output.jpeg_quality);
  write_text_file(s.output.path + ".used.par", used_par_text(params, ranges));
}

std::string used_par_text(const ParamFile& params, const NormalizedRanges& ranges) {
  std::ostringstream used;
  params.write_used(used);
  if (!ranges.data.empty()) used << range_comments(ranges);
  return used.str();
}

}  // namespace splotch
