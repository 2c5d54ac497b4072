// renderer = auto's cost model (splotch/render/renderer_cost.h) against what the H100 node measured.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "splotch/render/renderer_cost.h"

using namespace splotch;

namespace {

RenderWork work(double particles, int resolution, bool a_eq_e, int threads = 16, int frames = 1) {
  RenderWork w;
  w.particles = particles;
  w.pixels = double(resolution) * resolution;
  w.a_eq_e = a_eq_e;
  w.threads = threads;
  w.frames = frames;
  return w;
}

// `RUNS=3 SIZES="1e6 1e7 1e8" RESOLUTIONS="800 2048" RENDERERS="host cuda" tests/bench/bench.sh` on the
// H100 node, 16 threads (medians): the wall time of the whole process with each renderer.
struct Measured {
  double particles;
  int resolution;
  bool a_eq_e;
  double host_wall, gpu_wall;
};
const Measured h100[] = {
    {1e6, 800, true, 0.037, 0.385},   {1e6, 800, false, 0.042, 0.374},  {1e6, 2048, true, 0.087, 0.401},
    {1e6, 2048, false, 0.110, 0.412}, {1e7, 800, true, 0.146, 0.442},   {1e7, 800, false, 0.229, 0.399},
    {1e7, 2048, true, 0.222, 0.446},  {1e7, 2048, false, 0.322, 0.426}, {1e8, 800, true, 1.227, 0.729},
    {1e8, 800, false, 2.327, 0.965},  {1e8, 2048, true, 1.399, 0.852},  {1e8, 2048, false, 2.598, 1.022},
};

}  // namespace

TEST_CASE(
    "renderer = auto: the model picks the renderer that finished first on the H100 node, by about the margin "
    "measured") {
  for (const Measured& m : h100) {
    CAPTURE(m.particles);
    CAPTURE(m.resolution);
    CAPTURE(m.a_eq_e);
    const RendererEstimate e = choose_before_read(work(m.particles, m.resolution, m.a_eq_e));
    CHECK(e.gpu == (m.gpu_wall < m.host_wall));
    // The other stages are the same on both, so the modelled difference is the measured one.
    const double measured = m.gpu_wall - m.host_wall, modelled = e.gpu_seconds - e.host_seconds;
    CHECK(std::abs(modelled - measured) <= std::max(0.06, 0.15 * std::abs(measured)));
  }
}

TEST_CASE("renderer = auto: a 20-frame orbit at 2048^2 on the H100 node, on the renderer that finished first") {
  // RUNS=3 SIZES="1e6 1e7 1e8" RES=2048 FRAMES=20 tests/bench/bench_auto.sh: host against cuda, seconds.
  struct Scene {
    double particles, host_wall, gpu_wall;
  } scenes[] = {{1e6, 1.572, 1.860}, {1e7, 6.019, 3.046}, {1e8, 37.428, 15.357}};
  for (const Scene& m : scenes) {
    CAPTURE(m.particles);
    CHECK(choose_before_read(work(m.particles, 2048, true, 16, 20)).gpu == (m.gpu_wall < m.host_wall));
  }
}

TEST_CASE("renderer = auto: the issue's case, frames, cores and the particles in view") {
  // One frame of 1e7 at 2048^2 on 16 cores: the host (0.27 s against 0.50 s with the GPU).
  CHECK_FALSE(choose_before_read(work(1e7, 2048, true)).gpu);
  // A scene of 20 such frames pays the start once: the GPU.
  CHECK(choose_before_read(work(1e7, 2048, true, 16, 20)).gpu);
  // A 20-frame scene of 1e6 at 800^2 saves too little per frame to pay it.
  CHECK_FALSE(choose_before_read(work(1e6, 800, true, 16, 20)).gpu);
  // The same frame of 1e7 with 2 host cores: the GPU.
  CHECK(choose_before_read(work(1e7, 2048, true, 2)).gpu);
  // More frames never turn the GPU into the host.
  for (double n : {1e5, 1e6, 3e6, 1e7, 3e7, 1e8})
    for (int frames = 1; frames < 200; ++frames)
      if (choose_before_read(work(n, 2048, false, 16, frames)).gpu) {
        CHECK(choose_before_read(work(n, 2048, false, 16, frames + 1)).gpu);
      }
  // At the render stage, the GPU started: its tear-down is paid, so only the rest of its start
  // weighs. Ready, it renders 1e7 in view faster than 16 cores; with its whole start to wait, not.
  CHECK(choose_at_render(work(1e7, 2048, true), 0.0).gpu);
  CHECK_FALSE(choose_at_render(work(1e7, 2048, true), 0.25).gpu);
  // A file of 1e8 read from the page cache, 1e5 of them in view, the GPU's start 0.1 s from over:
  // the host (before the read, all 1e8 might have been in view: the GPU was started).
  CHECK(choose_before_read(work(1e8, 800, true)).gpu);
  CHECK_FALSE(choose_at_render(work(1e5, 800, true), 0.1).gpu);
}

TEST_CASE("renderer = auto: the report says what was chosen and from what") {
  const RenderWork w = work(1e7, 2048, true);
  const std::string text = describe_choice(choose_before_read(w), w, true);
  CHECK(text.find("renderer = auto: the host") == 0);
  CHECK(text.find("1e+07 particles to read") != std::string::npos);
  CHECK(text.find("16 threads, 1 frame") != std::string::npos);
  CHECK(text.find("on the GPU with its start") != std::string::npos);
}

TEST_CASE("renderer = auto's two steps from values: before the read and at the render") {
  // Refused (no driver, or a scene's first frame declined it): the host, and no count is asked.
  CHECK(!auto_wants_particle_count(true));
  CHECK(auto_wants_particle_count(false));
  const AutoBeforeRead refused = auto_before_read(true, std::uint64_t(1e8), work(0, 2048, true));
  CHECK(!refused.gpu);
  CHECK(!refused.declined);
  CHECK(refused.note.empty());
  // A count not known (headers that do not say): the GPU starts, the render weighs again.
  const AutoBeforeRead unknown = auto_before_read(false, std::nullopt, work(0, 2048, true));
  CHECK(unknown.gpu);
  CHECK(!unknown.declined);
  // 1e8 particles at 2048^2 on 16 threads: the GPU; 1e6 at 800^2: the host, declined for the run's
  // later frames, with the model's figures in the note.
  CHECK(auto_before_read(false, std::uint64_t(1e8), work(0, 2048, true)).gpu);
  const AutoBeforeRead small = auto_before_read(false, std::uint64_t(1e6), work(0, 800, true));
  CHECK(!small.gpu);
  CHECK(small.declined);
  CHECK(small.note.find("renderer = auto: the host") == 0);
  CHECK(small.note.find("1e+06 particles to read") != std::string::npos);
  // At the render, 1e7 splats in view at 2048^2 (0.14 s on the host, 0.05 s on the GPU): the
  // GPU once started, the host while its whole start (0.25 s) is still to wait.
  const AutoAtRender ready = auto_at_render(work(1e7, 2048, true), true, 0.0);
  CHECK(ready.gpu);
  CHECK(ready.note.find("renderer = auto: the GPU") == 0);
  CHECK(!auto_at_render(work(1e7, 2048, true), false, 0.0).gpu);
  CHECK(auto_at_render(work(1e7, 2048, true), false, 0.2).gpu);  // 0.05 s of the start left
}
