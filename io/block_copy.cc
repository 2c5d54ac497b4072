#include "io/block_copy.h"

#include "io/byte_order.h"

namespace splotch {

void run_block_copy(const BlockCopy& c, std::vector<unsigned char>& buffer) {
  if (c.components == 1 && c.value_bytes == 4) {  // straight into the array, no buffer
    float* out = c.targets[0];
    c.file->read_at(out, 4 * c.count, c.offset);
    if (c.swap) swap_bytes_4(out, c.count);
    if (c.factor != 1.0f)
      for (std::size_t i = 0; i < c.count; ++i) out[i] *= c.factor;
    return;
  }
  const std::size_t k = std::size_t(c.components);
  buffer.resize(c.bytes());
  c.file->read_at(buffer.data(), buffer.size(), c.offset);
  const unsigned char* in = buffer.data();
  if (c.value_bytes == 4) {
    for (std::size_t j = 0; j < k; ++j)
      if (float* out = c.targets[j])
        for (std::size_t i = 0; i < c.count; ++i) out[i] = load<float>(in + 4 * (i * k + j), c.swap) * c.factor;
  } else {
    for (std::size_t j = 0; j < k; ++j)
      if (float* out = c.targets[j])
        for (std::size_t i = 0; i < c.count; ++i)
          out[i] = float(load<double>(in + 8 * (i * k + j), c.swap) * double(c.factor));
  }
}

}  // namespace splotch
