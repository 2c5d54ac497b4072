#include "splotch/load/interpolate_snapshots.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#if defined(__GLIBCXX__) && defined(_OPENMP)
#include <parallel/algorithm>
#endif

#include "errors/user_error.h"

namespace splotch {

double cosmic_time(double a, const InterpolationOptions& o) {
  const double cm_per_mpc = 3.0856780e24;
  const double hubble_time = cm_per_mpc / (o.hubble * 1e7);  // 1 / H0 in seconds, H0 = 100 h km/s/Mpc
  return std::asinh(std::sqrt(o.lambda / o.omega * a * a * a)) / (1.5 * std::sqrt(o.lambda)) * hubble_time;
}

double velocity_to_fraction(double a, double a1, double a2, const InterpolationOptions& o) {
  const double dt = (cosmic_time(a2, o) - cosmic_time(a1, o)) * o.hubble;
  return o.v_unit / o.l_unit / std::sqrt(a) * dt;
}

bool comoving_times(const ParticleSet& first, const ParticleSet& second) {
  for (const ParticleSet* p : {&first, &second}) {
    if (!(p->time > 0 && p->time <= 1.0 + 1e-6)) return false;  // a scale factor is in (0, 1]
    if (p->redshift >= 0 && std::fabs(1 / (1 + p->redshift) - p->time) > 1e-3 * p->time) return false;
  }
  return true;
}

namespace {

// Indices of `ids` in ascending ID order (equal IDs in their order), sorted by all threads.
std::vector<std::size_t> order_by_id(const ParticleArray<std::uint64_t>& ids) {
  const std::size_t n = ids.size();
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed(n);
#pragma omp parallel for schedule(static)
  for (std::size_t j = 0; j < n; ++j) keyed[j] = {ids[j], j};
#if defined(__GLIBCXX__) && defined(_OPENMP)
  __gnu_parallel::sort(keyed.begin(), keyed.end());
#else
  std::sort(keyed.begin(), keyed.end());
#endif
  std::vector<std::size_t> order(n);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < n; ++k) order[k] = keyed[k].second;
  return order;
}

float linear(float a, float b, float f) { return (1 - f) * a + f * b; }

// `into` made an array of n values (unwritten) on `memory`'s memory where it has room, else on
// fresh memory; lent memory (a caller's, unwritable) is never used.
template <class T>
void sized_from(ParticleArray<T>& into, ParticleArray<T>& memory, std::size_t n) {
  if (!is_lent(memory) && memory.capacity() >= n) {
    into = std::move(memory);
    into.clear();  // (nothing to copy when it grows: within its capacity, no new memory)
  }
  into.resize(n);
}

// The second position's image nearest the first in a periodic box.
float nearest_image(float x1, float x2, double box) {
  if (!(box > 0)) return x2;
  const double d = double(x2) - double(x1);
  return d > 0.5 * box ? float(x2 - box) : d < -0.5 * box ? float(x2 + box) : x2;
}

}  // namespace

