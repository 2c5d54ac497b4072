"use strict";
const query = new URLSearchParams(location.search);
const token = query.get("token") || "";
const client = Math.random().toString(36).slice(2, 12);
const $ = (id) => document.getElementById(id);
const picture = $("picture");
let info = null;
const view = {};                                          // rendering keys the page sends, as text
let fullBlob = null;                                      // the last full picture, for Save PNG
let inFlight = null, pending = null, lastRequest = null;  // inFlight: the quality of the picture asked for
let sent = 0, frames = 0, lastFull = null;
let ranges = [];  // per type: the data's and the used colour and intensity ranges of the last full picture
let shownKeys = {}, fullKeys = {};  // the keys of the picture shown and of the last full one
let fullMap = null;                 // the last full picture's map facts (map_mode.js), null for a picture
let shownWhen = null;               // the time and redshift of the snapshot shown

// ---- vectors -------------------------------------------------------------------------------
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mul = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.sqrt(dot(a, a));
const unit = (a) => mul(a, 1 / (norm(a) || 1));
// Rodrigues: v turned by angle about the unit axis k.
const rotate = (v, k, angle) => {
  const c = Math.cos(angle), s = Math.sin(angle);
  return add(add(mul(v, c), mul(cross(k, v), s)), mul(k, dot(k, v) * (1 - c)));
};
const vec = (name) => [+view[name + "_x"], +view[name + "_y"], +view[name + "_z"]];
const setVec = (name, v) => {
  ["x", "y", "z"].forEach((c, i) => view[name + "_" + c] = String(+v[i].toPrecision(9)));
};

// ---- the camera ----------------------------------------------------------------------------
function orbit(dx, dy) {
  const look = vec("lookat"), sky = unit(vec("sky"));
  let off = sub(vec("camera"), look);
  off = rotate(off, sky, -dx * 0.008);
  const right = unit(cross(mul(off, -1), sky));
  // (a drag down takes the camera up the picture, towards -y: a picture's +sky points down, and
  // the scene turns with the pointer as it does sideways)
  const turned = rotate(off, right, dy * 0.008);
  // Not over the pole: the view would flip about sky.
  if (Math.abs(dot(unit(turned), sky)) < 0.995) off = turned;
  setVec("camera", add(look, off));
}
function pan(dx, dy) {
  const cam = vec("camera"), look = vec("lookat");
  const dir = sub(look, cam), dist = norm(dir);
  // The renderer's x and y (docs/design.md, Geometry): a picture's rows grow with y (its +sky
  // points down), so the scene follows the pointer when the camera moves by -x dx - y dy.
  const right = unit(cross(dir, vec("sky"))), down = unit(cross(right, dir));
  // fov spans the picture's width (as the renderer projects).
  const w = +(view.xres || 800);
  const scale = 2 * dist * Math.tan((+view.fov || 45) * Math.PI / 360) / w;
  const shift = add(mul(right, -dx * scale), mul(down, -dy * scale));
  setVec("camera", add(cam, shift));
  setVec("lookat", add(look, shift));
}
// A box dragged on the picture (alt- or ctrl-drag; fractions of its width and height, rows from the top)
// becomes the view: lookat to its centre, the camera nearer by its size. A map's width is set
// (a periodic box's map along an axis is otherwise the box's), and a slab's depth (map_depth)
// with it, so that the region is as deep as it is wide.
function zoomToBox(ax, ay, bx, by) {
  const cam = vec("camera"), look = vec("lookat");
  const dir = sub(look, cam), dist = norm(dir);
  const right = unit(cross(dir, vec("sky"))), down = unit(cross(right, dir));
  const xres = +(view.xres || 800), yres = +(view.yres || xres);
  const mapWidth = shownMap && shownMap.frame ? shownMap.frame.side * (shownMap.xres || xres) : null;
  const width = mapWidth || 2 * dist * Math.tan((+view.fov || 45) * Math.PI / 360), height = width * yres / xres;
  const shift = add(mul(right, ((ax + bx) / 2 - 0.5) * width), mul(down, ((ay + by) / 2 - 0.5) * height));
  const factor = Math.max(Math.abs(bx - ax), Math.abs(by - ay), 1e-3);
  const lookat = add(look, shift);
  setVec("lookat", lookat);
  setVec("camera", add(lookat, mul(sub(cam, look), factor)));
  if (view.map) {
    view.map_width = String(+(width * factor).toPrecision(9));
    if (view.map_depth) view.map_depth = view.map_width;
    for (const id of ["map_width", "map_depth"])
      if ($(id)) $(id).value = view[id] || "";
  }
}
function zoom(factor) {
  const look = vec("lookat");
  setVec("camera", add(look, mul(sub(vec("camera"), look), factor)));
}
function fly(forward, sideways) {
  const cam = vec("camera"), look = vec("lookat");
  const dir = sub(look, cam), dist = norm(dir);
  const right = unit(cross(dir, vec("sky")));
  const step = add(mul(unit(dir), forward * dist * 0.05), mul(right, sideways * dist * 0.05));
  setVec("camera", add(cam, step));
  setVec("lookat", add(look, step));
}
function roll(angle) {
  setVec("sky", rotate(vec("sky"), unit(sub(vec("lookat"), vec("camera"))), angle));
}

