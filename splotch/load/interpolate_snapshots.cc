#include "splotch/load/interpolate_snapshots.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "params/user_error.h"

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

namespace {

constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

// For each particle of the first snapshot, its match in the second (or none); each particle of the
// second is matched once at most (a repeated ID pairs in order of appearance).
std::vector<std::size_t> match_particles(std::size_t n1, const SnapshotMotion& m1, std::size_t n2,
                                         const SnapshotMotion& m2) {
  std::vector<std::size_t> match(n1, none);
  if (m1.id.empty() || m2.id.empty()) {
    if (!m1.id.empty() || !m2.id.empty() || n1 != n2)
      throw UserError("the snapshots cannot be matched particle by particle: " +
                      std::string(m1.id.empty() && m2.id.empty()
                                      ? "without IDs (Tipsy) they match by order, and "
                                        "they hold " +
                                            std::to_string(n1) + " and " + std::to_string(n2) + " particles"
                                      : "one has IDs and the other none") +
                      "; interpolate between snapshots of the same particles, or set interpolation_mode = 0");
    for (std::size_t i = 0; i < n1; ++i) match[i] = i;
    return match;
  }
  std::vector<std::size_t> by_id(n2);
  for (std::size_t j = 0; j < n2; ++j) by_id[j] = j;
  std::stable_sort(by_id.begin(), by_id.end(), [&](std::size_t a, std::size_t b) { return m2.id[a] < m2.id[b]; });
  std::vector<std::size_t> first_of(n1, none);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n1; ++i) {
    const auto at = std::lower_bound(by_id.begin(), by_id.end(), m1.id[i],
                                     [&](std::size_t j, std::uint64_t id) { return m2.id[j] < id; });
    if (at != by_id.end() && m2.id[*at] == m1.id[i]) first_of[i] = std::size_t(at - by_id.begin());
  }
  std::vector<char> taken(n2, 0);
  for (std::size_t i = 0; i < n1; ++i) {
    for (std::size_t k = first_of[i]; k != none && k < n2 && m2.id[by_id[k]] == m1.id[i]; ++k)
      if (!taken[by_id[k]]) {
        taken[by_id[k]] = 1;
        match[i] = by_id[k];
        break;
      }
  }
  return match;
}

float linear(float a, float b, float f) { return (1 - f) * a + f * b; }

// The second position's image nearest the first in a periodic box.
float nearest_image(float x1, float x2, double box) {
  if (!(box > 0)) return x2;
  const double d = double(x2) - double(x1);
  return d > 0.5 * box ? float(x2 - box) : d < -0.5 * box ? float(x2 + box) : x2;
}

}  // namespace

ParticleSet interpolate_snapshots(const ParticleSet& p1, const SnapshotMotion& m1, const ParticleSet& p2,
                                  const SnapshotMotion& m2, double fraction, const InterpolationOptions& o,
                                  InterpolationCounts* counts) {
  const std::size_t n1 = p1.size(), n2 = p2.size();
  const std::vector<std::size_t> match = match_particles(n1, m1, n2, m2);
  std::vector<char> matched2(n2, 0);
  std::size_t matched = 0;
  for (std::size_t i = 0; i < n1; ++i)
    if (match[i] != none) matched2[match[i]] = 1, ++matched;
  if (counts) *counts = {matched, n1 - matched, n2 - matched};
  if (fraction <= 0) return p1;
  if (fraction >= 1) return p2;
  const bool hermite = o.mode == 2;
  if (hermite && (m1.vx.size() != n1 || m2.vx.size() != n2))
    throw UserError(
        "interpolation_mode = 2 needs both snapshots' velocities; the snapshot has none here: use "
        "interpolation_mode = 1 (linear)");
  const double u1 = hermite ? velocity_to_fraction(m1.scale_factor, m1.scale_factor, m2.scale_factor, o) : 0;
  const double u2 = hermite ? velocity_to_fraction(m2.scale_factor, m1.scale_factor, m2.scale_factor, o) : 0;
  const double box = o.periodic ? p1.box_size : 0;
  const float f = float(fraction);
  const double F = fraction, h1 = F - 2 * F * F + F * F * F, h2 = F * F * F - F * F, hx = 3 * F * F - 2 * F * F * F;

  // The second snapshot's particles without a match, after the first's.
  std::vector<std::size_t> alone2;
  for (std::size_t j = 0; j < n2; ++j)
    if (!matched2[j]) alone2.push_back(j);
  const std::size_t n = n1 + alone2.size();
  ParticleSet out;
  out.box_size = p1.box_size > 0 ? p1.box_size : p2.box_size;
  for (ParticleArray<float>* v : {&out.x, &out.y, &out.z, &out.hsml, &out.intensity}) v->resize(n);
  const int colours = !p1.colour[1].empty() && !p2.colour[1].empty() ? 3 : 1;
  for (int c = 0; c < colours; ++c)
    if (!p1.colour[c].empty() || !p2.colour[c].empty()) out.colour[c].resize(n);
  const bool typed = !p1.type.empty() || !p2.type.empty();
  if (typed) out.type.resize(n);
  auto colour_of = [](const ParticleSet& p, int c, std::size_t i) {
    return p.colour[c].empty() ? 1.0f : p.colour[c][i];
  };

#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n1; ++i) {
    const std::size_t j = match[i];
    if (j == none) {  // gone by the second snapshot: fades out where it was
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
      const float v1[3] = {m1.vx[i], m1.vy[i], m1.vz[i]}, v2[3] = {m2.vx[j], m2.vy[j], m2.vz[j]};
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
