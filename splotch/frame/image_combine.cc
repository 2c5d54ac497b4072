#include "splotch/frame/image_combine.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/particle_array.h"
#include "splotch/mpi/comm.h"

namespace splotch {
namespace {

class OneProcess : public ImageCombine {
 public:
  bool combine(Image&, RunReport&, StageClock&) override { return true; }
};

// What every combine of several processes does besides the pixels: the run's counts in the
// report, and which processes drew on which GPU.
class SeveralProcesses : public ImageCombine {
 public:
  explicit SeveralProcesses(const Comm& comm) : comm_(comm) {}
  bool combine(Image& image, RunReport& report, StageClock& clock) override {
    // The wait for the slowest process to finish drawing is not the reduce's: it is left out of
    // every stage (the run's total keeps it), so that the reduce's time is the reduction's alone.
    comm_.all(true);
    clock.untimed();
    combine_pixels(image);
    report.particles_active = comm_.sum(report.particles_active);
    report.processes = processes_used(report);
    clock.done("reduce");
    return comm_.root();  // rank 0 finishes the picture
  }

 protected:
  virtual void combine_pixels(Image& image) = 0;
  const Comm& comm_;

 private:
  // "4 processes on 4 GPUs": a launcher that put processes of a node on one GPU shows here
  // (one GPU per process by node-local rank; CUDA_VISIBLE_DEVICES set by hand or by the batch
  // system changes which). Processes on different nodes have different GPUs.
  std::string processes_used(const RunReport& report) const {
    std::uint64_t mine = 0;  // 0: drew on the host
    if (report.gpu)          // the node and the GPU's bus id (one binary: the same hash on every process)
      mine = std::hash<std::string>{}(std::to_string(comm_.node_id()) + "/" + report.gpu->bus_id) | 1;
    const std::vector<std::uint64_t> all = comm_.gather_all({mine});
    std::set<std::uint64_t> gpus(all.begin(), all.end());
    gpus.erase(0);
    const std::size_t on_gpu = std::size_t(std::count_if(all.begin(), all.end(), [](std::uint64_t g) { return g; }));
    const std::string processes = std::to_string(all.size()) + " processes";
    if (on_gpu == 0) return processes;
    const std::string used = std::to_string(gpus.size()) + (gpus.size() == 1 ? " GPU" : " GPUs");
    if (on_gpu < all.size())
      return std::to_string(on_gpu) + " of " + processes + " on a GPU (" + used + "), the others on the host";
    return processes + " on " + used;
  }
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
  // The picture is rank 0's once the layers are combined (combine_pixels): the image returned is
  // only its size.
  Image render_layer(const DrawLayer& draw, const RenderOptions& options, int width, int height) override {
    // All know of a process short of memory before `draw`'s collective steps.
    agreed(&comm_, "the layer of its range of the draw order",
           [&] { layers_.resize(6 * std::size_t(width) * std::size_t(height)); });
    draw(options, layers_.data());
    return Image(width, height);
  }

 private:
  void combine_pixels(Image& image) override {
    comm_.composite_to_root(layers_.data(), image.rgb.size() / 3, image.rgb.data());
  }
  ParticleArray<float> layers_;  // C and T of each pixel
};

}  // namespace

Image ImageCombine::render_layer(const DrawLayer&, const RenderOptions&, int, int) {
  throw std::logic_error("ImageCombine::render_layer where the processes do not split the draw order");
}

std::unique_ptr<ImageCombine> image_combine(const Comm* comm, bool a_eq_e) {
  if (!comm || comm->size() == 1) return std::make_unique<OneProcess>();
  if (a_eq_e) return std::make_unique<SumOnRoot>(*comm);
  return std::make_unique<LayersOnRoot>(*comm);
}

}  // namespace splotch