// ---- requests ------------------------------------------------------------------------------
function viewUrl(quality) {
  const p = new URLSearchParams({token, client, quality});
  for (const [k, v] of Object.entries(view))
    if (v !== "" && v !== undefined) p.set(k, v);
  return "view?" + p.toString();
}

// What went wrong, over the picture: the server's warnings for the last picture, an error, and a
// button for a fix a warning names (exposure = F, which the exposure field sets).
function notice(error, warnings) {
  $("error").textContent = error || "";
  $("warnings").textContent = (warnings || "").split(" | ").join("\n");
  const fixes = $("fixes");
  fixes.textContent = "";
  const named = /exposure = ([0-9.eE+-]+) \(every brightness times that\)/.exec(warnings || "");
  if (named) {
    const fix = document.createElement("button");
    fix.id = "set_exposure";
    fix.textContent = "Set exposure = " + named[1];
    fix.addEventListener("click", () => setExposure(named[1]));
    fixes.appendChild(fix);
  }
  $("notice").classList.toggle("shown", !!(error || warnings));
}
$("notice_close").addEventListener("click", () => $("notice").classList.remove("shown"));

// The newest view asked for is sent when the picture in flight comes back; a full picture in
// flight is replaced at once (the server stops drawing it), a reduced one (quick) is waited for.
function request(quality) {
  pending = quality;
  if (inFlight === null || inFlight === "full") send();
}
async function send() {
  if (pending === null) return;
  const quality = pending;
  pending = null;
  inFlight = quality;
  const mine = ++sent;
  const started = performance.now();
  lastRequest = viewUrl(quality);
  const asked = Object.assign({}, view);
  let r = null, failure = null;
  try {
    r = await fetch(lastRequest);
    if (r.status === 200)
      r.blob_ = await r.blob();
    else if (r.status !== 204)
      r.text_ = await r.text();
  } catch (e) { failure = e; }
  if (mine !== sent) return;  // a newer one replaced it (the server answers it 204)
  inFlight = null;
  if (failure) {
    notice("the server does not answer (" + failure + "): is bin/splotch --serve still running?", "");
  } else if (r.status === 200) {
    showPicture(r, quality, performance.now() - started, asked);
  } else if (r.status === 503) {  // busy or stopping: asked again in a moment
    notice(r.text_, "");
    if (pending === null) setTimeout(() => request(quality), 1000);
  } else if (r.status !== 204) {
    notice(r.text_, "");
    picture.dataset.settled = "1";
  }
  send();
}
function showPicture(r, quality, ms, asked) {
  const old = picture.src;
  picture.src = URL.createObjectURL(r.blob_);
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
  shownKeys = asked;
  shownMap = mapFacts(r);
  // The snapshot drawn (of a series, its own): its time and redshift for the numbers.
  const length = (r.headers.get("X-Splotch-Length") || "").split(" ");
  shownWhen = {
    time: +(r.headers.get("X-Splotch-Time") || 0),
    redshift: r.headers.get("X-Splotch-Redshift"),
    length_per_code: length.length > 1 ? +length[0] : info.length_per_code,
    length_unit: length.length > 1 ? length.slice(1).join(" ") : info.length_unit
  };
  showTime();
  if (quality === "full") {
    fullBlob = r.blob_, fullKeys = asked, fullMap = shownMap;
    if (shownMap)
      fetchMapValues(shownMap).then(() => (showPins(), drawNumbers()));
    else
      mapValues = null, showPins();
  }
  picture.dataset.quality = quality;
  picture.dataset.frames = String(++frames);
  $("timing").textContent = quality + " " + r.headers.get("X-Splotch-Size") + ", " +
      r.headers.get("X-Splotch-Particles") + " particles, " + r.headers.get("X-Splotch-Renderer") + ": " +
      ms.toFixed(0) + " ms (" + (1000 * +r.headers.get("X-Splotch-Seconds")).toFixed(0) + " ms drawing)";
  $("timing").title = r.headers.get("X-Splotch-Stages") || "";
  const notes = r.headers.get("X-Splotch-Notes") || "";
  $("notes").textContent = notes.split(" | ").join("\n");
  const found = /exposure = auto: every brightness times ([0-9.eE+-]+)/.exec(notes);
  if (found && $("exposure_auto").checked) $("exposure").value = found[1];
  notice("", r.headers.get("X-Splotch-Warnings") || "");
  if (quality === "full") {
    lastFull = {seconds: +r.headers.get("X-Splotch-Seconds"), bytes: r.blob_.size};
    picture.dataset.settled = "1";
    refreshRanges();
  }
}

