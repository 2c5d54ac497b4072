#include "splotch/load/preview_subset.h"

#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace splotch {
namespace {

std::uint64_t bits_of(float v) {
  v = v == 0.0f ? 0.0f : v;  // -0 and +0 are one place
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// SplitMix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// Whether particle i of `p` is kept: by its ID when it has one (and `by_id`), else by its position.
bool kept_at(const ParticleSet& p, std::size_t i, double fraction, bool by_id = true) {
  return p.id.empty() || !by_id ? kept_in_preview(p.x[i], p.y[i], p.z[i], fraction)
                                : kept_in_preview(p.id[i], fraction);
}

template <class T>
void move_kept(ParticleArray<T>& v, std::size_t from, std::size_t to) {
  if (!v.empty()) v[to] = v[from];
}

}  // namespace

bool kept_in_preview(float x, float y, float z, double fraction) {
  const std::uint64_t h = mix(mix(mix(bits_of(x)) ^ bits_of(y)) ^ bits_of(z) << 32);
  return double(h >> 11) * 0x1p-53 < fraction;
}

bool kept_in_preview(std::uint64_t id, double fraction) {
  return double(mix(id + 0x9e3779b97f4a7c15ULL) >> 11) * 0x1p-53 < fraction;
}

std::size_t keep_preview_subset(ParticleSet& p, double fraction) {
  const std::size_t n = p.size();
  if (fraction >= 1) return n;
  p.own_all();  // (a caller's arrays are left as they are)
  // Each thread packs its own range; the ranges are then closed up in order.
  const int threads = omp_get_max_threads();
  std::vector<std::size_t> first(std::size_t(threads) + 1, 0), kept(std::size_t(threads), 0);
  const float grow = float(std::pow(fraction, -1.0 / 3.0));
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num()), nt = std::size_t(omp_get_num_threads());
    const std::size_t lo = n * t / nt, hi = n * (t + 1) / nt;
    first[t] = lo;
    std::size_t k = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      if (!kept_at(p, i, fraction)) continue;
      for (ParticleArray<float>* v : p.float_fields()) move_kept(*v, i, k);
      move_kept(p.type, i, k);
      move_kept(p.id, i, k);
      p.hsml[k] *= grow;
      ++k;
    }
    kept[t] = k - lo;
  }
  std::size_t dest = 0;
  for (std::size_t t = 0; t < std::size_t(threads); ++t) {
    for (std::size_t i = 0; i < kept[t]; ++i) {
      if (first[t] == dest) break;
      for (ParticleArray<float>* v : p.float_fields()) move_kept(*v, first[t] + i, dest + i);
      move_kept(p.type, first[t] + i, dest + i);
      move_kept(p.id, first[t] + i, dest + i);
    }
    dest += kept[t];
  }
  for (ParticleArray<float>* v : p.float_fields())
    if (!v->empty()) v->resize(dest);
  if (!p.type.empty()) p.type.resize(dest);
  if (!p.id.empty()) p.id.resize(dest);
  return dest;
}

ParticleSet preview_subset(const ParticleSet& p, double fraction, bool by_id) {
  const std::size_t n = p.size();
  const int threads = omp_get_max_threads();
  // Each thread lists the kept places of its range; the lists, in order, are the new set's order.
  std::vector<std::vector<std::size_t>> kept(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num()), nt = std::size_t(omp_get_num_threads());
    std::vector<std::size_t>& mine = kept[t];
    for (std::size_t i = n * t / nt; i < n * (t + 1) / nt; ++i)
      if (fraction >= 1 || kept_at(p, i, fraction, by_id)) mine.push_back(i);
  }
  std::vector<std::size_t> places;
  for (const auto& k : kept) places.insert(places.end(), k.begin(), k.end());
  const std::size_t m = places.size();
  ParticleSet out;
  out.box_size = p.box_size;
  out.time = p.time;
  out.redshift = p.redshift;
  out.units = p.units;
  const auto from = p.float_fields();
  const auto to = out.float_fields();
  auto gather = [&](const auto& in, auto& into) {
    if (in.empty()) return;
    into.resize(m);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < m; ++k) into[k] = in[places[k]];
  };
  for (std::size_t f = 0; f < from.size(); ++f) gather(*from[f], *to[f]);
  gather(p.type, out.type);
  gather(p.id, out.id);
  if (fraction < 1) {
    const float grow = float(std::pow(fraction, -1.0 / 3.0));
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < m; ++k) out.hsml[k] *= grow;
  }
  return out;
}

std::string preview_kept_none(double fraction, std::size_t valid, const std::string& path) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fraction);
  return std::string("boost_fraction = ") + text + " keeps none of the " + std::to_string(valid) + " particles of '" +
         path + "'; raise boost_fraction (or leave it out for the full render)";
}

}  // namespace splotch
