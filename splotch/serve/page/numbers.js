"use strict";
// The numbers over the picture (issue 42): each type's colour bar with the values at its ticks, a
// scale bar in the snapshot's length unit, the snapshot's axes as the camera sees them, and the
// redshift or time. They are worked out (numbersFacts) from the server's info and the keys of the
// view the picture was drawn for, then painted (paintNumbers) on a canvas over the picture, or
// over a copy of the picture at its own size for a saved figure. Only declarations here: page.js,
// which loads after this file, calls them.

// As C's "%g" (the command line's figures label their ticks so): `digits` significant digits,
// exponent form below 1e-4 and from 10^digits, trailing zeros dropped.
function gText(v, digits = 6) {
  if (v === 0 || !isFinite(v)) return String(v);
  const exponent = +v.toExponential(digits - 1).split("e")[1];
  const trim = (m) => m.includes(".") ? m.replace(/0+$/, "").replace(/\.$/, "") : m;
  if (exponent < -4 || exponent >= digits) {
    const [m, e] = v.toExponential(digits - 1).split("e");
    return trim(m) + "e" + (+e < 0 ? "-" : "+") + String(Math.abs(+e)).padStart(2, "0");
  }
  return trim(v.toPrecision(digits));
}

// The nice step (1, 2 or 5 times a power of ten) at or above `raw`.
function niceStep(raw) {
  const decade = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5])
    if (m * decade >= raw * (1 - 1e-9)) return m * decade;
  return 10 * decade;
}

// The ticks of a scale {log, lo, hi} (values, not exponents): decades (and 2, 5 where there are
// few), or nice linear steps; as the command line's colour bars (splotch/frame/map_figure.cc).
function scaleTicks(s) {
  let ticks = [];
  if (s.log) {
    const first = Math.ceil(Math.log10(s.lo) - 1e-9), last = Math.floor(Math.log10(s.hi) + 1e-9);
    const few = last - first < 2;
    for (let k = first - 1; k <= last; ++k)
      for (const m of few ? [1, 2, 5] : [1]) {
        const v = m * Math.pow(10, k);
        if (v >= s.lo * (1 - 1e-9) && v <= s.hi * (1 + 1e-9)) ticks.push(+v.toPrecision(12));
      }
  }
  if (ticks.length < 2) {  // a linear scale, or a log one too narrow for two ticks
    ticks = [];
    const step = niceStep((s.hi - s.lo) / (s.log ? 4 : 5));
    for (let v = Math.ceil(s.lo / step - 1e-9) * step, n = 0; v <= s.hi + 1e-9 * step && n < 100; v += step, ++n)
      if (!s.log || v > 0) ticks.push(Math.abs(v) < 1e-12 * step ? 0 : +v.toPrecision(12));
  }
  return ticks;
}

// A colour bar's ticks: {value, position} with position 0 (the palette's start) to 1. `lo`, `hi`
// are the range used, in the transformed values (log10 of the values for color_logN): a log bar's
// ticks are values (10^lo to 10^hi) where a double holds them, else exponents.
function barTicks(lo, hi, log) {
  if (!(hi > lo) || !isFinite(lo) || !isFinite(hi)) return [];
  const decades = log && lo > -300 && hi < 300;
  const s = {log: decades, lo: decades ? Math.pow(10, lo) : lo, hi: decades ? Math.pow(10, hi) : hi};
  const at = (v) =>
      s.log ? (Math.log10(v) - Math.log10(s.lo)) / (Math.log10(s.hi) - Math.log10(s.lo)) : (v - s.lo) / (s.hi - s.lo);
  return scaleTicks(s)
      .map((v) => ({value: v, position: at(v)}))
      .filter((t) => t.position >= -1e-9 && t.position <= 1 + 1e-9)
      .map((t) => ({value: t.value, position: Math.min(1, Math.max(0, t.position))}));
}

// A scale bar's length: 1, 2 or 5 times a power of ten, about a fifth of `width`.
const scaleBarLength = (width) => niceStep(width / 5) > width / 3 ? niceStep(width / 10) : niceStep(width / 5);