SnapshotMatch match_snapshots(const ParticleSet& a, const ParticleSet& b) {
  const std::size_t n1 = a.size(), n2 = b.size();
  SnapshotMatch m;
  m.partner.assign(n1, no_partner);
  const bool ids1 = !a.id.empty(), ids2 = !b.id.empty();
  if (ids1 != ids2 || (!ids1 && n1 != n2))
    throw UserError("the snapshots cannot be matched particle by particle: " +
                    std::string(ids1 == ids2 ? "without IDs (Tipsy) they match by order, and they hold " +
                                                   std::to_string(n1) + " and " + std::to_string(n2) + " particles"
                                             : "one has IDs and the other none") +
                    "; interpolate between snapshots of the same particles, or set interpolation_mode = 0");
  // The same IDs in the same order (or no IDs): particle i is particle i.
  bool same_order = n1 == n2;
  if (same_order && ids1) {
    std::size_t differ = 0;
#pragma omp parallel for schedule(static) reduction(+ : differ)
    for (std::size_t i = 0; i < n1; ++i) differ += a.id[i] != b.id[i];
    same_order = differ == 0;
  }
  if (same_order) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n1; ++i) m.partner[i] = i;
    m.counts = {n1, 0, 0};
    return m;
  }
  // Otherwise the second's IDs in order, and each of the first's looked up there; a repeated ID
  // pairs in order of appearance.
  const std::vector<std::size_t> by_id = order_by_id(b.id);
  std::vector<std::size_t> first_of(n1, no_partner);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n1; ++i) {
    const auto at = std::lower_bound(by_id.begin(), by_id.end(), a.id[i],
                                     [&](std::size_t j, std::uint64_t id) { return b.id[j] < id; });
    if (at != by_id.end() && b.id[*at] == a.id[i]) first_of[i] = std::size_t(at - by_id.begin());
  }
  // A repeated ID (a wrong id_label, IDs all 0) pairs in order, each group's next one counted at
  // its start, so that matching stays linear however many repeat.
  std::vector<char> taken(n2, 0);
  std::vector<std::size_t> used(n2, 0);
  std::size_t matched = 0;
  for (std::size_t i = 0; i < n1; ++i) {
    const std::size_t start = first_of[i];
    if (start == no_partner) continue;
    const std::size_t k = start + used[start];
    if (k >= n2 || b.id[by_id[k]] != a.id[i]) continue;
    ++used[start];
    taken[by_id[k]] = 1;
    m.partner[i] = by_id[k];
    ++matched;
  }
  for (std::size_t j = 0; j < n2; ++j)
    if (!taken[j]) m.second_alone.push_back(j);
  m.counts = {matched, n1 - matched, n2 - matched};
  return m;
}

