"use strict";
// The page's map mode (issue 42): the quantitative map (column, average, slice: docs/maps.md) drawn
// by the server instead of the picture, for the same camera; its values fetched once the view
// rests, the value and the position under the cursor read from them, and probes pinned by a click
// that keep their place in the snapshot as the view moves. Only declarations here: page.js, which
// loads after this file, calls them.

let shownMap = null;   // the facts of the map shown (its picture's headers); null for a picture
let mapValues = null;  // the last full map's values: {xres, yres, data, frame}
const pins = [];       // probes pinned by a click, as points of the snapshot (code units)
let mapSerial = 0;     // counts the maps' values fetched

// A map's facts from its picture's headers (X-Splotch-Map-*), null for a picture.
function mapFacts(r) {
  const scale = r.headers.get("X-Splotch-Map-Scale");
  if (!scale) return null;
  const [lo, hi, kind] = scale.split(" ");
  const [pixel, ...unitWords] = (r.headers.get("X-Splotch-Map-Pixel") || "1").split(" ");
  const f = frameOf(r.headers.get("X-Splotch-Map-Frame"));
  const size = (r.headers.get("X-Splotch-Size") || "").split("x").map(Number);
  return {
    quantity: r.headers.get("X-Splotch-Map") || "",
    unit: r.headers.get("X-Splotch-Map-Unit") || "",
    lo: +lo,
    hi: +hi,
    log: kind === "log",
    pixel: +pixel,
    length_unit: unitWords.join(" "),
    xres: size[0] || 0,  // (the map shown: a reduced one is smaller, its pixels larger)
    frame: f
  };
}
// A map's frame from its header: centre, x and y axes, a pixel's side (code units); null if none.
function frameOf(text) {
  const f = (text || "").split(" ").map(Number);
  return f.length === 10 ? {centre: f.slice(0, 3), x: f.slice(3, 6), y: f.slice(6, 9), side: f[9]} : null;
}

// The values of this browser's last full map (float32, little-endian, in the rows of its picture).
async function fetchMapValues(facts) {
  const r = await fetch("map?" + new URLSearchParams({token, client}));
  if (!r.ok) {
    mapValues = null;
    return;
  }
  const [xres, yres] = r.headers.get("X-Splotch-Map-Size").split(" ").map(Number);
  const bytes = new DataView(await r.arrayBuffer());
  const data = new Float32Array(xres * yres);
  for (let i = 0; i < data.length; ++i) data[i] = bytes.getFloat32(4 * i, true);
  // (the frame of the values fetched: a newer map than the picture's may have come meanwhile)
  const frame = frameOf(r.headers.get("X-Splotch-Map-Frame")) || facts.frame;
  mapValues = {xres, yres, data, frame, unit: facts.unit, serial: ++mapSerial};
}

// A pixel's centre in the snapshot (its rows grow with the map's y), and the pixel of a point.
function pixelPoint(m, px, py) {
  const f = m.frame;
  return add(add(f.centre, mul(f.x, (px + 0.5 - m.xres / 2) * f.side)), mul(f.y, (py + 0.5 - m.yres / 2) * f.side));
}
function pointPixel(m, p) {
  const f = m.frame, d = sub(p, f.centre);
  return [Math.floor(dot(d, f.x) / f.side + m.xres / 2), Math.floor(dot(d, f.y) / f.side + m.yres / 2)];
}
// The value at pixel (px, py), or undefined outside the map.
function mapValueAt(m, px, py) {
  if (px < 0 || py < 0 || px >= m.xres || py >= m.yres) return undefined;
  return m.data[py * m.xres + px];
}
const valueText = (v) => v === undefined ? "outside the map" : v !== v ? "no value (no particle reaches)" : gText(v, 5);
const pointText = (p) => p.map((c) => gText(c, 6)).join(", ");

