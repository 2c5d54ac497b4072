#include "splotch/frame/renderer_decision.h"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "errors/user_error.h"
#include "splotch/frame/gpu_split.h"
#include "splotch/mpi/comm.h"
#include "splotch/render/gpu_particles.h"
#include "splotch/render/gpu_render.h"
#include "splotch/render/host_renderer.h"

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

void RendererDecision::at_render(std::size_t splats, Console& console, StageClock& clock) {
  // renderer = auto, the GPU started: with the particles in view known, whether it still pays
  // (the rest of its start against what it saves on this frame and the process's later ones).
  if (requested_ == "auto" && choice_ == RendererChoice::cuda) {
    const AutoAtRender d = auto_at_render(work(double(splats)), gpu_->over(), gpu_->seconds_since_start());
    if (!d.gpu) choice_ = RendererChoice::host;
    note_ = d.note;
    note_says_gpu_ = d.gpu;
  }
  wait_for_gpu(console, clock);
}

void RendererDecision::wait_for_gpu(Console& console, StageClock& clock) {
  // (renderer = cuda without a device is an error: session() says why)
  if (choice_ == RendererChoice::cuda && requested_ == "auto" && !gpu_->device_present())
    choice_ = RendererChoice::host;
  if (choice_ != RendererChoice::cuda) return;
  // What of the GPU's start the CPU stages did not hide is a stage of its own.
  try {
    session_ = gpu_->session();
  } catch (const std::runtime_error& e) {
    if (requested_ != "auto")
      throw UserError(origin_ + ": renderer = cuda, but the GPU could not be started (" + e.what() +
                      "); use renderer = host or auto");
    if (gpu_->first_failure())
      console.warning(std::string("the GPU could not be started (") + e.what() + "): rendering on the host");
    choice_ = RendererChoice::host;
  }
  clock.done("gpu_start");
}

CudaOptions RendererDecision::cuda_options(const RenderOptions& options) const {
  CudaOptions cuda = settings_->cuda;
  cuda.host = options;
  return cuda;
}

void RendererDecision::report_gpu(const CudaOptions& cuda, const CudaReport& gpu, RunReport& report,
                                  Console& console) const {
  report.gpu = gpu;
  if (session_) report.gpu->bus_id = session_->bus_id();
  if (gpu.boundary >= 0)
    console.warning("this GPU's shared memory is too small for a Btile with tile_boundary_width = " +
                    std::to_string(cuda.boundary) + ": narrowed to " + std::to_string(gpu.boundary) +
                    " (splats with a footprint radius above it render on the CPU; set tile_boundary_width to "
                    "choose)");
  report.renderer = std::string("cuda (") + algorithm_name(cuda.algorithm) + ")";
}

CudaSession* RendererDecision::gpu_for_kept_particles(Console& console, StageClock& clock) {
  // renderer = auto that started the GPU: with the particles on it, a view costs it a fraction of
  // what the host's stages would (no weighing of the splats in view, which are not known yet),
  // and copying them up costs less than those stages.
  // gpu_chunk_particles bounds the GPU memory a render takes: nothing is kept there then.
  if (choice_ != RendererChoice::cuda || settings_->cuda.chunk_particles > 0) return nullptr;
  wait_for_gpu(console, clock);
  if (choice_ == RendererChoice::cuda && requested_ == "auto") {
    note_ = "renderer = auto: the GPU, with the particles copied to it (geometry, colour and ordering there too)";
    note_says_gpu_ = true;
  }
  return choice_ == RendererChoice::cuda ? session_ : nullptr;
}

void RendererDecision::draw_kept(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                                 const std::vector<TypeColour>& looks, const RenderOptions& options, Image& image,
                                 RunReport& report, Console& console) const {
  if (!session_) throw std::logic_error("draw_kept before gpu_for_kept_particles gave a session");
  const CudaOptions cuda = cuda_options(options);
  report_gpu(cuda, render_gpu_particles(kept, geometry, wrap, looks, settings_->sort, cuda, image, *session_), report,
             console);
}

void RendererDecision::draw_kept_split(DeviceParticles& kept, const GeometryOptions& geometry, bool wrap,
                                       const std::vector<TypeColour>& looks, const RenderOptions& options,
                                       const Comm& comm, int width, int height, float* layer, RunReport& report,
                                       Console& console) const {
  if (!session_) throw std::logic_error("draw_kept_split before gpu_for_kept_particles gave a session");
  const CudaOptions cuda = cuda_options(options);
  const DeviceView view = device_view(geometry, wrap, looks, settings_->sort, cuda);
  report_gpu(cuda, render_gpu_split(kept, view, cuda, comm, width, height, layer, report.gpu_split_parts), report,
             console);
}

void RendererDecision::draw(const SplatView& view, const RenderOptions& options, Image& image, RunReport& report,
                            Console& console) const {
  if (choice_ == RendererChoice::cuda) {
    const CudaOptions cuda = cuda_options(options);
    report_gpu(cuda, render_gpu(view, cuda, image, session_), report, console);
  } else {
    render_host(view, options, image, console.progress("render"));
  }
  console.end_progress();
}

std::string RendererDecision::note(bool drew_on_gpu) const {
  return note_says_gpu_ == drew_on_gpu ? note_ : std::string();
}

}  // namespace splotch
