#include "splotch/frame/renderer_decision.h"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "errors/user_error.h"
#include "splotch/mpi/comm.h"

namespace splotch {

RendererDecision::RendererDecision(ParamFile& params, const FrameOptions& frame, RenderSession& session)
    : requested_(params.get<std::string>("renderer", "auto")),
      origin_(params.origin("renderer")),
      gpu_(session.gpu()),
      session_of_run_(session),
      frame_(frame) {
  // An MPI process whose rank 0 may draw the frame alone starts its GPU's session only once it
  // knows it draws (release_gpu).
  const bool may_not_draw = frame.share_by_model && frame.comm && frame.comm->size() > 1 && !frame.comm->root();
  if (requested_ == "cuda" && !gpu_) gpu_.emplace(frame.device, may_not_draw);
  threads_ = omp_get_max_threads() + (gpu_ ? gpu_->threads_borrowed() : 0);
}

int RendererDecision::threads() const { return threads_; }

void RendererDecision::set_threads(int threads) {
  threads_ = std::max(1, threads);
  if (gpu_)
    gpu_->set_caller_threads(threads_);
  else
    omp_set_num_threads(threads_);
}

void RendererDecision::release_gpu(bool draws) {
  if (gpu_) gpu_->release(draws);
}

bool RendererDecision::gpu_possible(std::string* why) {
  if (requested_ == "auto") return true;
  if (!gpu_) return false;
  if (gpu_->over()) return gpu_->device_present(why);  // (over: released, the search done)
  // The driver and its list of GPUs tell whether this process has one of its own (more processes
  // than GPUs), so the search for the device need not be waited for (a process that may not draw
  // has not even begun it); where the list cannot tell (MIG instances), the search says.
  bool known = false;
  const std::string missing = gpu_missing_by_list(frame_.device, &known);
  if (!missing.empty()) {
    if (why) *why = missing;
    return false;
  }
  return known || gpu_->held() || gpu_->device_present(why);
}

std::size_t RendererDecision::gpu_memory() {
  if (gpu_) return gpu_->device_memory();
  // renderer = auto before its start (before_read): the device asked here.
  std::size_t memory = 0;
  return gpu_driver_loaded() && cuda_device_present(nullptr, frame_.device, &memory) ? memory : 0;
}

RenderWork RendererDecision::work(double particles) const {
  RenderWork w;
  w.particles = particles;
  w.pixels = double(settings_->camera.xres) * double(settings_->camera.yres);
  w.a_eq_e = settings_->render.a_eq_e;
  w.threads = threads_;
  w.frames = frame_.frames;
  return w;
}

bool RendererDecision::gpu_refused() const { return !gpu_driver_loaded() || session_of_run_.gpu_declined(); }

bool RendererDecision::wants_particle_count(const Settings& s) const {
  return requested_ == "auto" && s.renderer == RendererChoice::cuda && !gpu_ &&
         auto_wants_particle_count(gpu_refused());
}

void RendererDecision::before_read(const Settings& s, std::optional<std::uint64_t> particles) {
  settings_ = &s;
  choice_ = s.renderer;
  if (requested_ != "auto" || choice_ != RendererChoice::cuda || gpu_) return;
  const AutoBeforeRead d = auto_before_read(gpu_refused(), particles, work(0));
  if (d.declined) session_of_run_.decline_gpu();
  note_ = d.note;
  choice_ = d.gpu ? RendererChoice::cuda : RendererChoice::host;
  if (d.gpu) gpu_.emplace(frame_.device);
}

ViewDrawer RendererDecision::at_render(std::size_t splats, Console& console, StageClock& clock) {
  // renderer = auto, the GPU started: with the particles in view known, whether it still pays
  // (the rest of its start against what it saves on this frame and the process's later ones).
  if (requested_ == "auto" && choice_ == RendererChoice::cuda) {
    const AutoAtRender d = auto_at_render(work(double(splats)), gpu_->over(), gpu_->seconds_since_start());
    if (!d.gpu) choice_ = RendererChoice::host;
    note_ = d.note;
    note_says_gpu_ = d.gpu;
  }
  return ViewDrawer(*settings_, wait_for_gpu(console, clock));
}

CudaSession* RendererDecision::wait_for_gpu(Console& console, StageClock& clock) {
  // (renderer = cuda without a device is an error: session() says why)
  if (choice_ == RendererChoice::cuda && requested_ == "auto" && !gpu_->device_present())
    choice_ = RendererChoice::host;
  if (choice_ != RendererChoice::cuda) return nullptr;
  // What of the GPU's start the CPU stages did not hide is a stage of its own.
  CudaSession* session = nullptr;
  try {
    session = gpu_->session();
  } catch (const std::runtime_error& e) {
    if (requested_ != "auto")
      throw UserError(origin_ + ": renderer = cuda, but the GPU could not be started (" + e.what() +
                      "); use renderer = host or auto");
    if (gpu_->first_failure())
      console.warning(std::string("the GPU could not be started (") + e.what() + "): rendering on the host");
    choice_ = RendererChoice::host;
  }
  clock.done("gpu_start");
  return session;
}

std::optional<ViewDrawer> RendererDecision::gpu_for_kept_particles(Console& console, StageClock& clock) {
  // renderer = auto that started the GPU: with the particles on it, a view costs it a fraction of
  // what the host's stages would (no weighing of the splats in view, which are not known yet),
  // and copying them up costs less than those stages.
  // gpu_chunk_particles bounds the GPU memory a render takes: nothing is kept there then.
  if (choice_ != RendererChoice::cuda || settings_->cuda.chunk_particles > 0) return std::nullopt;
  CudaSession* session = wait_for_gpu(console, clock);
  if (!session) return std::nullopt;
  if (requested_ == "auto") {
    note_ = "renderer = auto: the GPU, with the particles copied to it (geometry, colour and ordering there too)";
    note_says_gpu_ = true;
  }
  return ViewDrawer(*settings_, session);
}

std::string RendererDecision::note(bool drew_on_gpu) const {
  return note_says_gpu_ == drew_on_gpu ? note_ : std::string();
}

}  // namespace splotch
