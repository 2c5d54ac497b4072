#include "io/text_draw.h"

#include <stb/stb_truetype.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "errors/user_error.h"

namespace splotch {
namespace {

// UTF-8 to code points (a malformed byte stands for itself: Latin-1).
std::vector<int> code_points(const std::string& text) {
  std::vector<int> out;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0xc0 && c < 0xe0 && i + 1 < text.size()) {
      out.push_back(((c & 0x1f) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3f));
      i += 2;
    } else {
      out.push_back(c);
      i += 1;
    }
  }
  return out;
}

}  // namespace

std::string default_font_path() {
  const char* given = std::getenv("SPLOTCH_FONT");
  return given && *given ? given : "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

struct Font::Face {
  std::vector<unsigned char> bytes;
  stbtt_fontinfo info{};
  float scale(float height) const {
    int ascent = 0, descent = 0, gap = 0;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    return height / float(ascent - descent);
  }
  int ascent(float height) const {
    int ascent = 0, descent = 0, gap = 0;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    return int(std::lround(ascent * scale(height)));
  }
};

Font::Font(const std::string& path) : face_(std::make_unique<Face>()) {
  std::ifstream in(path, std::ios::binary);
  face_->bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (face_->bytes.empty() || stbtt_InitFont(&face_->info, face_->bytes.data(), 0) == 0)
    throw UserError("cannot read the font '" + path +
                    "' for the map's labels: install DejaVu (apt-get install fonts-dejavu-core), or name a .ttf "
                    "with SPLOTCH_FONT");
}

Font::~Font() = default;

int Font::width(const std::string& text, float height) const {
  const float scale = face_->scale(height);
  const std::vector<int> points = code_points(text);
  float x = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    int advance = 0, bearing = 0;
    stbtt_GetCodepointHMetrics(&face_->info, points[i], &advance, &bearing);
    x += advance * scale;
    if (i + 1 < points.size()) x += scale * stbtt_GetCodepointKernAdvance(&face_->info, points[i], points[i + 1]);
  }
  return int(std::ceil(x));
}

template <class Blend>
void Font::each_pixel(int width, int height, int x, int y, float size, const std::string& text, Blend&& blend) const {
  const float scale = face_->scale(size);
  const int baseline = y + face_->ascent(size);
  const std::vector<int> points = code_points(text);
  float pen = float(x);
  for (std::size_t i = 0; i < points.size(); ++i) {
    int w = 0, h = 0, dx = 0, dy = 0;
    unsigned char* glyph = stbtt_GetCodepointBitmap(&face_->info, scale, scale, points[i], &w, &h, &dx, &dy);
    const int left = int(std::lround(pen)) + dx, top = baseline + dy;
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) {
        const int px = left + c, py = top + r;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        blend(px, py, int(glyph[r * w + c]));
      }
    stbtt_FreeBitmap(glyph, nullptr);
    int advance = 0, bearing = 0;
    stbtt_GetCodepointHMetrics(&face_->info, points[i], &advance, &bearing);
    pen += advance * scale;
    if (i + 1 < points.size()) pen += scale * stbtt_GetCodepointKernAdvance(&face_->info, points[i], points[i + 1]);
  }
}

void Font::draw(Image8& image, int x, int y, float height, const std::string& text, const std::uint8_t rgb[3]) const {
  each_pixel(image.width, image.height, x, y, height, text, [&](int px, int py, int a) {
    std::uint8_t* p = image.pixel(px, py);
    for (int k = 0; k < 3; ++k) p[k] = std::uint8_t((p[k] * (255 - a) + rgb[k] * a + 127) / 255);
  });
}

void Font::draw(Image& image, int x, int y, float height, const std::string& text, const float rgb[3]) const {
  each_pixel(image.width, image.height, x, y, height, text, [&](int px, int py, int a) {
    float* p = image.pixel(px, py);
    const float cover = float(a) / 255.0f;
    for (int k = 0; k < 3; ++k) p[k] = p[k] * (1.0f - cover) + rgb[k] * cover;
  });
}

}  // namespace splotch