let restTimer = null;
// A change: a reduced picture now, the full one once the view rests.
function changed(moving) {
  showCamera();
  picture.dataset.settled = "0";
  if (moving) request("reduced");
  clearTimeout(restTimer);
  restTimer = setTimeout(() => request("full"), moving ? 200 : 0);
}

// ---- the mouse and keys --------------------------------------------------------------------
let drag = null;
// The pointers down on the picture (a touch screen's fingers): one drags, two pinch to zoom.
const pointers = new Map();
let pinch = null;  // the distance between two fingers at the last move
const spread = () => {
  const [a, b] = [...pointers.values()];
  return Math.hypot(a.x - b.x, a.y - b.y);
};
picture.addEventListener("pointerdown", (e) => {
  pointers.set(e.pointerId, {x: e.clientX, y: e.clientY});
  picture.setPointerCapture(e.pointerId);
  if (pointers.size === 2) {  // a second finger: a pinch instead of the drag
    drag = null;
    pinch = spread();
    return;
  }
  drag = {
    x: e.clientX,
    y: e.clientY,
    pan: e.shiftKey,
    moved: 0,
    box: e.altKey || e.ctrlKey ? [e.clientX, e.clientY] : null
  };
  picture.style.cursor = "grabbing";
});
picture.addEventListener("pointermove", (e) => {
  if (pointers.has(e.pointerId)) pointers.set(e.pointerId, {x: e.clientX, y: e.clientY});
  if (pinch !== null && pointers.size === 2) {
    const now = spread();
    if (now > 0 && pinch > 0 && now !== pinch) {
      zoom(pinch / now);  // fingers apart: closer
      pinch = now;
      changed(true);
    }
    return;
  }
  if (!drag) {
    showProbe(probeAt(e));  // (over a map: the value under the cursor)
    return;
  }
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (dx === 0 && dy === 0) return;
  drag.moved += Math.abs(dx) + Math.abs(dy);
  if (drag.box) {  // alt-drag: the box drawn, the view changed when it is let go
    drag.x = e.clientX, drag.y = e.clientY;
    const stage = $("stage").getBoundingClientRect(), b = $("zoom_box");
    Object.assign(b.style, {
      display: "block",
      left: Math.min(drag.box[0], e.clientX) - stage.left + "px",
      top: Math.min(drag.box[1], e.clientY) - stage.top + "px",
      width: Math.abs(e.clientX - drag.box[0]) + "px",
      height: Math.abs(e.clientY - drag.box[1]) + "px"
    });
    return;
  }
  drag.x = e.clientX;
  drag.y = e.clientY;
  // The picture may be shown smaller than it is: moves count in its own pixels.
  const scale = (+view.xres || picture.naturalWidth) / (picture.clientWidth || 1);
  if (drag.pan || e.shiftKey)
    pan(dx * scale, dy * scale);
  else
    orbit(dx, dy);
  changed(true);
});
const endDrag = (e) => {
  pointers.delete(e.pointerId);
  if (pinch !== null) {
    if (pointers.size < 2) {
      pinch = null;
      clearTimeout(restTimer);
      request("full");
    }
    return;
  }
  if (drag) {
    const moved = drag.moved, box = drag.box;
    drag = null;
    picture.style.cursor = "grab";
    if (box) {
      $("zoom_box").style.display = "none";
      const r = picture.getBoundingClientRect();
      const f = (x, y) => [(x - r.left) / r.width, (y - r.top) / r.height];
      const [ax, ay] = f(box[0], box[1]), [bx, by] = f(e.clientX, e.clientY);
      if (Math.abs(bx - ax) > 0.01 && Math.abs(by - ay) > 0.01) {
        zoomToBox(ax, ay, bx, by);
        changed(false);
      }
      return;
    }
    if (moved < 3) {  // a click: over a map, a probe pinned; the view has not moved
      const probe = probeAt(e);
      if (probe && probe.point) pins.push(probe.point), showPins(), drawNumbers();
      if (moved === 0) return;
    }
    clearTimeout(restTimer);
    request("full");
  }
};
picture.addEventListener("pointerleave", () => showProbe(null));
picture.addEventListener("pointerup", endDrag);
picture.addEventListener("pointercancel", endDrag);
picture.addEventListener("wheel", (e) => {
  e.preventDefault();
  zoom(Math.exp(Math.sign(e.deltaY) * Math.min(Math.abs(e.deltaY), 200) * 0.002));
  changed(true);
}, {passive: false});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    showHelp(false);
    return;
  }
  // (keys typed into a field are the field's; a slider or a box keeps only its arrows and space)
  const typing = e.target.tagName === "SELECT" ||
      (e.target.tagName === "INPUT" && e.target.type !== "range" && e.target.type !== "checkbox");
  if (typing) return;
  if (e.key === "?") {
    showHelp(!$("help").classList.contains("shown"));
    return;
  }
  const k = e.key.toLowerCase();
  if (k === "h") {
    home();
    return;
  }
  if (k === "w")
    fly(1, 0);
  else if (k === "s")
    fly(-1, 0);
  else if (k === "a")
    fly(0, -1);
  else if (k === "d")
    fly(0, 1);
  else if (k === "q")
    roll(-0.05);
  else if (k === "e")
    roll(0.05);
  else if (k === "k") {
    addKey();
    return;
  } else
    return;
  changed(true);
});

