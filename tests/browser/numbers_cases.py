"""Issue 42, numbers on the picture, in the real browser (run by serve_page_test.py, whose helpers
`page` holds): each type's colour bar with ticks at the range the server used, the scale bar in the
snapshot's length unit for the camera's width at lookat, the axes as the camera sees them, the
redshift of a real snapshot (../shared/data), each shown and hidden with its checkbox, and Save PNG
with numbers: the picture at its own size with them burnt in."""
import json
import math
import os
import struct
import zlib

from map_cases import map_cases

# The share of the canvas's opaque pixels in a box ([x0, y0, x1, y1] in its pixels; fractions of its
# width and height where all are at most 1).
OPAQUE = """
const c = document.getElementById('numbers');
let [x0, y0, x1, y1] = arguments[0];
if (Math.max(x0, y0, x1, y1) <= 1) x0 *= c.width, x1 *= c.width, y0 *= c.height, y1 *= c.height;
const g = c.getContext('2d');
const X0 = Math.ceil(x0), Y0 = Math.ceil(y0);
const d = g.getImageData(X0, Y0, Math.max(1, Math.floor(x1) - X0), Math.max(1, Math.floor(y1) - Y0)).data;
let n = 0;
for (let i = 3; i < d.length; i += 4) if (d[i] > 200) ++n;
return n / (d.length / 4);
"""


def facts(driver):
    text = driver.js("return document.getElementById('numbers').dataset.facts || '';")
    return json.loads(text) if text else None


def png_size_and_rows(path):
    """A PNG's width, height and its rows as bytes (8-bit RGB or RGBA, no interlace: as Chromium's
    canvas writes them)."""
    data = open(path, "rb").read()
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = head[0], head[1], head[2], head[3]
    channels = {2: 3, 6: 4}[colour]
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line[k] for k in range(stride) if channels == 3 or k % 4 != 3))
        previous = line
    assert depth == 8
    return width, height, rows


