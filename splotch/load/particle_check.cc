#include "splotch/load/particle_check.h"

#include <cmath>

#include "splotch/util/simd.h"

namespace splotch {
namespace {

enum Problem { none, position, hsml, value };

inline Problem problem_of(const ParticleSet& p, std::size_t i) {
  if (!std::isfinite(p.x[i]) || !std::isfinite(p.y[i]) || !std::isfinite(p.z[i])) return position;
  if (!(p.hsml[i] > 0.0f) || !std::isfinite(p.hsml[i])) return hsml;
  if (!std::isfinite(p.intensity[i])) return value;
  for (int c = 0; c < 3; ++c)
    if (!p.colour[c].empty() && !std::isfinite(p.colour[c][i])) return value;
  return none;
}

template <class T>
void keep(ParticleArray<T>& v, std::size_t from, std::size_t to) {
  if (!v.empty()) v[to] = v[from];
}

// The usual case, every particle valid, checked eight at a time: v - v is 0 for finite v and NaN
// for infinite or NaN v.
bool all_valid(const ParticleSet& p) {
  using namespace simd;
  const std::size_t n = p.size(), groups = n / lanes;
  const ParticleArray<float>* values[] = {&p.x,         &p.y,         &p.z,         &p.hsml,
                                          &p.intensity, &p.colour[0], &p.colour[1], &p.colour[2]};
  std::size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (std::size_t g = 0; g < groups; ++g) {
    vint ok = load(p.hsml.data() + g * lanes) > 0.0f;
    for (const ParticleArray<float>* v : values) {
      if (v->empty()) continue;
      const vfloat x = load(v->data() + g * lanes);
      ok &= (x - x) == 0.0f;
    }
    for (int l = 0; l < lanes; ++l) bad += ok[l] ? 0 : 1;
  }
  for (std::size_t i = groups * lanes; i < n; ++i) bad += problem_of(p, i) != none;
  return bad == 0;
}

}  // namespace

DroppedParticles drop_invalid_particles(ParticleSet& p, std::vector<std::size_t>* dropped_at) {
  const std::size_t n = p.size();
  DroppedParticles d;
  if (all_valid(p)) return d;
  std::size_t bad_position = 0, bad_hsml = 0, bad_value = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad_position, bad_hsml, bad_value)
  for (std::size_t i = 0; i < n; ++i) {
    switch (problem_of(p, i)) {
      case position: ++bad_position; break;
      case hsml: ++bad_hsml; break;
      case value: ++bad_value; break;
      case none: break;
    }
  }
  d.bad_position = bad_position;
  d.bad_hsml = bad_hsml;
  d.bad_value = bad_value;
  if (d.total() == 0) return d;  // the usual case: nothing to move
  p.own_all();                   // (a caller's arrays are left as they are)
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (problem_of(p, i) != none) {
      if (dropped_at) dropped_at->push_back(i);
      continue;
    }
    for (auto* v : p.float_fields()) keep(*v, i, k);
    keep(p.type, i, k);
    keep(p.id, i, k);
    ++k;
  }
  for (auto* v : p.float_fields())
    if (!v->empty()) v->resize(k);
  if (!p.type.empty()) p.type.resize(k);
  if (!p.id.empty()) p.id.resize(k);
  return d;
}

}  // namespace splotch
