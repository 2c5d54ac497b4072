// Particles copied to GPU memory and kept there from view to view (a frame's, a scene's snapshot,
// the server's), and the whole frame of a view drawn from them on the GPU: geometry (project_particle(),
// splotch/splat/projection.h), colour (the type's palette, or its vector colour), the draw keys,
// and the render, so that per view only the camera and the looks go down and only the image (and
// the few splats too wide for a Btile) come up. Plain C++; the kernels are in device_particles.cu.
//
// The host's stages do the same work on the host's arrays (splotch/stages/geometry.h, colour.h,
// sort.h); the GPU's projection is the same float arithmetic, so a splat lands on the same pixels
// within a rounding, and pictures agree within what tests/gpu/test_device_particles.cc allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_renderer.h"
#include "io/image.h"
#include "io/palette.h"
#include "io/particle_set.h"
#include "splotch/splat/draw_key.h"
#include "splotch/splat/projection.h"
#include "splotch/splat/splat_view.h"

namespace splotch {

// How the particles of one type look: the colour stage's palette or vector colour and brightness,
// and the geometry's smooth_factor.
struct DeviceTypeLook {
  bool vector_colour = false;
  const Palette* palette = nullptr;  // required when !vector_colour
  float brightness = 1;
  float smooth = 1;
};

// One view of the particles.
struct DeviceView {
  ProjectionConstants projection;     // perspective or orthographic (not the dome's)
  std::vector<DeviceTypeLook> types;  // by type number
  bool wrap = false;                  // a periodic box (the particles' box_size) wrapped about wrap_centre
  double wrap_centre[3] = {0, 0, 0};
  SortOrder sort = SortOrder::depth;  // the draw order of a_eq_e = FALSE
  // a_eq_e = FALSE: splats of equal keys are drawn as the host's stages leave them, by the tile of
  // their centre in tiles of this many pixels (splotch/stages/tile_order.h), then in particle
  // order; 0: in particle order.
  int tie_tile_size = 0;
  // Whether the host's Palette::at interpolates with a fused multiply-add (its build's target has
  // one): the GPU's colours are then computed so too, and agree with the host's bit for bit.
  bool fused_palette = false;
};

class DeviceParticles {
 public:
  // Copies the fields a view needs (positions, hsml, intensity, colours, types) to the session's
  // device, with the working memory of a view beside them: for all of them where these take at
  // most half the device's free memory, else for a window of as many as fit (10^9 particles on an
  // 80 GB GPU: views are then drawn a window at a time, see device_particles.cu). `window` (0:
  // none) bounds it. Null, with `why`, when not even a narrow window fits beside the fields (the
  // caller draws on the host's path then).
  static std::unique_ptr<DeviceParticles> upload(const ParticleSet& particles, CudaSession& session,
                                                 std::string* why = nullptr, std::size_t window = 0);
  ~DeviceParticles();
  DeviceParticles(const DeviceParticles&) = delete;
  DeviceParticles& operator=(const DeviceParticles&) = delete;

  // The intensities and colours copied again (normalised anew; the same particles, unmoved).
  void refresh_values(const ParticleSet& particles);
  std::size_t size() const;
  std::size_t window() const;  // the particles a view's working memory holds (size(): all)
  double device_mib() const;   // what they and their working memory take

  CudaSession& session();  // the one they were uploaded with

  // The fields on the device, for the GPU's other drawers (a map: cuda/map_renderer.h).
  struct Fields {
    const float *x, *y, *z, *hsml, *intensity, *colour;
    const std::uint8_t* type;  // null: all of type 0
    std::size_t n;
    int device;
  };
  Fields fields() const;
  struct Memory;  // defined by the CUDA code
  Memory& memory() { return *memory_; }

