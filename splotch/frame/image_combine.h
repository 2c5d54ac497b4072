// How the images of a frame's processes become its picture (docs/design.md section 6), behind one
// interface: one process keeps its image; with a_eq_e the processes' images are summed on rank 0;
// with a_eq_e = FALSE each process draws one range of the draw order as a layer (its colour over
// black and its transmittance), and rank 0 composites the layers in process order.
#pragma once

#include <functional>
#include <memory>

#include "io/image.h"
#include "splotch/frame/run_report.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/splat/splat_view.h"

namespace splotch {

class Comm;

// Draws this process's splats into an image with the options given (added, or composited over
// what it holds).
using DrawSplats = std::function<void(const RenderOptions& options, Image& image)>;
// Draws this process's range of the draw order as a layer of the image's pixels (a_eq_e = FALSE's
// `options`): six floats a pixel, its colour over black and its transmittance
// (cuda/device_particles.h: draw_split()).
using DrawLayer = std::function<void(const RenderOptions& options, float* layer)>;

class ImageCombine {
 public:
  virtual ~ImageCombine() = default;
  // Whether the processes split the draw order (each draws one range of it).
  virtual bool splits_draw_order() const { return false; }
  // This process's image of `width` x `height` pixels, drawn by `draw` with `options`.
  virtual Image render(const DrawSplats& draw, const RenderOptions& options, int width, int height) {
    Image image(width, height);
    draw(options, image);
    return image;
  }
  // The same where the processes split the draw order and `draw` gives the whole layer at once
  // (the GPUs' split, splotch/frame/gpu_split.h).
  virtual Image render_layer(const DrawLayer& draw, const RenderOptions& options, int width, int height);
  // This process's image combined with the others' (stage reduce; the report's counts made the
  // run's): true on the process that holds the frame's picture now, false on the others.
  virtual bool combine(Image& image, RunReport& report, StageClock& clock) = 0;
};

// For the processes of `comm` (null or one process: none to combine), drawing with `a_eq_e`.
std::unique_ptr<ImageCombine> image_combine(const Comm* comm, bool a_eq_e);

}  // namespace splotch