ParticleSet interpolate_snapshots(const ParticleSet& p1, const ParticleSet& p2, const SnapshotMatch& match,
                                  double fraction, const InterpolationOptions& o, ParticleSet reuse) {
  const std::size_t n1 = p1.size();
  if (fraction <= 0 || fraction >= 1) {
    reuse = fraction <= 0 ? p1 : p2;  // (a copy into the memory held, where it is large enough)
    return reuse;
  }
  const bool hermite = o.mode == 2;
  if (hermite && (p1.vx.size() != n1 || p2.vx.size() != p2.size()))
    throw UserError(
        "interpolation_mode = 2 needs both snapshots' velocities; the snapshot has none here: use "
        "interpolation_mode = 1 (linear)");
  const double a1 = p1.time, a2 = p2.time;
  // A run in physical time (not comoving): the velocities are in the file's length per time unit,
  // and carry a particle v (t2 - t1) over the interval.
  const bool comoving = comoving_times(p1, p2);
  const double u1 = !hermite || !(a2 > a1) ? 0 : comoving ? velocity_to_fraction(a1, a1, a2, o) : a2 - a1;
  const double u2 = !hermite || !(a2 > a1) ? 0 : comoving ? velocity_to_fraction(a2, a1, a2, o) : a2 - a1;
  const double box = o.periodic ? p1.box_size : 0;
  const float f = float(fraction);
  const double F = fraction, h1 = F - 2 * F * F + F * F * F, h2 = F * F * F - F * F, hx = 3 * F * F - 2 * F * F * F;

  const std::vector<std::size_t>& alone2 = match.second_alone;
  const std::size_t n = n1 + alone2.size();
  ParticleSet out;
  out.box_size = p1.box_size > 0 ? p1.box_size : p2.box_size;
  out.time = (1 - F) * a1 + F * a2;
  // The header's numbers at the time between (a map's units, the server's time and redshift): a
  // cosmological run's redshift and comoving scale factor those of the scale factor between.
  // (SWIFT's, RAMSES' and Enzo's times are not scale factors, their units' are)
  out.units = p1.units;
  const double s1 = p1.units.scale_factor, s2 = p2.units.scale_factor;
  const bool scaled = p1.units.comoving && p2.units.comoving && s1 > 0 && s2 > 0;
  if (comoving && out.units.comoving)
    out.units.scale_factor = out.time;
  else if (scaled)
    out.units.scale_factor = (1 - F) * s1 + F * s2;
  if (p1.redshift >= 0 && p2.redshift >= 0)
    out.redshift = comoving ? 1 / out.time - 1
                   : scaled ? 1 / out.units.scale_factor - 1
                            : (1 - F) * p1.redshift + F * p2.redshift;
  const int colours = !p1.colour[1].empty() && !p2.colour[1].empty() ? 3 : 1;
  const bool typed = !p1.type.empty() || !p2.type.empty();
  sized_from(out.x, reuse.x, n);
  sized_from(out.y, reuse.y, n);
  sized_from(out.z, reuse.z, n);
  sized_from(out.hsml, reuse.hsml, n);
  sized_from(out.intensity, reuse.intensity, n);
  for (int c = 0; c < colours; ++c)
    if (!p1.colour[c].empty() || !p2.colour[c].empty()) sized_from(out.colour[c], reuse.colour[c], n);
  if (typed) sized_from(out.type, reuse.type, n);
  reuse = ParticleSet();  // (what was not taken over goes now)
  auto colour_of = [](const ParticleSet& p, int c, std::size_t i) {
    return p.colour[c].empty() ? 1.0f : p.colour[c][i];
  };

#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n1; ++i) {
    const std::size_t j = match.partner[i];
    if (j == no_partner) {  // gone by the second snapshot: fades out where it was
      out.x[i] = p1.x[i], out.y[i] = p1.y[i], out.z[i] = p1.z[i], out.hsml[i] = p1.hsml[i];
      out.intensity[i] = (1 - f) * p1.intensity[i];
      for (int c = 0; c < colours; ++c)
        if (!out.colour[c].empty()) out.colour[c][i] = colour_of(p1, c, i);
      if (typed) out.type[i] = std::uint8_t(p1.type_of(i));
      continue;
    }
    const float a[3] = {p1.x[i], p1.y[i], p1.z[i]};
    const float b[3] = {nearest_image(a[0], p2.x[j], box), nearest_image(a[1], p2.y[j], box),
                        nearest_image(a[2], p2.z[j], box)};
    float x[3];
    if (hermite) {
      const float v1[3] = {p1.vx[i], p1.vy[i], p1.vz[i]}, v2[3] = {p2.vx[j], p2.vy[j], p2.vz[j]};
      for (int k = 0; k < 3; ++k) x[k] = float(a[k] + (double(b[k]) - a[k]) * hx + v1[k] * u1 * h1 + v2[k] * u2 * h2);
    } else {
      for (int k = 0; k < 3; ++k) x[k] = linear(a[k], b[k], f);
    }
    out.x[i] = x[0], out.y[i] = x[1], out.z[i] = x[2];
    out.hsml[i] = linear(p1.hsml[i], p2.hsml[j], f);
    out.intensity[i] = linear(p1.intensity[i], p2.intensity[j], f);
    for (int c = 0; c < colours; ++c)
      if (!out.colour[c].empty()) out.colour[c][i] = linear(colour_of(p1, c, i), colour_of(p2, c, j), f);
    if (typed) out.type[i] = std::uint8_t(p1.type_of(i));
  }
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < alone2.size(); ++k) {  // new in the second snapshot: fades in where it is
    const std::size_t j = alone2[k], i = n1 + k;
    out.x[i] = p2.x[j], out.y[i] = p2.y[j], out.z[i] = p2.z[j], out.hsml[i] = p2.hsml[j];
    out.intensity[i] = f * p2.intensity[j];
    for (int c = 0; c < colours; ++c)
      if (!out.colour[c].empty()) out.colour[c][i] = colour_of(p2, c, j);
    if (typed) out.type[i] = std::uint8_t(p2.type_of(j));
  }
  return out;
}

}  // namespace splotch