// ---- the view's numbers, the first view, the help --------------------------------------------
const cameraFields = ["camera_x", "camera_y", "camera_z", "lookat_x", "lookat_y", "lookat_z"];
// The camera's and lookat's fields show the view as it moves (not the one being typed into).
function showCamera() {
  for (const k of cameraFields) {
    const el = $(k);
    if (el && document.activeElement !== el && view[k] !== undefined) el.value = view[k];
  }
}
function cameraControls() {
  for (const k of cameraFields) {
    $(k).addEventListener("change", () => {
      if (!isNumber($(k).value)) return;
      view[k] = $(k).value;
      changed(false);
    });
  }
  showCamera();
}
// The first view's camera, lookat, sky and fov (the .par's, or the camera placed from the data).
let firstView = {};
function home() {
  for (const [k, v] of Object.entries(firstView)) view[k] = v;
  $("fov").value = view.fov || "";
  changed(false);
}
$("home").addEventListener("click", home);
function showHelp(on) {
  $("help").classList.toggle("shown", on);
}
$("help_button").addEventListener("click", () => showHelp(!$("help").classList.contains("shown")));
$("help_close").addEventListener("click", () => showHelp(false));
// Each control says the .par key it sets (what Save .par writes).
function keyTooltips() {
  const said = {exposure_auto: "exposure = auto: the factor found again for every picture"};
  for (const el of document.querySelectorAll("#panel input, #panel select")) {
    const shown = /^shown(\d+)$/.exec(el.id);
    const text = said[el.id] ||
        (shown                                  ? "brightness" + shown[1] + " = 0 hides the type" :
             el.id in view || browserKey(el.id) ? ".par key: " + el.id :
                                                  "");
    if (!text) continue;
    const xyz = el.closest(".xyz");
    if (xyz) {  // (three fields of one label: each its own key, the label all three)
      el.title = text;
      el.closest("label").title = ".par keys: " + [...xyz.querySelectorAll("input")].map((i) => i.id).join(", ");
      continue;
    }
    const label = el.closest("label") || el;
    label.title = el.title ? text + " (" + el.title + ")" : text;
  }
}
const browserKey = (id) =>
    /^(xres|yres|fov|a_eq_e|gray_absorption|exposure|camera_[xyz]|lookat_[xyz]|map|map_width|map_depth|map_log|map_min|map_max|fidx|((map_quantity|map_weight|brightness|palette|color_min|color_max|intensity_min|intensity_max|color_log|color_asinh|intensity_log|smooth_factor|color_label|intensity_label))\d+)$/
        .test(id);

// ---- the panel -----------------------------------------------------------------------------
// A number field sends its value when it is committed (Enter, or leaving the field), not at every
// keystroke: each would be a full picture.
function bind(id, key, toValue, fromValue) {
  const el = $(id);
  const isBox = el.type === "checkbox";
  if (isBox)
    el.checked = fromValue(view[key]);
  else
    el.value = fromValue(view[key]);
  el.addEventListener("change", () => {
    view[key] = toValue(isBox ? el.checked : el.value);
    changed(false);
  });
}
const boolText = (b) => b ? "TRUE" : "FALSE";
const isTrue = (v) => /^(t|true|yes|1)$/i.test(String(v || ""));
const isNumber = (v) => v !== undefined && v !== "" && isFinite(+v);

// A slider whose track, clicked, steps the value towards the click (as a scrollbar pages) instead
// of jumping there: a click beside the thumb of the brightness slider was a jump of decades.
function steppedTrack(slider, step) {
  slider.addEventListener("mousedown", (e) => {
    const box = slider.getBoundingClientRect();
    const thumb = 8;  // half the thumb's width
    const at = (+slider.value - +slider.min) / (+slider.max - +slider.min);
    const thumbX = box.left + thumb + at * (box.width - 2 * thumb);
    if (Math.abs(e.clientX - thumbX) <= thumb + 2) return;  // on the thumb: dragged as usual
    e.preventDefault();
    slider.value = String(+slider.value + (e.clientX > thumbX ? step : -step));
    slider.dispatchEvent(new Event("input"));
    slider.dispatchEvent(new Event("change"));
  });
}

// The exposure factor: the field's, unless exposure = auto is ticked.
function setExposure(factor) {
  $("exposure_auto").checked = false;
  $("exposure").disabled = false;
  $("exposure").value = factor;
  view.exposure = String(factor);
  changed(false);
}

