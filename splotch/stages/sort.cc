#include "splotch/stages/sort.h"

#include "errors/user_error.h"

namespace splotch {

namespace {

template <class Key>
void fill_keys(ParticleArray<std::uint32_t>& keys, std::size_t n, Key key) {
  keys.resize(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) keys[i] = key(i);
}

}  // namespace

void assign_draw_keys(Splats& s, SortOrder order) {
  const std::size_t n = s.size();
  if (n > 0xffffffffu) throw UserError("more than 2^32 particles in one process: use MPI to split them");
  switch (order) {
    case SortOrder::none: fill_keys(s.draw_key, n, [](std::size_t i) { return std::uint32_t(i); }); break;
    case SortOrder::depth: fill_keys(s.draw_key, n, [&](std::size_t i) { return order_bits(s.depth[i]); }); break;
    case SortOrder::red_descending:
      fill_keys(s.draw_key, n, [&](std::size_t i) { return order_bits(-s.colour[0][i]); });
      break;
    case SortOrder::red_ascending:
      fill_keys(s.draw_key, n, [&](std::size_t i) { return order_bits(s.colour[0][i]); });
      break;
    case SortOrder::radius_descending:
      fill_keys(s.draw_key, n, [&](std::size_t i) { return order_bits(-s.radius[i]); });
      break;
  }
  ParticleArray<float>().swap(s.depth);
}

}  // namespace splotch
