// Which renderer draws a frame. renderer = host and renderer = cuda are the user's choice (cuda
// starts the GPU at once, so that a missing GPU is said before a long read). renderer = auto
// settles in two steps (splotch/render/renderer_cost.h): before the read, from the particle count
// of the headers, whether starting the GPU can pay (and if so starts it in the background); at the
// render, from the particles in view, whether it still pays. Where the GPU cannot be started,
// auto renders on the host with a warning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "params/param_file.h"
#include "splotch/frame/frame_options.h"
#include "splotch/frame/render_session.h"
#include "splotch/frame/stage_clock.h"
#include "splotch/frame/view_drawer.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/render/renderer_cost.h"
#include "splotch/settings/settings.h"
#include "splotch/util/console.h"

namespace splotch {

class Comm;

class RendererDecision {
 public:
  // Reads the key renderer; the GPU's start is the session's (made here for renderer = cuda).
  RendererDecision(ParamFile& params, const FrameOptions& frame, RenderSession& session);

  // OpenMP threads the frame has, the one the GPU's start borrows included.
  int threads() const;
  // The frame has `threads` OpenMP threads from now on (an MPI run's rank 0 drawing alone takes its
  // node's cores).
  void set_threads(int threads);
  // Whether this process draws, once an MPI run's share model has decided (FrameOptions::
  // share_by_model): its GPU's session, held until then, starts or never does.
  void release_gpu(bool draws);
  // For the settings: whether a GPU may be used (auto: assumed until the render shows otherwise),
  // and when not, why. renderer = cuda waits for the search for the device only where the
  // driver's list of GPUs cannot tell (the search took 0.03-0.4 s, before the read); what only
  // CUDA can tell is then the GPU's start's error, a UserError as this one's.
  bool gpu_possible(std::string* why);
  // The memory of this process's GPU, bytes (0: none, or not known). Before renderer = auto has
  // started it, asking loads the CUDA driver on the caller's thread (0.1 s or more).
  std::size_t gpu_memory();

  // renderer = auto before the read: the settings' choice and the particles the headers promise
  // (auto_before_read(), splotch/render/renderer_cost.h) decide whether the GPU starts. The count
  // is wanted only where auto may still start it (asking reads the headers).
  bool wants_particle_count(const Settings& s) const;
  void before_read(const Settings& s, std::optional<std::uint64_t> particles);
  // At the render, given the splats in view: renderer = auto weighs again, and the GPU's session
  // is waited for (stage gpu_start). What draws them.
  ViewDrawer at_render(std::size_t splats, Console& console, StageClock& clock);
  // For particles kept on the GPU, before their projection: what draws them, on the GPU's session,
  // waited for as at_render() does, when the GPU is chosen (renderer = cuda, or auto having
  // started it); none when the host is.
  std::optional<ViewDrawer> gpu_for_kept_particles(Console& console, StageClock& clock);
  // renderer = auto's reasons, for the report; empty when there is nothing to say (or when the
  // GPU it chose could not be started: a warning said so).
  std::string note(bool drew_on_gpu) const;

 private:
  RenderWork work(double particles) const;
  bool gpu_refused() const;  // no driver, or the run's first frame found the GPU would not pay
  // The GPU's session where the GPU draws (null: the host).
  CudaSession* wait_for_gpu(Console& console, StageClock& clock);

  std::string requested_;
  std::string origin_;  // of the key renderer, for renderer = cuda's errors
  std::optional<GpuStartup>& gpu_;
  RenderSession& session_of_run_;
  const FrameOptions& frame_;
  int threads_ = 1;
  const Settings* settings_ = nullptr;  // from before_read on
  RendererChoice choice_ = RendererChoice::host;
  std::string note_;
  bool note_says_gpu_ = false;
};

}  // namespace splotch
