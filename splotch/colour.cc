#include "splotch/colour.h"

namespace splotch {

void colourize(Splats& s, const std::vector<TypeColour>& types) {
  const std::size_t n = s.size();
  // Scalar types need green and blue arrays of their own from here on.
  for (int c = 1; c < 3; ++c)
    if (s.colour[c].empty()) s.colour[c].resize(n);
  float* e[3] = {s.colour[0].data(), s.colour[1].data(), s.colour[2].data()};
  const float* intensity = s.intensity.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const TypeColour& tc = types[std::size_t(s.type_of(i))];
    const float scale = intensity[i] * tc.brightness;
    if (tc.vector_colour) {
      for (int c = 0; c < 3; ++c) e[c][i] *= scale;
    } else {
      const Rgb rgb = tc.palette->at(e[0][i]);
      e[0][i] = rgb.r * scale;
      e[1][i] = rgb.g * scale;
      e[2][i] = rgb.b * scale;
    }
  }
  std::vector<float>().swap(s.intensity);
  std::vector<std::uint8_t>().swap(s.type);
}

}  // namespace splotch
