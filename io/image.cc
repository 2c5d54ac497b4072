#include "io/image.h"

#include <stdexcept>

namespace splotch {

Image8 to_8bit(const Image& image) {
  Image8 result(image.width, image.height);
  // rgb is a public member; a mismatch is a programming error, not something the user can fix.
  if (image.rgb.size() != result.rgb.size())
    throw std::invalid_argument("to_8bit: pixel buffer does not match the image size");
  // The same mapping as to_8bit(float), written without branches so that the loop vectorises
  // (NaN fails the first comparison and becomes 0, as there).
  const float* in = image.rgb.data();
  std::uint8_t* out = result.rgb.data();
  const std::size_t n = image.rgb.size();
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    float x = in[i] * 256.0f;
    x = x > 0.0f ? x : 0.0f;
    x = x < 255.0f ? x : 255.0f;
    out[i] = std::uint8_t(int(x));
  }
  return result;
}

}  // namespace splotch