// What the numbers say for the picture of `keys` (the view's keys as the page sent them, the
// first picture's where it sent none), from the server's `info` and the types' last `ranges`; for
// a map (`map`: its facts, map_mode.js), its one colour bar and its own pixel's side, and the
// probes pinned on it (`pins`: where they lie, as fractions of the picture's width and height).
function numbersFacts(info, keys, ranges, map = null, pins = []) {
  const key = (k) => keys[k] !== undefined ? keys[k] : info.keys[k];
  const truthy = (v) => /^(t|true|yes|1)$/i.test(String(v || ""));
  const three = (stem, fallback) => ["x", "y", "z"].map((c, i) => {
    const v = key(stem + "_" + c);
    return v === undefined || v === "" ? fallback[i] : +v;
  });
  const facts = {bars: [], scale: null, axes: [], when: "", pins};
  if (map) {
    const colours =
        (info.palette_colours || {})[key("palette0")] || (info.palette_colours || {}).fire || ["#000000", "#ffffff"];
    const [lo, hi] = map.log ? [Math.log10(map.lo), Math.log10(map.hi)] : [map.lo, map.hi];
    facts.bars.push({
      type: -1,
      name: map.quantity + " [" + map.unit + "]",
      lo,
      hi,
      log: map.log,
      asinh: false,
      colours,
      ticks: barTicks(lo, hi, map.log)
    });
  }
  for (let t = 0; t < info.ptypes && !map; ++t) {
    const colours = (info.palette_colours || {})[key("palette" + t)];
    const range = ranges[t] && (ranges[t].colour_used || ranges[t].colour_data);
    const hidden = key("brightness" + t) !== undefined && +key("brightness" + t) === 0;
    if ((info.colour_vector || [])[t] || !colours || !colours.length || !range || hidden) continue;
    const log = truthy(key("color_log" + t)), asinh = truthy(key("color_asinh" + t));
    const label = "type " + t + ": " + (key("color_label" + t) || (info.colour_labels || [])[t] || "colour");
    const decades = log && range[0] > -300 && range[1] < 300;
    facts.bars.push({
      type: t,
      name: asinh         ? "asinh(" + label + ")" :
          log && !decades ? "log10(" + label + ")" :
                            label,
      lo: range[0],
      hi: range[1],
      log,
      asinh,
      colours,
      ticks: barTicks(range[0], range[1], log)
    });
  }
  // The camera's frame, as the renderer's (docs/design.md, Geometry): z from lookat to the camera,
  // x = sky x z, y = z x x; the picture's rows grow with y (a picture's +sky points down).
  const camera = three("camera", [0, 0, 0]), lookat = three("lookat", [0, 0, 0]);
  const sky = three("sky", [0, 0, 1]);
  const z = unit(sub(camera, lookat)), x = unit(cross(unit(sky), z)), y = cross(z, x);
  const distance = norm(sub(camera, lookat));
  const xres = +(key("xres") || 800);
  if (map && map.pixel > 0) {  // (a map's width: map_width, the box, or the view's at lookat)
    const width = map.pixel * (map.xres || xres), length = scaleBarLength(width);
    facts.scale = {length, unit: map.length_unit || "code length", fraction: length / width, width};
  } else if (info.length_per_code > 0 && distance > 0) {
    // The picture's width at lookat's distance (fov spans the width), in the length unit.
    const fov = +(key("fov") || 45);
    const width = 2 * distance * Math.tan(fov * Math.PI / 360) * info.length_per_code;
    const length = scaleBarLength(width);
    facts.scale = {length, unit: info.length_unit || "code length", fraction: length / width, width};
  }
  ["x", "y", "z"].forEach((name, i) => {
    const e = [0, 0, 0];
    e[i] = 1;
    // right and down on the picture, and towards the camera
    facts.axes.push({name, right: dot(e, x), down: dot(e, y), towards: dot(e, z)});
  });
  // (a file that records no time, a raw table, says time 0: no time is shown for it)
  if (info.redshift !== null && info.redshift !== undefined)
    facts.when = "z = " + gText(info.redshift, 3);
  else if (Math.abs(info.time) > 1e-30 && isFinite(info.time))  // (not a header's garbage, as the figures judge)
    facts.when = "t = " + gText(info.time, 4);
  return facts;
}

