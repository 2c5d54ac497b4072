#include "splotch/stages/dome_projection.h"

namespace splotch {

void black_outside_dome(Image& image) {
  const double half = 0.5 * image.width;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < image.height; ++y) {
    const double dy = y - half;
    for (int x = 0; x < image.width; ++x) {
      const double dx = x - half;
      if (dx * dx + dy * dy <= half * half) continue;
      float* pixel = image.pixel(x, y);
      pixel[0] = pixel[1] = pixel[2] = 0.0f;
    }
  }
}

}  // namespace splotch