// A range is sent whole or not at all: a minimum without a maximum takes the range used for the
// other end, shown in its field; an empty or reversed range is refused here, saying so.
function rangePair(n, stem, usedOf) {
  const lo = $(stem + "_min" + n), hi = $(stem + "_max" + n), hint = $(stem + "_hint" + n);
  const commit = () => {
    const used = usedOf();
    if (lo.value === "" && hi.value === "") {
      delete view[stem + "_min" + n];
      delete view[stem + "_max" + n];
    } else {
      if (lo.value === "" && used) lo.value = String(+used[0].toPrecision(6));
      if (hi.value === "" && used) hi.value = String(+used[1].toPrecision(6));
      if (!isNumber(lo.value) || !isNumber(hi.value) || +lo.value >= +hi.value) {
        hint.textContent = "the minimum must be below the maximum";
        return;
      }
      view[stem + "_min" + n] = lo.value;
      view[stem + "_max" + n] = hi.value;
    }
    hint.textContent = "";
    changed(false);
  };
  lo.value = view[stem + "_min" + n] || "";
  hi.value = view[stem + "_max" + n] || "";
  lo.addEventListener("change", commit);
  hi.addEventListener("change", commit);
}

function typePanel(t) {
  const n = String(t);
  const box = document.createElement("fieldset");
  box.innerHTML = `<legend>type ${n}</legend>
    <label>shown <input type="checkbox" id="shown${n}"></label>
    <label>brightness <input type="range" id="brightness${n}" min="-3" max="3" step="0.01">
      <span id="brightness_text${n}"></span></label>
    <label>palette <select id="palette${n}"></select></label>
    <label>colour field <select id="color_label${n}"></select></label>
    <label>intensity field <select id="intensity_label${n}"></select></label>
    <div class="range" id="fields_note${n}"></div>
    <label>colour min <input type="number" id="color_min${n}" step="any"></label>
    <label>colour max <input type="number" id="color_max${n}" step="any"></label>
    <div class="range" id="colour_range${n}"></div><div class="hint" id="color_hint${n}"></div>
    <label>colour log <input type="checkbox" id="color_log${n}"></label>
    <label>colour asinh <input type="checkbox" id="color_asinh${n}"></label>
    <label>intensity min <input type="number" id="intensity_min${n}" step="any"></label>
    <label>intensity max <input type="number" id="intensity_max${n}" step="any"></label>
    <div class="range" id="intensity_range${n}"></div><div class="hint" id="intensity_hint${n}"></div>
    <label>intensity log <input type="checkbox" id="intensity_log${n}"></label>
    <label>smooth_factor <input type="number" id="smooth_factor${n}" step="0.1" min="0.01"></label>`;
  $("types").appendChild(box);
  // Brightness on a log scale: the slider's value is log10 of it.
  const slider = $("brightness" + n);
  const shown = $("brightness_text" + n);
  const b = +(view["brightness" + n] || 1);
  slider.value = Math.log10(b > 0 ? b : 1);
  shown.textContent = b.toPrecision(3);
  slider.addEventListener("input", () => {
    const v = Math.pow(10, +slider.value);
    view["brightness" + n] = String(+v.toPrecision(6));
    shown.textContent = v.toPrecision(3);
    changed(true);
  });
  slider.addEventListener("change", () => changed(false));
  steppedTrack(slider, 0.1);
  // Hidden: brightnessN = 0 (neither light nor absorption), the slider's brightness kept for its return.
  const on = $("shown" + n);
  on.checked = !(b === 0 && view["brightness" + n] !== undefined);
  slider.disabled = !on.checked;
  let kept = view["brightness" + n];  // (as it was: the slider's steps would round it)
  on.addEventListener("change", () => {
    slider.disabled = !on.checked;
    if (!on.checked) kept = view["brightness" + n];
    const back = kept !== undefined && kept !== "0" ? kept : String(+Math.pow(10, +slider.value).toPrecision(6));
    view["brightness" + n] = on.checked ? back : "0";
    shown.textContent = on.checked ? (+view["brightness" + n]).toPrecision(3) : "hidden";
    changed(false);
  });
  if (!on.checked) shown.textContent = "hidden";
  if (!view["palette" + n]) view["palette" + n] = "";
  const pal = $("palette" + n);
  for (const name of info.palettes) {  // (names as text: a file's name is not markup)
    const option = document.createElement("option");
    option.textContent = name;
    pal.appendChild(option);
  }
  if (view["palette" + n])
    pal.value = view["palette" + n];
  else
    pal.selectedIndex = -1;
  pal.addEventListener("change", () => {
    view["palette" + n] = pal.value;
    changed(false);
  });
  fieldChoice(t, "color_label", "color");
  fieldChoice(t, "intensity_label", "intensity");
  rangePair(n, "color", () => ranges[t] && (ranges[t].colour_used || ranges[t].colour_data));
  rangePair(n, "intensity", () => ranges[t] && (ranges[t].intensity_used || ranges[t].intensity_data));
  for (const key of ["color_log", "color_asinh", "intensity_log"]) bind(key + n, key + n, boolText, isTrue);
  bind("smooth_factor" + n, "smooth_factor" + n, (v) => v, (v) => v || "1");
}