// Paints `facts` on a 2-D context of w x h pixels, text `fs` pixels high: the colour bars from the
// bottom up (each a band under a row of its name and tick values), the scale bar above them at the
// left, the axes at the top right, the time at the top left. `which` says which are shown. Returns
// where each was painted ([x0, y0, x1, y1] in the context's pixels): the bars' bands, the scale
// bar, the axes' box.
function paintNumbers(g, w, h, fs, facts, which) {
  const drawn = {bands: [], scale: null, axes: null};
  g.save();
  g.font = fs + "px sans-serif";
  g.textBaseline = "top";
  const pad = Math.round(fs / 2), white = "#ffffff";
  // Text reads on any picture with a dark rim.
  const text = (s, x, yTop) => {
    g.lineWidth = Math.max(2, fs / 5);
    g.strokeStyle = "rgba(0, 0, 0, 0.85)";
    g.strokeText(s, x, yTop);
    g.fillStyle = white;
    g.fillText(s, x, yTop);
  };
  let bottom = h - pad;
  if (which.bars) {
    for (const b of facts.bars) {
      const band = Math.max(6, Math.round(fs * 0.8)), left = pad, right = w - pad;
      const top = bottom - band, textTop = top - fs - 4;
      if (textTop < 0) break;
      g.fillStyle = "rgba(0, 0, 0, 0.5)";
      g.fillRect(left - 2, textTop - 2, right - left + 4, bottom - textTop + 4);
      const gradient = g.createLinearGradient(left, 0, right, 0);
      const n = b.colours.length;
      b.colours.forEach((c, i) => gradient.addColorStop(n > 1 ? i / (n - 1) : 0, c));
      g.fillStyle = gradient;
      g.fillRect(left, top, right - left, band);
      drawn.bands.push([left, top, right, top + band]);
      text(b.name, left + 2, textTop);
      let freeFrom = left + 2 + g.measureText(b.name).width + fs;  // tick labels right of the name only
      for (const t of b.ticks) {
        const at = left + t.position * (right - left);
        g.fillStyle = white;
        g.fillRect(Math.round(at) - 1, top - 3, 2, 3);
        const label = gText(t.value), lw = g.measureText(label).width;
        const lx = Math.min(Math.max(at - lw / 2, left), right - lw);
        if (lx < freeFrom) continue;  // it would cover the name or the label before it
        text(label, lx, textTop);
        freeFrom = lx + lw + fs / 2;
      }
      bottom = textTop - pad;
    }
  }
  if (which.scale && facts.scale) {
    const length = facts.scale.fraction * w, thick = Math.max(2, Math.round(fs / 5));
    const y = bottom - thick, left = pad * 2;
    if (length >= 2 && y > fs * 2) {
      g.fillStyle = "rgba(0, 0, 0, 0.85)";
      g.fillRect(left - 1, y - 1, length + 2, thick + 2);
      g.fillStyle = white;
      g.fillRect(left, y, length, thick);
      drawn.scale = [left, y, left + length, y + thick];
      text(gText(facts.scale.length) + " " + facts.scale.unit, left, y - fs - 4);
    }
  }
  if (which.axes && facts.axes.length) {
    const arm = fs * 2, cx = w - pad - arm - fs, cy = pad + arm + fs;
    const colours = {x: "#ff6b6b", y: "#7ee787", z: "#79c0ff"};
    drawn.axes = [cx - arm - fs, cy - arm - fs, cx + arm + fs, cy + arm + fs];
    // The axes that point away from the camera first, so that the nearer ones are drawn over them.
    for (const a of [...facts.axes].sort((p, q) => p.towards - q.towards)) {
      const ex = cx + a.right * arm, ey = cy + a.down * arm;
      g.globalAlpha = a.towards < -0.05 ? 0.55 : 1;  // (pointing away from the camera: fainter)
      g.strokeStyle = "rgba(0, 0, 0, 0.85)";
      g.lineWidth = Math.max(3, fs / 4);
      g.beginPath(), g.moveTo(cx, cy), g.lineTo(ex, ey), g.stroke();
      g.strokeStyle = colours[a.name];
      g.lineWidth = Math.max(1.5, fs / 8);
      g.beginPath(), g.moveTo(cx, cy), g.lineTo(ex, ey), g.stroke();
      const across = Math.hypot(a.right, a.down);
      if (across < 0.3) {  // along the view: a dot (towards the camera) or a ring (away), named beside it
        g.fillStyle = g.strokeStyle;
        g.beginPath(), g.arc(cx, cy, fs * 0.3, 0, 2 * Math.PI);
        if (a.towards > 0)
          g.fill();
        else
          g.stroke();
        text(a.name, cx - fs * 1.1, cy + fs * 0.2);
      } else {
        const lx = cx + a.right * (arm + fs * 0.6) / across * Math.min(1, across + 0.2) - fs * 0.3;
        const ly = cy + a.down * (arm + fs * 0.6) / across * Math.min(1, across + 0.2) - fs * 0.5;
        text(a.name, lx, ly);
      }
      g.globalAlpha = 1;
    }
  }
  if (which.when && facts.when) text(facts.when, pad * 2, pad);
  for (const p of facts.pins || []) {  // a cross at each pinned probe, with its number
    const x = p.x * w, y = p.y * h, r = Math.max(4, fs / 2);
    for (const [colour, width] of [["rgba(0, 0, 0, 0.85)", Math.max(3, fs / 5)], ["#ffffff", Math.max(1.5, fs / 10)]]) {
      g.strokeStyle = colour;
      g.lineWidth = width;
      g.beginPath(), g.moveTo(x - r, y), g.lineTo(x + r, y), g.moveTo(x, y - r), g.lineTo(x, y + r), g.stroke();
    }
    text(String(p.n), x + r, y - fs - 1);
  }
  g.restore();
  return drawn;
}

// A field's name as the page's lists show it: with its unit where the file declares one, and its
// range as read once the server has read it (info's types: field_units, field_ranges).
function fieldText(types, t, name) {
  const type = (types && types[t]) || {};
  const k = (type.fields || []).indexOf(name);
  const unit = k >= 0 && type.field_units ? type.field_units[k] : "";
  const range = type.field_ranges && type.field_ranges[name];
  return name + (unit ? " (" + unit + ")" : "") + (range ? ": " + range.map((v) => gText(v, 3)).join(" to ") : "");
}
