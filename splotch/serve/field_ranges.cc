#include "splotch/serve/field_ranges.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "splotch/stages/map_units.h"

namespace splotch {

FieldUnit field_unit(const std::string& field, const SnapshotUnits& units) {
  const MapUnits u = map_units(MapMode::average, field, "MASS", units, MapUnitOptions{});
  if (!u.physical || u.value_name.empty() || u.value_name.rfind("code", 0) == 0) return {};
  return {u.value_name, u.value};
}

std::optional<std::pair<double, double>> raw_range(const LoadedSnapshot& loaded, int type, bool colour) {
  const ParticleSet& p = loaded.particles;
  const ParticleArray<float>& values = colour ? loaded.raw.colour[0] : loaded.raw.intensity;
  const std::size_t n = p.size();
  if (values.size() != n) return std::nullopt;
  const float* v = values.data();
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi)
  for (std::size_t i = 0; i < n; ++i)
    if (p.type_of(i) == type && std::isfinite(v[i])) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
  if (!(lo <= hi)) return std::nullopt;
  return std::make_pair(double(lo), double(hi));
}

}  // namespace splotch
