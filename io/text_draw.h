// Text on 8-bit images, for a map's figure (docs/maps.md, "Outputs"): a TrueType font (Debian's
// fonts-dejavu-core, DejaVu Sans) rasterised by stb_truetype (libstb-dev), each glyph blended
// over the image by its coverage. ASCII and Latin-1 text (UTF-8 decoded).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/image.h"

namespace splotch {

// DejaVu Sans where Debian installs it; SPLOTCH_FONT names another .ttf.
std::string default_font_path();

class Font {
 public:
  // Throws UserError where the file cannot be read or is no TrueType font (and says which package
  // has DejaVu).
  explicit Font(const std::string& path);
  ~Font();
  Font(const Font&) = delete;
  Font& operator=(const Font&) = delete;

  // The text's width in pixels at `height` (the font's ascent to descent).
  int width(const std::string& text, float height) const;
  // Draws `text` with its top-left corner at (x, y); outside the image it is cut.
  void draw(Image8& image, int x, int y, float height, const std::string& text, const std::uint8_t rgb[3]) const;
  // The same on a picture before its conversion to 8 bits (values 0 to 1).
  void draw(Image& image, int x, int y, float height, const std::string& text, const float rgb[3]) const;

 private:
  // Calls blend(px, py, coverage 0..255) for each pixel of the text's glyphs within width x height.
  template <class Blend>
  void each_pixel(int width, int height, int x, int y, float size, const std::string& text, Blend&& blend) const;
  struct Face;
  std::unique_ptr<Face> face_;
};

}  // namespace splotch