// The probe under the cursor: the pixel under the event, its value with the unit, its point.
function probeAt(e) {
  if (!mapValues || !mapValues.frame || !picture.naturalWidth) return null;
  const box = picture.getBoundingClientRect();
  const px = Math.floor((e.clientX - box.left) / box.width * mapValues.xres);
  const py = Math.floor((e.clientY - box.top) / box.height * mapValues.yres);
  const value = mapValueAt(mapValues, px, py);
  return {px, py, value, point: value === undefined ? null : pixelPoint(mapValues, px, py)};
}
function showProbe(probe) {
  const el = $("probe");
  if (!probe || probe.value === undefined) {
    el.textContent = "";
    return;
  }
  el.textContent = valueText(probe.value) + " " + mapValues.unit + " at " + pointText(probe.point);
  el.dataset.pixel = probe.px + " " + probe.py;
  el.dataset.value = String(probe.value);
}
// The pinned probes, each read again from the map shown (the same point, wherever the view put it).
function showPins() {
  const list = $("pins");
  list.textContent = "";
  pins.forEach((p, i) => {
    const row = document.createElement("div");
    const at = mapValues && mapValues.frame ? pointPixel(mapValues, p) : null;
    const value = at ? mapValueAt(mapValues, at[0], at[1]) : undefined;
    row.textContent = (i + 1) + ": " +
        (!mapValues ? "(no map shown)" : valueText(value) + (value === undefined ? "" : " " + mapValues.unit)) +
        " at " + pointText(p);
    row.dataset.value = String(value);
    list.appendChild(row);
  });
  $("clear_pins").style.display = pins.length ? "" : "none";
}
// Where the pins lie on the picture shown, as fractions of its width and height (numbers.js
// paints them).
function pinMarks() {
  if (!mapValues || !mapValues.frame) return [];
  return pins.map((p, i) => {
    const [px, py] = pointPixel(mapValues, p);
    return {n: i + 1, x: (px + 0.5) / mapValues.xres, y: (py + 0.5) / mapValues.yres};
  });
}

// The map fieldset: the mode (the picture, or a map), per type its quantity and an average's
// weight (a field listed, or MASS), the slab's depth, the scale.
function mapControls() {
  const mode = $("map");
  mode.value = view.map || "";
  const typed = $("map_types");
  for (let t = 0; t < info.ptypes; ++t) {
    const names = [...((info.types[t] && info.types[t].fields) || [])];
    if (!names.length) continue;  // (a raw table's map takes its I and C1 columns, as bin/splotch)
    if (!names.includes("MASS")) names.unshift("MASS");
    for (const stem of ["map_quantity", "map_weight"]) {
      const label = document.createElement("label");
      label.textContent =
          (stem === "map_quantity" ? "quantity" : "weight") + (info.ptypes > 1 ? " (type " + t + ")" : "") + " ";
      const select = document.createElement("select");
      select.id = stem + t;
      const none = document.createElement("option");
      none.textContent = "default";
      none.value = "";
      select.appendChild(none);
      for (const n of names) {
        const o = document.createElement("option");
        o.value = n;
        o.textContent = fieldText(info.types, t, n);  // (a file's names as text, not markup)
        select.appendChild(o);
      }
      select.value = view[stem + t] || "";
      select.addEventListener("change", () => {
        if (select.value)
          view[stem + t] = select.value;
        else
          delete view[stem + t];
        if (view.map) changed(false);
      });
      label.appendChild(select);
      typed.appendChild(label);
    }
  }
  mode.addEventListener("change", () => {
    if (mode.value)
      view.map = mode.value;
    else
      delete view.map;
    changed(false);
  });
  const number = (id) => $(id).addEventListener("change", () => {
    if ($(id).value === "")
      delete view[id];
    else if (isNumber($(id).value))
      view[id] = $(id).value;
    else
      return;
    if (view.map) changed(false);
  });
  for (const id of ["map_width", "map_depth", "map_min", "map_max"]) {
    $(id).value = view[id] || "";
    number(id);
  }
  $("map_log").checked = view.map_log === undefined ? true : isTrue(view.map_log);
  $("map_log").addEventListener("change", () => {
    view.map_log = boolText($("map_log").checked);
    if (view.map) changed(false);
  });
  $("clear_pins").addEventListener("click", () => {
    pins.length = 0;
    showPins();
    drawNumbers();
  });
}
