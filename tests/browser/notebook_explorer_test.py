#!/usr/bin/env python3
"""The browser explorer started from Python (splotch.explore) as a notebook shows it, in a real
browser: a page of another origin (a notebook's) holding the explorer's IFrame, its HTML as
Explorer._repr_html_ gives it, loaded in headless Chromium (WebDriver, as serve_page_test.py);
inside the frame the first view shows, a real drag orbits and the Python process draws the new
view; Explorer.stop() ends the serving. Screenshots go to build/browser/.

    PYTHONPATH=python tests/browser/notebook_explorer_test.py     (from the tree's top, after make)

Exit status 0 when every check holds, 1 when one fails, 77 when Chromium or ChromeDriver is not
installed (make deps BROWSER=1 installs them), said on stderr.
"""
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_page_test import (ELEMENT, WebDriver, _reachable, check, failures, frames, free_port,  # noqa: E402
                             settled, wait_for)

import numpy as np  # noqa: E402

import splotch  # noqa: E402


def particles():
    rng = np.random.default_rng(8)
    n = 40000
    x, y, z = (rng.normal(size=(3, n)) * np.array([[1.0], [0.6], [0.3]])).astype(np.float32)
    return splotch.Particles(x=x, y=y, z=z, h=np.full(n, 0.08, np.float32),
                             rho=np.exp(-(x * x + y * y)).astype(np.float32))


def notebook_page(directory, cell_html):
    """A page as a notebook's output area holds a cell's HTML, served from its own origin."""
    with open(os.path.join(directory, "notebook.html"), "w") as f:
        f.write("<!DOCTYPE html><html><head><title>notebook</title></head><body>"
                "<div class='cell'><pre>explorer = splotch.explore(gas)</pre>"
                f"<div class='output'>{cell_html}</div></div></body></html>")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = lambda *a, **k: Quiet(*a, directory=directory, **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/notebook.html" % server.server_address[1]


def main():
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("notebook explorer test SKIPPED: no chromium or chromedriver (make deps BROWSER=1 installs Debian's)",
              file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="splotch_notebook_")
    explorer = splotch.explore(particles(), xres=360, yres=240, color_label0="rho", palette0="fire", height=420)
    page_server, page = notebook_page(work, explorer._repr_html_())
    driver_port = free_port()
    chromedriver = subprocess.Popen(["chromedriver", "--port=%d" % driver_port], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    driver = None
    try:
        wait_for(lambda: urllib.request.urlopen("http://127.0.0.1:%d/status" % driver_port).status == 200
                 if _reachable(driver_port) else False, "chromedriver")
        driver = WebDriver(driver_port, work)
        drawn = explorer.drawn  # (the first view's, before the page asks for its own)
        driver.go(page)
        frame = driver.find("iframe")
        check(driver.js("return document.querySelector('iframe').src;") == explorer.url,
              "the notebook's IFrame opens the explorer's URL with its token")
        driver.call("POST", driver.s("/frame"), {"id": {ELEMENT: frame}})
        first = settled(driver, 0)
        check(first["width"] == 360 and first["height"] == 240, "the frame shows the explorer's 360 x 240 picture")
        check(first["mean"] > 1, "the picture is not black (mean level %.2f)" % first["mean"])
        check(explorer.drawn > drawn, "the Python process drew the frame's view (%d pictures)" % explorer.drawn)
        n, drawn = frames(driver), explorer.drawn
        driver.drag("#picture", 150, 0)
        orbited = settled(driver, n)
        check(orbited["bytes"] != first["bytes"], "a drag in the frame orbits: the picture changed")
        check(explorer.drawn > drawn, "the orbit's views were drawn by the Python process (%d more)"
              % (explorer.drawn - drawn))
        driver.call("POST", driver.s("/frame/parent"), {})
        driver.screenshot("notebook_explorer.png")
        explorer.stop()
        check(not explorer.serving, "Explorer.stop() ends the serving")
        try:
            urllib.request.urlopen(explorer.url, timeout=5)
            check(False, "nothing answers at the URL once stopped")
        except OSError:
            check(True, "nothing answers at the URL once stopped")
    finally:
        if driver:
            driver.quit()
        chromedriver.terminate()
        chromedriver.wait()
        explorer.stop()
        page_server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print("notebook explorer test: %s; screenshot build/browser/notebook_explorer.png"
          % ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print("notebook explorer test FAILED: %s" % e, file=sys.stderr)
        sys.exit(1)
