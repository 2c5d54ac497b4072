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

ParticleArray<std::size_t> preview_places(const ParticleSet& p, double fraction, bool by_id) {
  const std::size_t n = p.size();
  const int threads = omp_get_max_threads();
  // Each thread counts the kept of its range, then writes their places from its range's start
  // (the hash twice over costs less than lists grown and joined).
  std::vector<std::size_t> start(std::size_t(threads) + 1, 0);
  ParticleArray<std::size_t> places;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num()), nt = std::size_t(omp_get_num_threads());
    const std::size_t lo = n * t / nt, hi = n * (t + 1) / nt;
    const auto kept = [&](std::size_t i) { return fraction >= 1 || kept_at(p, i, fraction, by_id); };
    std::size_t count = 0;
    for (std::size_t i = lo; i < hi; ++i) count += kept(i);
    start[t + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t k = 0; k < nt; ++k) start[k + 1] += start[k];
      places.resize(start[nt]);  // (unwritten: each thread writes its own part)
    }
    std::size_t at = start[t];
    for (std::size_t i = lo; i < hi; ++i)
      if (kept(i)) places[at++] = i;
  }
  return places;
}

namespace {

template <class T>
void gather(const ParticleArray<T>& in, const ParticleArray<std::size_t>& places, ParticleArray<T>& into) {
  if (in.empty()) return;
  const std::size_t m = places.size();
  into.resize(m);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < m; ++k) into[k] = in[places[k]];
}

}  // namespace

ParticleSet preview_subset(const ParticleSet& p, const ParticleArray<std::size_t>& places, double fraction) {
  const std::size_t m = places.size();
  ParticleSet out;
  out.box_size = p.box_size;
  out.time = p.time;
  out.redshift = p.redshift;
  out.units = p.units;
  const auto from = p.float_fields();
  const auto to = out.float_fields();
  for (std::size_t f = 0; f < from.size(); ++f) gather(*from[f], places, *to[f]);
  gather(p.type, places, out.type);
  gather(p.id, places, out.id);
  if (fraction < 1) {
    const float grow = float(std::pow(fraction, -1.0 / 3.0));
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < m; ++k) out.hsml[k] *= grow;
  }
  return out;
}

ParticleSet preview_subset(const ParticleSet& p, double fraction, bool by_id) {
  return preview_subset(p, preview_places(p, fraction, by_id), fraction);
}

bool regather_preview_values(const ParticleSet& p, const ParticleArray<std::size_t>& places, ParticleSet& share) {
  if (share.size() != places.size() || p.intensity.empty() != share.intensity.empty()) return false;
  for (int c = 0; c < 3; ++c)
    if (p.colour[c].empty() != share.colour[c].empty()) return false;
  gather(p.intensity, places, share.intensity);
  for (int c = 0; c < 3; ++c) gather(p.colour[c], places, share.colour[c]);
  return true;
}

std::string preview_kept_none(double fraction, std::size_t valid, const std::string& path) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fraction);
  return std::string("boost_fraction = ") + text + " keeps none of the " + std::to_string(valid) + " particles of '" +
         path + "'; raise boost_fraction (or leave it out for the full render)";
}

}  // namespace splotch