 private:
  explicit DeviceParticles(std::unique_ptr<Memory> memory);
  std::unique_ptr<Memory> memory_;
};

// Draws `view` of the particles into `image` (cleared or not, as render_cuda: with a_eq_e added,
// else composited over it). With a_eq_e the splats whose footprint is beyond the Btile boundary
// are drawn on the GPU tile by tile (CudaOptions::large_on_gpu; report.large_on_gpu of them), or
// come back to the host: `beyond` draws them into `image` on a thread of its own while the GPU
// draws the rest, whose image is added when both are done (as render_gpu() splits a render).
// The report's on_gpu + on_host are the splats in view.
using DrawBeyond = std::function<void(const SplatView& beyond)>;
CudaReport render_particles_cuda(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                                 Image& image, CudaSession& session, const DrawBeyond& beyond);

// a_eq_e = FALSE over the GPUs of several processes of one node (splotch/frame/gpu_split.h
// runs the exchange between them). The draw order is cut into one range of draw keys per process,
// from the keys' counts over all processes (count_draw_keys(), key_splitters()); each process
// writes its splats in view range by range (write_split()), and each gathers its range from all
// of them, GPU to GPU, and draws it as a layer (draw_split()).

// The particles in view by draw key: bin b counts the keys from lo + b 2^shift to
// lo + (b + 1) 2^shift - 1 (bins at most 4096).
std::vector<std::uint64_t> count_draw_keys(DeviceParticles& particles, const DeviceView& view, std::uint32_t lo,
                                           int shift, std::uint32_t bins);

// This process, as the shares name it: its id and a random number drawn once (process ids repeat
// across containers).
std::uint64_t split_process_id();

// Where one range of a process's splats written for the split lies, for the process that draws
// it: in the GPU memory of the share's process, from `base` on (in that process's addresses).
struct SplitMemory {
  unsigned char handle[64] = {};                               // the memory's cudaIpcMemHandle_t
  std::uint64_t base = 0;                                      // the allocation's first byte
  std::uint64_t field_offset = 0, tie_offset = 0, stride = 0;  // bytes from base; floats per field
};

// Where a process's splats written for the split lie, for the others to read: in the GPU memory
// of `process` (split_process_id()), one block per destination and type.
struct SplitShare {
  std::uint64_t process = 0;
  std::vector<SplitMemory> memory;          // [destination]
  std::vector<std::uint64_t> start, count;  // [destination * types + type], splats from its memory's first
  // As 64-bit words (for passing between processes) and back; `destinations` x `types` blocks.
  static constexpr std::size_t handle_words = 8, memory_words = handle_words + 4;
  static std::size_t word_count(std::size_t destinations, std::size_t types) {
    return 1 + destinations * memory_words + 2 * destinations * types;
  }
  std::vector<std::uint64_t> words() const {
    std::vector<std::uint64_t> w{process};
    for (const SplitMemory& m : memory) {
      std::uint64_t h[handle_words];
      std::memcpy(h, m.handle, sizeof h);
      w.insert(w.end(), h, h + handle_words);
      w.insert(w.end(), {m.base, m.field_offset, m.tie_offset, m.stride});
    }
    w.insert(w.end(), start.begin(), start.end());
    w.insert(w.end(), count.begin(), count.end());
    return w;
  }
  static SplitShare from_words(const std::uint64_t* w, std::size_t destinations, std::size_t types) {
    SplitShare s;
    s.process = *w++;
    s.memory.resize(destinations);
    for (SplitMemory& m : s.memory) {
      std::memcpy(m.handle, w, sizeof m.handle);
      w += handle_words;
      m.base = w[0];
      m.field_offset = w[1];
      m.tie_offset = w[2];
      m.stride = w[3];
      w += 4;
    }
    const std::size_t blocks = destinations * types;
    s.start.assign(w, w + blocks);
    s.count.assign(w + blocks, w + 2 * blocks);
    return s;
  }
};

// Writes this process's splats in view of each range of draw keys, process p's from splitter
// p - 1 up to splitter p (key_splitters(), splotch/mpi/draw_order_split.h), each range type after
// type, for an image of width x height, into the allocation of the splats in view. Throws
// std::runtime_error where the working memory holds a window of the particles only, or they are
// not in type order (the caller's host path then).
SplitShare write_split(DeviceParticles& particles, const DeviceView& view, int width, int height,
                       const std::vector<std::uint32_t>& splitters);
// Then copies each range but this process's own (`me`) into an allocation of its own, the only
// one its process opens: opening another process's memory costs with the size of the allocation
// opened, and the node's processes open theirs one after another (on 4 x H200 at 10^9 particles
// each process's three openings of the others' whole 8-GB shares took 0.49-0.56 s a frame, of
// their ranges 0.12-0.14 s). A range is copied only where `keep_free` bytes stay free beside it
// (the gathers of the processes on this GPU: split_gather_bytes()); else, or where the copy cannot
// be shared, it is read from the whole allocation. The copies stay until end_split().
void copy_split_ranges(DeviceParticles& particles, SplitShare& share, std::size_t me, std::size_t keep_free);
// The GPU memory draw_split() takes for a range of `splats` and a layer of width x height.
std::size_t split_gather_bytes(std::size_t splats, int width, int height);
// Frees the ranges' copies, once every process has drawn its range.
void end_split(DeviceParticles& particles);

// Draws process `me`'s range, read from every process's share (shares[p] is process p's; its
// splats of one type come before the next type's, each type process after process: the single
// process's order), as a layer of width x height pixels into `layer`: six floats a pixel, its
// colour composited over black (C) and its transmittance (T, the product of its splats' exp(-w e)),
// which a layer under it shows through: C_under T + C. `options` are a_eq_e = FALSE's. The
// shares' memory must stay as it is until every process has returned. Its parts' times, seconds:
// reaching the shares (CUDA IPC) and the GPU memory for the range, the copies from the shares,
// the layer drawn (sorted and composited), and the layer brought to `layer`.
struct SplitDrawTimes {
  double opening = 0, passing = 0, drawing = 0, fetching = 0;
};
CudaReport draw_split(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                      const std::vector<SplitShare>& shares, std::size_t me, int width, int height, float* layer,
                      SplitDrawTimes* times = nullptr);

}  // namespace splotch
