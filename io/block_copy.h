// Copying a run of particle values from a file block straight into particle arrays: `count`
// particles of `components` values each (4- or 8-byte floats, either byte order), read with one
// positioned read and converted in place. The Gadget reader and the HDF5 reader's contiguous
// datasets both read this way, many runs at once on OpenMP threads.
#pragma once

#include <cstddef>
#include <vector>

#include "io/input_file.h"

namespace splotch {

struct BlockCopy {
  const InputFile* file;
  bool swap;                    // the file's byte order is not this machine's
  std::size_t offset, count;    // first byte; particles
  int components, value_bytes;  // values per particle (1 to 3); 4 or 8
  float* targets[3];            // component c goes to targets[c] (null: skipped)
  float factor;                 // multiplies the values

  std::size_t bytes() const { return count * std::size_t(components) * std::size_t(value_bytes); }
};

// Particles per piece of parallel work (and per progress report): 4 MiB read straight into an
// array, or 1 MiB through the thread's buffer, which then stays in the cache while the values are
// converted and spread over the arrays (larger buffers measured slower).
inline std::size_t block_copy_piece(int components, int value_bytes) {
  if (components == 1 && value_bytes == 4) return std::size_t(1) << 20;
  return (std::size_t(1) << 20) / std::size_t(components * value_bytes);
}

// `buffer` is scratch space kept by the calling thread between copies.
void run_block_copy(const BlockCopy& c, std::vector<unsigned char>& buffer);

}  // namespace splotch