def camera_frame(view):
    """The renderer's camera frame (docs/design.md, Geometry), from the view's keys."""
    three = lambda stem, d: [float(view.get(stem + "_" + c, d[i])) for i, c in enumerate("xyz")]
    cam, look, sky = three("camera", [0, 0, 0]), three("lookat", [0, 0, 0]), three("sky", [0, 0, 1])
    unit = lambda v: [c / math.sqrt(sum(x * x for x in v)) for c in v]
    cross = lambda a, b: [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    z = unit([c - l for c, l in zip(cam, look)])
    x = unit(cross(unit(sky), z))
    return x, cross(z, x), z, math.dist(cam, look)


def nice(v):
    """1, 2 or 5 times a power of ten."""
    mantissa = v / 10 ** math.floor(math.log10(v) + 1e-12)
    return any(abs(mantissa - m) < 1e-9 * m for m in (1, 2, 5))


def numbers_cases(driver, url, downloads, page):
    check = page.check
    driver.go(url)
    page.settled(driver, 0)
    got = page.wait_for(lambda: (lambda f: f if f and f["bars"] else None)(facts(driver)), "the numbers' facts")
    info = driver.js("return info;")
    view = driver.js("return view;")
    used = info["types"][0]["colour_used"]
    bar = got["bars"][0]
    check(bar["type"] == 0 and bar["log"] and [bar["lo"], bar["hi"]] == used,
          "type 0's colour bar spans the range the server used, log10 (%s; used %s)" % ([bar["lo"], bar["hi"]], used))
    # Its ticks: nice values, where the log scale puts them, every decade of the range among them.
    ticks = bar["ticks"]
    where = [(math.log10(t["value"]) - used[0]) / (used[1] - used[0]) for t in ticks]
    decades = [10.0 ** k for k in range(math.ceil(used[0] - 1e-9), math.floor(used[1] + 1e-9) + 1)]
    check(len(ticks) >= 2 and all(nice(t["value"]) for t in ticks) and
          all(abs(w - t["position"]) < 1e-9 and -1e-9 <= w <= 1 + 1e-9 for w, t in zip(where, ticks)) and
          all(any(abs(t["value"] - d) < 1e-9 * d for t in ticks) for d in decades) and
          [t["value"] for t in ticks] == sorted(t["value"] for t in ticks),
          "the colour bar's ticks are nice values at their places on the log range %s (%s)" %
          (used, [(t["value"], round(t["position"], 4)) for t in ticks]))
    # The scale bar: a nice length, its share of the picture's width at lookat.
    x, y, z, dist = camera_frame(view)
    width = 2 * dist * math.tan(float(view.get("fov", 45)) * math.pi / 360) * info["length_per_code"]
    scale = got["scale"]
    check(scale and nice(scale["length"]) and abs(scale["fraction"] - scale["length"] / width) < 1e-9 and
          0.09 < scale["fraction"] < 0.41 and scale["unit"] == info["length_unit"],
          "the scale bar: %s %s of the %.4g wide view at lookat (%s)" %
          (scale and scale["length"], info["length_unit"], width, scale))
    axes = {a["name"]: a for a in got["axes"]}
    want = {n: (x[i], y[i], z[i]) for i, n in enumerate("xyz")}
    check(all(abs(axes[n]["right"] - want[n][0]) < 1e-9 and abs(axes[n]["down"] - want[n][1]) < 1e-9 and
              abs(axes[n]["towards"] - want[n][2]) < 1e-9 for n in "xyz"),
          "the axes as the camera sees them (%s)" % axes)
    check(got["when"] == "", "a raw table records no time: none shown (%r)" % got["when"])
    # What the canvas shows: the bar's band at the bottom, the scale bar, the axes at the top right,
    # and nothing over the picture's middle.
    drawn = json.loads(driver.js("return document.getElementById('numbers').dataset.drawn;"))
    size = driver.js("const c = document.getElementById('numbers'); return [c.width, c.height];")
    band, scale_bar = driver.js(OPAQUE, drawn["bands"][0]), driver.js(OPAQUE, drawn["scale"])
    triad, middle = driver.js(OPAQUE, drawn["axes"]), driver.js(OPAQUE, [0.3, 0.3, 0.7, 0.6])
    driver.screenshot("12_numbers.png")
    check(band > 0.99 and drawn["bands"][0][3] > 0.9 * size[1] and scale_bar > 0.99 and triad > 0.01 and
          drawn["axes"][0] > size[0] / 2 and drawn["axes"][3] < size[1] / 2 and middle == 0,
          "the canvas over the picture (%s): the colour bar's band %s at the bottom (%.2f opaque), the scale bar "
          "(%.2f), the axes %s at the top right (%.3f), the middle clear (%.3f)" %
          (size, drawn["bands"][0], band, scale_bar, drawn["axes"], triad, middle))
    # Each hidden with its checkbox.
    driver.click("#numbers_bars")
    driver.click("#numbers_axes")
    hidden = (driver.js(OPAQUE, drawn["bands"][0]), driver.js(OPAQUE, drawn["axes"]))
    shown = json.loads(driver.js("return document.getElementById('numbers').dataset.shown;"))
    now = json.loads(driver.js("return document.getElementById('numbers').dataset.drawn;"))
    # (the scale bar moves down to where the bars were: the band's place is not all clear)
    check(hidden[0] < 0.2 and hidden[1] == 0 and now["bands"] == [] and now["axes"] is None and
          now["scale"][1] > drawn["scale"][1] and not shown["bars"] and not shown["axes"] and shown["scale"],
          "the colour bars' and the axes' checkboxes hide them (opaque where they were: %.3f, %.3f; %s; the scale "
          "bar down to %s)" % (hidden[0], hidden[1], shown, now["scale"]))
    driver.click("#numbers_bars")
    driver.click("#numbers_axes")
    # An orbit turns the axes with the camera.
    n = page.frames(driver)
    driver.drag("#picture", 120, 0)
    page.settled(driver, n)
    turned = facts(driver)
    x2, y2, _, _ = camera_frame(driver.js("return view;"))
    moved = {a["name"]: a for a in turned["axes"]}
    check(abs(moved["x"]["right"] - x2[0]) < 1e-9 and abs(moved["y"]["right"] - x2[1]) < 1e-9 and
          abs(moved["x"]["right"] - axes["x"]["right"]) > 0.05,
          "after an orbit the axes turn with the camera (x right %.3f -> %.3f)" % (axes["x"]["right"], moved["x"]["right"]))
    # Save PNG with numbers: the full picture at its size, the numbers burnt in.
    before = set(os.listdir(downloads))
    driver.click("#save_figure")
    name = page.wait_for(lambda: [f for f in set(os.listdir(downloads)) - before
                                  if f.endswith(".png") and not f.endswith(".crdownload")], "the saved figure")[0]
    path = os.path.join(downloads, name)
    page.wait_for(lambda: os.path.getsize(path) > 0, "the saved figure's bytes")
    w, h, rows = png_size_and_rows(path)
    shown_png = page.settled(driver, 0)
    check(name == "view_numbers.png" and (w, h) == (shown_png["width"], shown_png["height"]),
          "Save PNG with numbers: %s, %d x %d as the picture" % (name, w, h))
    # Its bottom rows are the palette's band (coloured, not the picture's black sky).
    lit = sum(1 for v in rows[h - 8] if v > 40) / len(rows[h - 8])
    check(lit > 0.5, "the saved figure has the colour bar burnt in (%.2f of its row %d lit)" % (lit, h - 8))
    # The intensity range, with the data's beside it: a minimum typed, the maximum the one used.
    data = driver.js("return document.getElementById('intensity_range0').textContent;")
    used = driver.js("return ranges[0].intensity_used;")
    before = page.settled(driver, 0)
    n = page.frames(driver)
    driver.type_into("#intensity_min0", "%.6g" % (used[0] + 0.5 * (used[1] - used[0])) + page.ENTER)
    after = page.settled(driver, n)
    sent = driver.js("return [view.intensity_min0, view.intensity_max0];")
    check(data.startswith("data: ") and sent[1] is not None and abs(float(sent[1]) - used[1]) < 1e-4 * abs(used[1]) and
          after["bytes"] != before["bytes"],
          "an intensity minimum typed (%s beside it): sent with the maximum used (%s), a new picture" % (data, sent))


HOME, END = "\ue011", "\ue010"


def record_of(driver):
    """The server's record (used.par) of this page's last full picture, as {key: value}."""
    text = driver.js_async("const done = arguments[0]; fetch('par?' + new URLSearchParams({token, client}))"
                           ".then(r => r.text()).then(done);")
    return {l.split("=")[0].strip(): l.split("=")[1].split("#")[0].strip()
            for l in text.splitlines() if "=" in l and not l.startswith("#")}


def time_cases(driver, url, downloads, page):
    """The time slider through the series beside the file served (gadget4_lcdm_gas_snapshot_000 and
    _004, an even series of step 4): its start (Home) draws snapshot 0, its redshift over the
    picture; dragged, the times between the two drawn as they pass, interpolated."""
    check = page.check
    info = driver.js("return info;")
    shown = driver.js("return getComputedStyle(document.getElementById('time_box')).display;")
    check(info["series"] == [0, 4] and info["fidx"] == 4 and info["series_step"] == 4 and shown != "none",
          "the series beside the file: fidx %s (step %s), this one %s, the time slider shown (%s)" %
          (info["series"], info.get("series_step"), info["fidx"], shown))
    if info["series"] != [0, 4]:
        return
    before = page.settled(driver, 0)
    scale_before = json.loads(driver.js("return document.getElementById('numbers').dataset.facts;"))["scale"]
    width = driver.js("return document.getElementById('time_slider').getBoundingClientRect().width;")
    driver.click_at("#time_slider", -int(width / 2) + 3)
    n = page.frames(driver)
    page.press(driver, HOME)
    after = page.settled(driver, n)
    state = driver.js("return [view.fidx, document.getElementById('time_text').textContent,"
                      "JSON.parse(document.getElementById('numbers').dataset.facts).when];")
    fidx = record_of(driver).get("fidx")
    check(state[0] == "0" and after["bytes"] != before["bytes"] and "z = 5.04" in state[1] and state[2] == "z = 5.04"
          and fidx == "0",
          "the slider at its start draws fidx 0: %r, the numbers say %r, its record fidx %s" % (state[1], state[2], fidx))
    # The scale bar's physical lengths shrink with the scale factor (a = 0.1656 at z = 5.04).
    scale_after = json.loads(driver.js("return document.getElementById('numbers').dataset.facts;"))["scale"]
    ratio = scale_after["width"] / scale_before["width"]
    check(abs(ratio - 1 / (1 + 5.04010535)) < 1e-3,
          "the scale bar at fidx 0: the view's width %.4g kpc, %.4f of fidx 4's (a = 1 / (1 + z) = %.4f)" %
          (scale_after["width"], ratio, 1 / (1 + 5.04010535)))
    driver.screenshot("18_time_slider.png")
    # Dragged a third of the way: reduced pictures between the snapshots as it moves, the full one
    # where it rests, whose record bin/splotch draws by the linear interpolation.
    n = page.frames(driver)
    driver.js("window.seen_ = []; new MutationObserver(() => seen_.push([picture.dataset.quality, view.fidx]))"
              ".observe(picture, {attributes: true, attributeFilter: ['data-frames']});")
    driver.drag("#time_slider", int(width / 3), 0, steps=6)
    middle = page.settled(driver, n)
    seen = driver.js("return seen_;")
    state = driver.js("return [view.fidx, document.getElementById('time_text').textContent,"
                      "JSON.parse(document.getElementById('numbers').dataset.facts).when, picture.dataset.quality];")
    used = record_of(driver)
    between = [s for s in seen if s[0] == "reduced" and s[1] and float(s[1]) not in (0, 4)]
    z = float(state[2].split("=")[1]) if state[2].startswith("z = ") else None
    check(state[3] == "full" and 0 < float(state[0]) < 4 and float(state[0]) != int(float(state[0])) and
          "between 0 and 4" in state[1] and used.get("fidx") == state[0] and used.get("interpolation_mode") == "1" and
          used.get("snapshot_spacing") == "4" and between and z is not None and 0 < z < 5.04 and
          middle["bytes"] != after["bytes"],
          "the slider dragged: reduced pictures between the snapshots (%s), the full one at fidx %s (%r, %r; its record "
          "fidx %s, interpolation_mode %s, snapshot_spacing %s)" %
          (between[:3], state[0], state[1], state[2], used.get("fidx"), used.get("interpolation_mode"),
           used.get("snapshot_spacing")))
    driver.screenshot("19_time_between.png")
    # A path through time: a keyframe at fidx 0, the slider to 4, another; its scene file takes the
    # snapshots' interpolation.
    n = page.frames(driver)
    driver.click_at("#time_slider", -int(width / 2) + 3)
    page.press(driver, HOME)
    page.settled(driver, n)
    page.press(driver, "k")
    n = page.frames(driver)
    page.press(driver, END)
    page.settled(driver, n)
    page.press(driver, "k")
    count = driver.js("return document.getElementById('key_count').textContent;")
    for f in os.listdir(downloads):  # (the earlier scene file: Chromium would write over it)
        if f.endswith(".txt"):
            os.remove(os.path.join(downloads, f))
    before = set(os.listdir(downloads))
    driver.click("#save_scene")
    try:
        name = page.wait_for(lambda: [f for f in set(os.listdir(downloads)) - before
                                      if f.endswith(".txt") and not f.endswith(".crdownload")], "the scene file")[0]
    except RuntimeError:
        check(False, "a path through time's scene file saved (%r; the page says %r; downloads %s)" %
              (count, driver.js("return document.getElementById('error').textContent;"), sorted(os.listdir(downloads))))
        return
    scene = page.wait_for(lambda: open(os.path.join(downloads, name)).read(), "the scene file's text").splitlines()
    check(count == "2 keyframes, through fidx 0, 4" and scene[0].endswith("fidx interpolation_mode snapshot_spacing")
          and scene[1].endswith(" 0 1 4") and scene[-1].endswith(" 4 1 4") and len(scene) == 101,
          "a path through time: %r, its scene file %r ... %r (%d rows)" % (count, scene[1], scene[-1], len(scene) - 1))
    # Render movie here draws such a path too (an even series: between its snapshots as the scene
    # does); asked first, then left (its frames would go beside the snapshot).
    driver.click("#render_movie")
    asked = page.wait_for(lambda: driver.js("const a = document.getElementById('movie_ask');"
                                            "return a && a.style.display !== 'none' ? "
                                            "document.getElementById('movie_estimate').textContent : '';"),
                          "the movie's estimate")
    check(asked.startswith("100 frames of 800 x 800"),
          "Render movie here on a path through time asks with its estimate (%r)" % asked[:100])
    driver.click("#movie_back")
    driver.click("#clear_keys")


def snapshot_cases(driver, snapshot, work, downloads, page):
    """A real snapshot alone (no .par): its redshift over the picture, the scale bar in its
    physical length unit."""
    server, url = page.start_server(snapshot, work, "real")
    try:
        driver.go(url)
        page.settled(driver, 0)
        got = page.wait_for(lambda: facts(driver), "the numbers' facts")
        info = driver.js("return info;")
        driver.screenshot("13_numbers_real_snapshot.png")
        check = page.check
        check(info["redshift"] is not None and got["when"] == "z = %s" % ("%.3g" % info["redshift"]),
              "%s: its redshift over the picture (%r; the header's %s)" %
              (os.path.basename(snapshot), got["when"], info["redshift"]))
        check(got["scale"] and got["scale"]["unit"] == info["length_unit"] and info["length_unit"] != "code length"
              and nice(got["scale"]["length"]),
              "the scale bar in the file's physical length unit (%s %s)" %
              (got["scale"] and got["scale"]["length"], info["length_unit"]))
        check(len(got["bars"]) >= 1 and len(got["bars"][0]["ticks"]) >= 2,
              "its colour bar with ticks (%s)" % [(b["name"], len(b["ticks"])) for b in got["bars"]])
        # The colour field chosen from the file's (a select of real clicks): the server reads it and
        # draws it; the colour bar names it and spans its range.
        listed = driver.js("return [...document.querySelectorAll('#color_label0 option')].map(o => o.value);")
        texts = driver.js("return [...document.querySelectorAll('#color_label0 option')].map(o => o.textContent);")
        units = dict(zip(info["types"][0]["fields"], info["types"][0]["field_units"]))
        check(info["types"][0]["fields"] == [f for f in listed if f != "none"] and "InternalEnergy" in listed and
              units.get("InternalEnergy") and "InternalEnergy (%s)" % units["InternalEnergy"] in texts,
              "type 0's colour fields listed as the file has them, with the units it declares (%s)" % texts)
        if "InternalEnergy" in listed:
            before = page.settled(driver, 0)
            n = page.frames(driver)
            driver.click("#color_label0")
            driver.click("#color_label0 option:nth-child(%d)" % (listed.index("InternalEnergy") + 1))
            after = page.settled(driver, n)
            switched = page.wait_for(lambda: (lambda f: f if f and f["bars"] and "InternalEnergy" in f["bars"][0]["name"]
                                              else None)(facts(driver)), "the colour bar of the new field")
            ranges = driver.js("return ranges[0];")
            check(driver.js("return view.color_label0;") == "InternalEnergy" and after["bytes"] != before["bytes"] and
                  [switched["bars"][0]["lo"], switched["bars"][0]["hi"]] == ranges["colour_used"] and
                  ranges["colour_used"] != info["types"][0]["colour_used"],
                  "InternalEnergy chosen: a new picture, its colour bar %r over its range %s (Density's: %s)" %
                  (switched["bars"][0]["name"], ranges["colour_used"], info["types"][0]["colour_used"]))
            # The field's range as read, in its list once read (snapshot 4's, which --info gives as
            # 0.0235577 to 639751, in (km/s)^2 as Gadget's code units are).
            text = page.wait_for(lambda: [t for t in driver.js(
                "return [...document.querySelectorAll('#color_label0 option')].map(o => o.textContent);")
                if t.startswith("InternalEnergy (") and ": " in t], "InternalEnergy's range in its list")[0]
            check(text == "InternalEnergy ((km/s)^2): 0.0236 to 6.4e+05",
                  "InternalEnergy listed with its range as read (%r)" % text)
            widths = driver.js("const p = document.getElementById('panel'); return [p.scrollWidth, p.clientWidth];")
            check(widths[0] <= widths[1] + 1,
                  "the panel keeps its width with the fields' units and ranges (%d of %d px)" % tuple(widths))
            driver.screenshot("14_colour_field.png")
        map_cases(driver, url, page)
        time_cases(driver, url, downloads, page)
    finally:
        page.stop_server(server)
