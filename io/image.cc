#include "io/image.h"

#include <stdexcept>

namespace splotch {

Image8 to_8bit(const Image& image) {
  Image8 result(image.width, image.height);
  // rgb is a public member; a mismatch is a programming error, not something the user can fix.
  if (image.rgb.size() != result.rgb.size())
    throw std::invalid_argument("to_8bit: pixel buffer does not match the image size");
  for (std::size_t i = 0; i < image.rgb.size(); ++i) result.rgb[i] = to_8bit(image.rgb[i]);
  return result;
}

}  // namespace splotch
