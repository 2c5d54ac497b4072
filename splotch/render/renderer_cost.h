// renderer = auto: the host or the GPU, whichever a cost model says finishes the run first.
//
// The GPU renders a frame of 1e8 particles 10 to 20 times faster than 16 host cores, but using it
// at all costs a fixed time: the driver's and context's start (0.25 s, partly hidden behind the
// read and the CPU stages, which it slows meanwhile) and the context's tear-down at exit (0.12 s).
// So a single frame of 1e7 particles finishes sooner on the host, a 1e8 one on the GPU, and a
// scene of many frames pays the fixed time once. The model is linear in the particles and pixels
// of a frame; its constants were fitted to `RENDERERS="host cuda" tests/bench/bench.sh` on the H100
// node (16 cores) for 1e6, 1e7 and 1e8 particles at 800^2 and 2048^2 (docs/performance.md,
// "renderer = auto"), host times per thread so that they scale with the cores a run has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace splotch {

// One frame's work, and how many frames of the run will share the GPU's start.
struct RenderWork {
  double particles = 0;  // to draw (in view, or an upper bound before the read)
  double pixels = 0;
  bool a_eq_e = true;
  int threads = 1;  // the host's OpenMP threads
  int frames = 1;   // frames this process will render, this one included
};

struct RendererCosts {
  // Host render stage, seconds on one thread (a_eq_e, then not): per particle, per pixel, and per
  // pixel times the cube root of the particles, for the pixels the splats cover: smoothing lengths
  // shrink as N^(-1/3) at a given mass resolution (the benchmark's do), so N particles cover about
  // N^(1/3) times the image.
  double host_particle[2] = {1.28e-7, 2.8e-7};
  double host_pixel[2] = {2.7e-8, 3.2e-8};
  double host_covered[2] = {9e-10, 1.6e-9};
  // GPU render stage (upload, kernels, image back), per particle, per pixel, per frame.
  double gpu_particle[2] = {7.7e-10, 1.45e-9};
  double gpu_pixel[2] = {6e-9, 5e-9};
  double gpu_frame[2] = {0.012, 0.016};  // more than a single frame's render stage: a scene's frames took that
  // Using the GPU in a run: the part that nothing hides (the tear-down at exit, the CPU stages'
  // slow-down while the driver starts), and the start-up's further part that the CPU stages
  // before the render hide when they take that long.
  double gpu_fixed = 0.22;
  double gpu_start_hideable = 0.13;
  // The whole start (driver, context, pinned buffers) when nothing else runs: what is left of it
  // at the render stage is this less the time since it began.
  double gpu_start = 0.25;
  // The CPU stages before the render (read from the page cache, normalise, geometry, colour),
  // seconds on one thread per particle: what hides the start.
  double cpu_stages_particle = 6e-8;
};

struct RendererEstimate {
  bool gpu = false;
  double host_seconds = 0, gpu_seconds = 0;  // the whole run's render work on each, as modelled
};

// Before reading: whether to start the GPU at all. `work.particles` is all that will be read.
RendererEstimate choose_before_read(const RenderWork& work, const RendererCosts& costs = {});
// At the render stage, the GPU started: `start_left` seconds of its start still to wait (0 when it
// is ready); its tear-down is paid by now whatever the choice.
RendererEstimate choose_at_render(const RenderWork& work, double start_left, const RendererCosts& costs = {});

// The report's line: "renderer = auto: the host (model: 0.15 s on the host, 0.36 s on the GPU with its
// start, for ...)".
std::string describe_choice(const RendererEstimate& e, const RenderWork& work, bool before_read);

// renderer = auto's two steps as values in, values out (splotch/frame/renderer_decision.h holds
// the GPU's start and draws). Before the read, where the settings allow a GPU: `refused` where
// none will be used in this run (no driver loaded, or a scene's first frame found it would not
// pay), else the particles the headers promise (none: not known, which starts the GPU; the render
// weighs again).
struct AutoBeforeRead {
  bool gpu = false;       // start the GPU in the background
  bool declined = false;  // the model found it would not pay: the run's later frames not asked again
  std::string note;       // the report's line where the model chose the host
};
// Whether auto_before_read() wants the particle count (asking reads the headers).
bool auto_wants_particle_count(bool refused);
AutoBeforeRead auto_before_read(bool refused, std::optional<std::uint64_t> particles, RenderWork work,
                                const RendererCosts& costs = {});
// At the render, the GPU started `since_start` seconds ago (its start over: `started` true):
// whether it still pays for `work` (the splats in view), and the report's line.
struct AutoAtRender {
  bool gpu = false;
  std::string note;
};
AutoAtRender auto_at_render(const RenderWork& work, bool started, double since_start, const RendererCosts& costs = {});

}  // namespace splotch
