#include "splotch/frame/image_combine.h"

#include <cmath>
#include <cstddef>
#include <string>

#include "io/particle_array.h"
#include "splotch/mpi/comm.h"

namespace splotch {
namespace {

class OneProcess : public ImageCombine {
 public:
  bool combine(Image&, RunReport&, StageClock&) override { return true; }
};

// What every combine of several processes does besides the pixels: the run's counts in the
// report, and a note when only some processes had a GPU.
class SeveralProcesses : public ImageCombine {
 public:
  explicit SeveralProcesses(const Comm& comm) : comm_(comm) {}
  bool combine(Image& image, RunReport& report, StageClock& clock) override {
    clock.untimed();  // the wait for the slowest process to finish drawing is not the reduce's
    combine_pixels(image);
    report.particles_active = comm_.sum(report.particles_active);
    const std::uint64_t on_gpu = comm_.sum(report.gpu ? 1 : 0);  // one GPU per process of a node
    if (on_gpu > 0 && on_gpu < std::uint64_t(comm_.size()))
      report.renderer += ", " + std::to_string(on_gpu) + " of " + std::to_string(comm_.size()) +
                         " processes on a GPU, the others on the host";
    clock.done("reduce");
    return comm_.root();  // rank 0 finishes the picture
  }

 protected:
  virtual void combine_pixels(Image& image) = 0;
  const Comm& comm_;
};

class SumOnRoot : public SeveralProcesses {
 public:
  using SeveralProcesses::SeveralProcesses;

 private:
  void combine_pixels(Image& image) override { comm_.sum_to_root(image.rgb.data(), image.rgb.size()); }
};

class LayersOnRoot : public SeveralProcesses {
 public:
  using SeveralProcesses::SeveralProcesses;
  bool splits_draw_order() const override { return true; }
  // The layer: C and its transmittance exp(-S), S the a_eq_e sum of the same splats.
  Image render(const DrawSplats& draw, const RenderOptions& options, int width, int height) override {
    Image image(width, height), transmittance(width, height);
    draw(options, image);
    RenderOptions sum = options;
    sum.a_eq_e = true;
    draw(sum, transmittance);
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    layers_.resize(6 * pixels);
#pragma omp parallel for schedule(static)
    for (std::size_t p = 0; p < pixels; ++p)
      for (std::size_t c = 0; c < 3; ++c) {
        layers_[6 * p + c] = image.rgb[3 * p + c];
        layers_[6 * p + 3 + c] = std::exp(-transmittance.rgb[3 * p + c]);
      }
    return image;
  }

 private:
  void combine_pixels(Image& image) override {
    const std::size_t pixels = image.rgb.size() / 3;
    comm_.composite_to_root(layers_.data(), pixels);
#pragma omp parallel for schedule(static)
    for (std::size_t p = 0; p < pixels; ++p)
      for (std::size_t c = 0; c < 3; ++c) image.rgb[3 * p + c] = layers_[6 * p + c];
  }
  ParticleArray<float> layers_;  // C and T of each pixel
};

}  // namespace

std::unique_ptr<ImageCombine> image_combine(const Comm* comm, bool a_eq_e) {
  if (!comm || comm->size() == 1) return std::make_unique<OneProcess>();
  if (a_eq_e) return std::make_unique<SumOnRoot>(*comm);
  return std::make_unique<LayersOnRoot>(*comm);
}

}  // namespace splotch