// The field that colours (color_labelN) or weighs (intensity_labelN) type t, from those the server
// lists for it; a new field's range is its data's (the range fields emptied), read by the server
// at the next picture.
function fieldChoice(t, stem, range) {
  const n = String(t), select = $(stem + n), names = [...((info.types[t] && info.types[t].fields) || [])];
  const current = view[stem + n] || "";
  if (!names.length) {
    select.closest("label").style.display = "none";
    if (stem === "color_label") $("fields_note" + n).textContent = info.fields_note || "";
    return;
  }
  if (current && !names.includes(current)) names.unshift(current);  // (the .par's, as it names it)
  for (const name of names) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = fieldText(info.types, t, name);  // (a file's names as text, not markup)
    select.appendChild(option);
  }
  if (current) {
    select.value = current;
  } else {  // (none given: colour 0, intensity 1 for every particle, as bin/splotch draws it)
    const none = document.createElement("option");
    none.textContent = "none";
    none.disabled = none.selected = true;
    select.prepend(none);
  }
  select.addEventListener("change", () => {
    view[stem + n] = select.value;
    for (const end of ["_min", "_max"]) {
      delete view[range + end + n];
      if ($(range + end + n)) $(range + end + n).value = "";
    }
    changed(false);
  });
}

async function refreshRanges() {
  try {
    const r = await fetch("info?" + new URLSearchParams({token, client}));
    if (!r.ok) return;
    const now = await r.json();
    ranges = now.types;
    drawNumbers();
    // The fields' lists with the ranges the server has read since.
    now.types.forEach((type, t) => {
      for (const stem of ["color_label", "intensity_label", "map_quantity", "map_weight"]) {
        const select = $(stem + t);
        if (!select) continue;
        for (const o of select.options)
          if (o.value && !o.disabled) o.textContent = fieldText(now.types, t, o.value);
      }
    });
    // Each range control with the data's range beside it (after log or asinh, as the ranges apply).
    now.types.forEach((t, i) => {
      for (const [id, data, used] of [
               ["colour_range", t.colour_data, t.colour_used],
               ["intensity_range", t.intensity_data, t.intensity_used]]) {
        const el = $(id + i);
        if (el && data)
          el.textContent = "data: " + data.map((v) => v.toPrecision(4)).join(" to ") +
              (used ? ", used: " + used.map((v) => v.toPrecision(4)).join(" to ") : "");
      }
    });
  } catch (e) { /* the next picture says whether the server is there */
  }
}

// ---- time: the snapshots of a series -------------------------------------------------------
// The slider moves through the series' snapshots (fidx). On an evenly numbered series it moves
// through the times between them too: dragged, each step is a reduced picture interpolated between
// the two snapshots the server holds, and the full one when it rests; else it steps from snapshot
// to snapshot, each read when the slider is let go.
const timeStep = () => (info && info.series_step) || 0;
function sliderFidx() {
  const series = info.series, v = +$("time_slider").value;
  if (!timeStep()) return series[v];
  // (a step of the slider is a hundredth of the series' step: numbers of two decimals at most)
  return Math.abs(v - Math.round(v)) < 1e-9 ? Math.round(v) : +v.toFixed(6);
}
function timeControls() {
  const series = info.series || [];
  if (series.length < 2) return;
  $("time_box").style.display = "";
  const slider = $("time_slider");
  const fidx = +(view.fidx || info.fidx);
  if (timeStep()) {
    slider.min = String(series[0]);
    slider.max = String(series[series.length - 1]);
    slider.step = String(timeStep() / 100);
    slider.value = String(fidx);
    slider.title = ".par key: fidx (the snapshot of the series served, or a time between two: drawn between " +
        "them while the slider is dragged, as interpolation_mode = 1 draws it)";
  } else {
    slider.max = String(series.length - 1);
    slider.value = String(Math.max(0, series.indexOf(fidx)));
  }
  slider.addEventListener("input", () => {
    showTime();
    if (!timeStep()) return;
    view.fidx = String(sliderFidx());
    changed(true);
  });
  slider.addEventListener("change", () => {
    view.fidx = String(sliderFidx());
    changed(false);
  });
  showTime();
}
function showTime() {
  const series = (info && info.series) || [];
  if (series.length < 2) return;
  const chosen = sliderFidx();
  const drawn = +(shownKeys.fidx || info.fidx);
  const between = series.includes(chosen) ? "" :
                                            " (between " + Math.floor(chosen / timeStep()) * timeStep() + " and " +
          (Math.floor(chosen / timeStep()) + 1) * timeStep() + ")";
  $("time_text").textContent = "fidx " + chosen + between + " of " + series.join(", ") +
      (chosen === drawn && shownWhen ? " (t = " + gText(shownWhen.time, 4) +
               (shownWhen.redshift !== null ? ", z = " + gText(+shownWhen.redshift, 3) : "") + ")" :
           timeStep() ? "" :
                        " (let go to draw it)");
}

