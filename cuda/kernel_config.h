// The GPU renderer's tuning constants, each defined once with the reason for its value. They
// change speed and memory, never the picture (tests/gpu/test_cuda.cc runs small values of the sizes
// the user can set to show it). Measured on an H100 unless said otherwise.
#pragma once

#include <cstddef>
#include <cstdint>

namespace splotch::cuda_detail {

// Threads of a block of the simple kernels (one thread per splat, tile or pixel): a common size
// that fills an SM with few blocks; none of those kernels is bound by its occupancy.
constexpr int small_block = 256;

// Btile (btile_renderer.cu): a block's threads, and the splats it sets up at a time. Many
// threads, because a Btile takes so much shared memory that an SM holds one or two blocks, and
// the latency of exp and of the shared-memory atomics wants many warps to hide it (256 threads
// measured at about half the speed). A batch of 256 splats lays about a thousand pixels end to
// end for the 1024 threads at the benchmark's footprints.
constexpr int btile_threads = 1024, batch_splats = 256;

// Entries of a tile's list one block takes at most: the dense tiles of a clustered snapshot would
// otherwise keep one block busy long after the others (tile_pieces.cuh).
constexpr std::uint32_t piece_splats = 1024;

// Compositing tiles (tile_composite_renderer.cu, a_eq_e = FALSE) of 16 x 16 pixels, one thread
// per pixel: there each splat costs every pixel of its tiles a test, so tiles are small.
constexpr int composite_side = 16, composite_threads = composite_side * composite_side;

// Splats per chunk by default (cuda_renderer.cu): keeps the pinned staging buffers modest
// (28 MiB each) and leaves enough chunks for copies to overlap kernels.
constexpr std::size_t default_chunk_particles = std::size_t(1) << 20;
// The share of the free device memory the two chunk slots and an algorithm's scratch may take
// together when the chunk is sized from it (gpu_chunk_particles = 0): the rest stays for the
// fragment buffer and for other processes sharing the GPU.
constexpr std::size_t chunk_memory_share = 3;  // one third
// Chunks are never made smaller than this when memory is short: below it streaming costs more in
// launches and waits than it saves.
constexpr std::size_t smallest_chunk = 4096;
// Host threads copying a chunk into the staging buffer: one alone copies at a fraction of the
// memory bandwidth, eight come near it.
constexpr int staging_threads = 8;
// Host threads filling the staging buffers when particles are copied up to be kept on the
// device (device_particles.cu): the copy from pageable memory into them is what bounds the
// upload; on the H100 node 8 threads reached 29 to 41 GB/s and 16 reached 42 (the bus's rate).
constexpr int upload_threads = 16;
// The staging buffers hold at least this many splats' fields, so that the image coming back
// through them does so in useful pieces.
constexpr std::size_t least_staging_splats = std::size_t(1) << 16;

// a_eq_e = FALSE with every splat on the device (cuda_renderer.cu): splats per call of the
// algorithm, whose scratch is sized for this many; used when they all fit in half the free memory.
constexpr std::size_t resident_window = std::size_t(1) << 22;
constexpr std::size_t resident_memory_share = 2;  // one half

// Work items per pass (fragments; tile-list entries) when not set: the fragment buffer takes a
// quarter of the free memory within these bounds; the tile lists have room for every splat of a
// chunk to touch two tiles.
constexpr std::size_t fragment_memory_share = 4;  // one quarter
constexpr std::size_t fewest_pass_items = std::size_t(1) << 16, most_fragments = std::size_t(1) << 27;
constexpr std::size_t tile_entries_per_splat = 2;

}  // namespace splotch::cuda_detail
