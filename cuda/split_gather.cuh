// A process's range of the draw order as draw_split() gathers it from the node's GPUs
// (device_particles.h), and the GPU memory that takes: write_split() copies the ranges the other
// processes draw only where that much stays free.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/device_layout.h"
#include "cuda/device_render.cuh"

namespace splotch::cuda_detail {

// The range gathered: the splats' fields and keys, the tiles of equal keys, the sort's scratch.
struct Gathered {
  DeviceSplats splats;
  std::uint32_t* tie = nullptr;
  OrderScratch order;
};
inline Gathered lay_out_gathered(DeviceLayout& l, std::size_t n) {
  Gathered g;
  g.splats = {l.take<float>(fields * n), n};
  g.tie = l.take<std::uint32_t>(n);
  g.order = lay_out_order(l, n);
  return g;
}

// Bytes draw_split() takes for a range of `n` splats and its layer of `pixels` (six floats a
// pixel), with room for the tile renderer's buffers besides (256 MiB).
inline std::size_t gathered_bytes(std::size_t n, std::size_t pixels) {
  return bytes_of([n](DeviceLayout& l) { return lay_out_gathered(l, n); }) + 6 * sizeof(float) * pixels +
         (std::size_t(256) << 20);
}

}  // namespace splotch::cuda_detail