// ---- the numbers over the picture (numbers.js) ----------------------------------------------
const numbersShown = () => ({
  bars: $("numbers_bars").checked,
  scale: $("numbers_scale").checked,
  axes: $("numbers_axes").checked,
  when: $("numbers_when").checked
});
// The server's info with the time and redshift of the snapshot shown.
function shownInfo() {
  if (!shownWhen) return info;
  return Object.assign({}, info, {
    time: shownWhen.time,
    redshift: shownWhen.redshift === null ? null : +shownWhen.redshift,
    length_per_code: shownWhen.length_per_code,
    length_unit: shownWhen.length_unit
  });
}
// On a canvas laid over the picture's box, at the screen's pixels; what it shows in its dataset
// (for a reader of the page, and its test).
function drawNumbers() {
  const canvas = $("numbers");
  if (!info || !picture.naturalWidth) return;
  const box = picture.getBoundingClientRect(), stage = $("stage").getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  Object.assign(canvas.style, {
    left: box.left - stage.left + "px",
    top: box.top - stage.top + "px",
    width: box.width + "px",
    height: box.height + "px"
  });
  canvas.width = Math.max(1, Math.round(box.width * ratio));
  canvas.height = Math.max(1, Math.round(box.height * ratio));
  const facts = numbersFacts(shownInfo(), shownKeys, ranges, shownMap, pinMarks()), which = numbersShown();
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, canvas.width, canvas.height);
  const drawn = paintNumbers(
      g, canvas.width, canvas.height, Math.round(Math.min(16, Math.max(11, box.height / 36)) * ratio), facts, which);
  canvas.dataset.facts = JSON.stringify(facts);
  canvas.dataset.drawn = JSON.stringify(drawn);
  canvas.dataset.shown = JSON.stringify(which);
}
picture.addEventListener("load", drawNumbers);
window.addEventListener("resize", drawNumbers);
for (const id of ["numbers_bars", "numbers_scale", "numbers_axes", "numbers_when"])
  $(id).addEventListener("change", drawNumbers);
// The last full picture at its own size with the numbers shown over it, as a PNG.
async function figureBlob() {
  const image = await createImageBitmap(fullBlob);
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const g = canvas.getContext("2d");
  g.drawImage(image, 0, 0);
  paintNumbers(
      g, image.width, image.height, Math.round(Math.min(32, Math.max(10, image.height / 40))),
      numbersFacts(shownInfo(), fullKeys, ranges, fullMap, pinMarks()), numbersShown());
  return new Promise((done) => canvas.toBlob(done, "image/png"));
}
$("save_figure").addEventListener("click", async () => {
  if (fullBlob) download(await figureBlob(), "view_numbers.png");
});

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}
$("save_png").addEventListener("click", () => {
  if (fullBlob) download(fullBlob, "view.png");
});
$("save_par").addEventListener("click", async () => {
  const r = await fetch("par?" + new URLSearchParams({token, client}));
  if (r.ok)
    download(await r.blob(), "view.par");
  else
    notice(await r.text(), "");
});

// ---- a path of keyframes, as a scene file or a movie rendered here --------------------------
const keyframes = [];
// A keyframe: the camera, lookat and sky, and on a series the snapshot (fidx), so that the path
// goes through time as well as space.
function addKey() {
  const key = [...vec("camera"), ...vec("lookat"), ...vec("sky")].map((v) => +v.toPrecision(9));
  if (info.series && info.series.length > 1) key.push(+(view.fidx || info.fidx));
  keyframes.push(key);
  const times = new Set(keyframes.map((k) => k[9]));
  $("key_count").textContent = keyframes.length + " keyframe" + (keyframes.length === 1 ? "" : "s") +
      (times.size > 1 ? ", through fidx " + [...times].join(", ") : "");
}
$("add_key").addEventListener("click", addKey);
$("clear_keys").addEventListener("click", () => {
  keyframes.length = 0;
  $("key_count").textContent = "0 keyframes";
});
function pathParams() {
  return {token, client, frames: $("movie_frames").value, keys: keyframes.map((k) => k.join(",")).join(";")};
}
$("save_scene").addEventListener("click", async () => {
  const r = await fetch("scene?" + new URLSearchParams(pathParams()));
  if (r.ok)
    download(await r.blob(), "path.txt");
  else
    notice(await r.text(), "");
});
const duration = (s) => s < 90 ? s.toFixed(0) + " s" :
    s < 5400                   ? (s / 60).toFixed(0) + " minutes" :
    s < 172800                 ? (s / 3600).toFixed(1) + " hours" :
                                 (s / 86400).toFixed(1) + " days";
const size = (b) => b < 1e6 ? (b / 1e3).toFixed(0) + " kB" :
    b < 1e9                 ? (b / 1e6).toFixed(0) + " MB" :
    b < 1e12                ? (b / 1e9).toFixed(1) + " GB" :
                              (b / 1e12).toFixed(1) + " TB";
