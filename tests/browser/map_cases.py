"""Issue 42, maps in the page, in the real browser (run by serve_page_test.py on a real snapshot,
whose helpers `page` holds): the map mode chosen with the select, the map's colour bar with its
unit and ticks on its scale, the value under the cursor against the server's array of the map
(GET /map), a click pinning a probe that keeps its point as the view orbits, and the picture back."""
import json
import math
import struct
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def pointer(driver, css, actions):
    """Real pointer actions from the element's centre (`actions`: moves as (dx, dy) from the
    centre, "down", "up")."""
    element = driver.find(css)
    steps = []
    for a in actions:
        if a == "down":
            steps.append({"type": "pointerDown", "button": 0})
        elif a == "up":
            steps.append({"type": "pointerUp", "button": 0})
        else:
            steps.append({"type": "pointerMove", "origin": {ELEMENT: element}, "x": a[0], "y": a[1], "duration": 30})
    driver.call("POST", driver.s("/actions"), {"actions": [
        {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": steps}]})
    driver.call("DELETE", driver.s("/actions"))


def choose(driver, select, text):
    """A select's option chosen with real clicks."""
    names = driver.js("return [...document.querySelectorAll(arguments[0] + ' option')].map(o => o.textContent);", select)
    index = next(i for i, n in enumerate(names) if n.startswith(text))
    driver.click(select)
    driver.click("%s option:nth-child(%d)" % (select, index + 1))


def server_map(url, client):
    """The server's values of the browser's last full map, as the page fetches them."""
    base, token = url.split("/?token=")
    with urllib.request.urlopen("%s/map?token=%s&client=%s" % (base, token, client)) as r:
        xres, yres = (int(v) for v in r.headers["X-Splotch-Map-Size"].split())
        data = r.read()
    return xres, yres, struct.unpack("<%df" % (xres * yres), data)


def map_cases(driver, url, page):
    check = page.check
    picture = page.settled(driver, 0)
    n = page.frames(driver)
    choose(driver, "#map", "column")
    page.settled(driver, n)
    page.wait_for(lambda: driver.js("return mapValues !== null && mapValues.xres > 0;"), "the map's values")
    shown = driver.js("return shownMap;")
    facts = json.loads(driver.js("return document.getElementById('numbers').dataset.facts;"))
    bar = facts["bars"][0]
    lo, hi = math.log10(shown["lo"]), math.log10(shown["hi"])
    check(shown["quantity"].startswith("column") and shown["unit"] in bar["name"] and len(facts["bars"]) == 1 and
          len(bar["ticks"]) >= 2 and all(abs((math.log10(t["value"]) - lo) / (hi - lo) - t["position"]) < 1e-9
                                         for t in bar["ticks"]),
          "map = column chosen: the map shown, its colour bar %r with ticks on its scale %.4g to %.4g (%s)" %
          (bar["name"], shown["lo"], shown["hi"], [t["value"] for t in bar["ticks"]]))
    check(facts["scale"] and facts["scale"]["unit"] == shown["length_unit"] and
          abs(facts["scale"]["width"] - shown["pixel"] * int(driver.js("return +(view.xres || 800);"))) < 1e-6 *
          facts["scale"]["width"], "the scale bar from the map's own pixel (%s)" % facts["scale"])
    driver.screenshot("15_map_column.png")

    # The value under the cursor: the pixel under the pointer, the server's value there.
    box = driver.js("const r = document.getElementById('picture').getBoundingClientRect();"
                    "return [r.width, r.height];")
    dx, dy = int(box[0] * 0.12), int(-box[1] * 0.08)
    pointer(driver, "#picture", [(dx - 5, dy), (dx, dy)])
    page.wait_for(lambda: driver.js("return document.getElementById('probe').textContent;"), "the probe")
    probe = driver.js("const p = document.getElementById('probe');"
                      "return [p.textContent, p.dataset.pixel, +p.dataset.value];")
    xres, yres, values = server_map(url, driver.js("return client;"))
    px, py = (int(v) for v in probe[1].split())
    # Where the pointer is: the element's centre plus the offset, in the map's pixels.
    want = (math.floor((box[0] / 2 + dx) / box[0] * xres), math.floor((box[1] / 2 + dy) / box[1] * yres))
    check(abs(px - want[0]) <= 1 and abs(py - want[1]) <= 1 and values[py * xres + px] == probe[2] and
          shown["unit"] in probe[0],
          "the value under the cursor: pixel %d,%d (the pointer's %s), %s = the server's map there (%.6g)" %
          (px, py, want, probe[0], values[py * xres + px]))
    # A click pins it; an orbit keeps the pin on its point of the snapshot.
    pointer(driver, "#picture", [(dx, dy), "down", "up"])
    pinned = driver.js("return [...document.querySelectorAll('#pins div')].map(d => [d.textContent, +d.dataset.value]);")
    check(len(pinned) == 1 and pinned[0][1] == probe[2],
          "a click pins the probe (%s)" % pinned)
    n, serial = page.frames(driver), driver.js("return mapValues.serial;")
    driver.drag("#picture", 40, 0, steps=4)
    page.settled(driver, n)
    page.wait_for(lambda: driver.js("return mapValues !== null && mapValues.serial > arguments[0];", serial),
                  "the orbited map's values")
    page.wait_for(lambda: driver.js("return document.getElementById('pins').textContent.length > 0;"), "the pins")
    moved = driver.js("const at = pointPixel(mapValues, pins[0]); return [at, mapValueAt(mapValues, at[0], at[1]),"
                      "+document.querySelector('#pins div').dataset.value];")
    check(moved[0] != [px, py] and (moved[1] == moved[2] or (moved[1] is None and math.isnan(moved[2]))),
          "after an orbit the pin is read at its point's new pixel %s (%s)" % (moved[0], moved[2]))
    driver.screenshot("16_map_pinned.png")
    # An alt-drag box: the map of that region, lookat at its centre, its width the box's.
    before = driver.js("return [shownMap, vec('lookat'), +(view.xres || 800), +(view.yres || view.xres || 800)];")
    frame, xres, yres = before[0]["frame"], before[2], before[3]
    box = driver.js("const r = document.getElementById('picture').getBoundingClientRect(); return [r.width, r.height];")
    a, b = (-int(box[0] * 0.3), -int(box[1] * 0.3)), (int(box[0] * 0.1), int(box[1] * 0.1))
    n, serial = page.frames(driver), driver.js("return mapValues.serial;")
    element = driver.find("#picture")
    moves = [{"type": "pointerMove", "origin": {ELEMENT: element}, "x": a[0], "y": a[1]}, {"type": "pointerDown", "button": 0}]
    for k in range(1, 5):
        moves.append({"type": "pointerMove", "origin": {ELEMENT: element}, "x": a[0] + (b[0] - a[0]) * k // 4,
                      "y": a[1] + (b[1] - a[1]) * k // 4, "duration": 40})
    moves.append({"type": "pointerUp", "button": 0})
    alt = "\ue00a"
    driver.call("POST", driver.s("/actions"), {"actions": [
        {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
         "actions": [{"type": "pause", "duration": 0}] + moves},
        {"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": alt}] +
         [{"type": "pause", "duration": 0}] * len(moves) + [{"type": "keyUp", "value": alt}]}]})
    driver.call("DELETE", driver.s("/actions"))
    page.settled(driver, n)
    page.wait_for(lambda: driver.js("return mapValues !== null && mapValues.serial > arguments[0];", serial),
                  "the zoomed map's values")
    after = driver.js("return [shownMap, vec('lookat'), view.map_width];")
    # The box's centre and size, in the map's pixels before.
    fx = (box[0] / 2 + (a[0] + b[0]) / 2) / box[0]
    fy = (box[1] / 2 + (a[1] + b[1]) / 2) / box[1]
    size = max((b[0] - a[0]) / box[0], (b[1] - a[1]) / box[1])
    side = frame["side"]
    want = [frame["centre"][i] + (fx - 0.5) * xres * side * frame["x"][i] + (fy - 0.5) * yres * side * frame["y"][i]
            for i in range(3)]
    check(math.dist(after[1], want) < 2 * side and abs(after[0]["frame"]["side"] / side - size) < 0.02 * size and
          abs(float(after[2]) - size * xres * side) < 2 * side,
          "an alt-drag box zooms the map to it: lookat %s (the box's centre %s), a pixel %.4g of %.4g (the box %.3f "
          "of the width)" % ([round(v, 1) for v in after[1]], [round(v, 1) for v in want], after[0]["frame"]["side"],
                             side, size))
    driver.screenshot("17_map_box_zoom.png")
    # The picture again.
    n = page.frames(driver)
    choose(driver, "#map", "the picture")
    back = page.settled(driver, n)
    state = driver.js("return [shownMap, mapValues, view.map === undefined, document.getElementById('probe').textContent];")
    check(state[0] is None and state[1] is None and state[2] and back["quality"] == "full",
          "the picture back: no map shown, no values kept (%s)" % state[2:])
