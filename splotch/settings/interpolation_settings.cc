// The keys of interpolation between snapshots (the original's): interpolation_mode, a fractional
// fidx, snapshot_spacing, and for mode 2 hubble, omega, lambda, l_unit, v_unit. A frame at
// fidx = 92.25 (spacing 1) reads snapshot 92 as a frame at fidx = 92 does, so that the cache knows
// it by the same signature, and snapshot 93 as a frame at fidx = 93 would.
#include <cmath>
#include <string>

#include "errors/user_error.h"
#include "params/number_text.h"
#include "splotch/settings/settings.h"
#include "splotch/settings/settings_keys.h"

namespace splotch {

std::optional<InterpolationPoint> interpolation_point(ParamFile& p) {
  const int mode = p.get<int>("interpolation_mode", 0);
  if (mode < 0 || mode > 2)
    throw UserError(at(p, "interpolation_mode") + " = " + std::to_string(mode) +
                    " is not 0 (none), 1 (linear) or 2 (cubic, with the velocities)");
  if (mode == 0 || !p.has("fidx")) return std::nullopt;
  const std::string text = p.peek("fidx");
  const double fidx = parse_real(text, at(p, "fidx"));
  const int spacing = p.get<int>("snapshot_spacing", 1);
  if (spacing < 1)
    throw UserError(at(p, "snapshot_spacing") + " = " + std::to_string(spacing) +
                    " must be at least 1: the snapshot numbers between two that a movie interpolates");
  if (!(fidx >= 0) || fidx > 999999)
    throw UserError(at(p, "fidx") + " = " + text +
                    " must be a snapshot number from 0 (with a fraction to interpolate)");
  InterpolationPoint point;
  point.mode = mode;
  point.first = int(std::floor(fidx / spacing)) * spacing;
  point.second = point.first + spacing;
  point.fraction = (fidx - point.first) / spacing;
  point.fidx_text = text;
  point.origin = p.origin("fidx");
  p.set("fidx", std::to_string(point.first), point.origin);  // what reading the first snapshot sees
  if (point.fraction == 0) return std::nullopt;              // snapshot `first` itself
  return point;
}

InterpolationSettings read_interpolation(ParamFile& p, const InterpolationPoint& point, const SnapshotRequest& first) {
  InterpolationSettings s;
  s.between = true;
  s.fraction = point.fraction;
  s.first = point.first;
  s.second = point.second;
  ParamFile q = p;
  q.set("fidx", std::to_string(point.second), point.origin);
  const std::size_t mark = q.lookup_mark();
  s.second_input = read_snapshot_request(q);
  // The copy's record began with the first snapshot's fidx (the first look-up decides it): the
  // second's signature must read as a frame at fidx = second would.
  q.resolve("fidx", std::to_string(point.second), "");
  s.second_input_keys = q.looked_up_since(mark);
  if (s.second_input.format != first.format)
    throw UserError(at(p, "fidx") + " = " + point.fidx_text + ": snapshots " + std::to_string(point.first) + " and " +
                    std::to_string(point.second) + " are of different formats");
  InterpolationOptions& o = s.options;
  o.mode = point.mode;
  o.periodic = first.periodic;
  if (o.mode == 2) {
    o.hubble = p.get<double>("hubble", o.hubble);
    o.omega = p.get<double>("omega", o.omega);
    o.lambda = p.get<double>("lambda", o.lambda);
    o.l_unit = p.get<double>("l_unit", o.l_unit);
    o.v_unit = p.get<double>("v_unit", o.v_unit);
  }
  // The record keeps the frame's own fidx.
  p.set("fidx", point.fidx_text, point.origin);
  p.get<std::string>("fidx");
  p.resolve("fidx", point.fidx_text,
            "between snapshots " + std::to_string(point.first) + " and " + std::to_string(point.second) + ", " +
                number_text(100 * point.fraction) + "% of the way");
  return s;
}

}  // namespace splotch