function movieParams(confirm) {
  const p = new URLSearchParams(pathParams());
  for (const [k, v] of Object.entries(view))
    if (v !== "" && v !== undefined) p.set(k, v);
  if (confirm) p.set("confirm", "1");
  return p.toString();
}
// The movie is asked for in two steps: what it will take (from this view's last picture), shown
// here, and then, if the user goes on, the movie itself.
$("render_movie").addEventListener("click", async () => {
  const r = await fetch("movie?" + movieParams(false));
  if (r.status !== 200) {
    notice(await r.text(), "");
    return;
  }
  const m = await r.json();
  $("movie_estimate").textContent = m.frames + " frames of " + m.width + " x " + m.height + ", " + m.first_file +
      " to " + m.last_file + ": about " + duration(m.seconds) + " and " + size(m.bytes) +
      " (from this view's last picture)" +
      (m.free_bytes === null ? "" : "; the disk has " + size(m.free_bytes) + " free") +
      (m.fits ? "." : ": they do not fit, take fewer frames or a smaller picture.");
  $("movie_go").style.display = m.fits ? "" : "none";
  $("movie_ask").style.display = "";
});
$("movie_back").addEventListener("click", () => {
  $("movie_ask").style.display = "none";
});
$("movie_go").addEventListener("click", async () => {
  $("movie_ask").style.display = "none";
  const r = await fetch("movie?" + movieParams(true));
  if (r.status !== 202) {
    notice(await r.text(), "");
    return;
  }
  $("movie_progress").style.display = $("cancel_movie").style.display = "";
  followMovie();
});
$("cancel_movie").addEventListener("click", () => fetch("movie/cancel?" + new URLSearchParams({token})));
async function followMovie() {
  const r = await fetch("movie/progress?" + new URLSearchParams({token}));
  if (!r.ok) return;
  const m = await r.json();
  const bar = $("movie_progress");
  bar.max = m.total || 1;
  bar.value = m.done + m.failed;
  const left = m.done > 0 ? m.seconds / m.done * (m.total - m.done - m.failed) : 0;
  $("movie_status").textContent = (m.running       ? "rendering: " :
                                       m.cancelled ? "cancelled: " :
                                                     "done: ") +
      m.done + " of " + m.total + " frames written" +
      (m.failed ? ", " + m.failed + " failed (" + m.last_error + ")" : "") +
      (m.running ? ", about " + left.toFixed(0) + " s left" : "") + (m.last_file ? "; last: " + m.last_file : "");
  $("movie_status").dataset.state = m.running ? "running" : "done";
  if (m.running)
    setTimeout(followMovie, 500);
  else
    $("cancel_movie").style.display = "none";
}

// The exposure factor and exposure = auto (which finds the factor again for every picture).
function exposureControls() {
  const auto = $("exposure_auto"), field = $("exposure");
  auto.checked = view.exposure === "auto";
  field.value = isNumber(view.exposure) ? view.exposure : "1";
  field.disabled = auto.checked;
  field.addEventListener("change", () => {
    if (isNumber(field.value) && +field.value > 0) setExposure(field.value);
  });
  auto.addEventListener("change", () => {
    field.disabled = auto.checked;
    view.exposure = auto.checked ? "auto" : field.value;
    changed(false);
  });
}

// A .par may give one end of a range: the page sends both, the other the first picture's.
function wholeRanges() {
  ranges.forEach((t, i) => {
    for (const [stem, used] of [
             ["color", t.colour_used || t.colour_data], ["intensity", t.intensity_used || t.intensity_data]]) {
      const lo = stem + "_min" + i, hi = stem + "_max" + i;
      if ((lo in view) === (hi in view) || !used) continue;
      if (!(lo in view))
        view[lo] = String(used[0]);
      else
        view[hi] = String(used[1]);
    }
  });
}

async function start() {
  const r = await fetch("info?" + new URLSearchParams({token}));
  if (!r.ok) {
    notice(await r.text(), "");
    return;
  }
  info = await r.json();
  ranges = info.types;
  Object.assign(view, info.keys);
  wholeRanges();
  for (const k of ["xres", "yres", "fov", "gray_absorption"]) bind(k, k, (v) => v, (v) => v || "");
  $("xres").max = $("yres").max = info.max_side;
  bind("a_eq_e", "a_eq_e", boolText, (v) => v === undefined ? true : isTrue(v));
  exposureControls();
  for (let t = 0; t < info.ptypes; ++t) typePanel(t);
  mapControls();
  timeControls();
  for (const k of [...cameraFields, "sky_x", "sky_y", "sky_z", "fov"])
    if (view[k] !== undefined) firstView[k] = view[k];
  cameraControls();
  keyTooltips();
  if (info.snapshot) document.title = "splotch: " + info.snapshot.replace(/\/+$/, "").split("/").pop();
  request("full");
}
start();
