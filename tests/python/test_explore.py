"""The browser explorer started from Python (splotch.explore): the page served from this process,
shown in a notebook as an IFrame of its URL; its pictures those of bin/splotch and splotch.render
for the same keys; arrays in memory served as a snapshot is; stopped, it serves nothing and gives
the arrays back; its errors."""
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

import splotch
from test_arrays import BIN, VIEW, cloud, raw_par

KEYS = {**VIEW, "color_log0": True, "brightness0": 1.5}


def get(explorer, path="", **params):
    query = urllib.parse.urlencode({"token": explorer.token, **params})
    with urllib.request.urlopen(f"http://127.0.0.1:{explorer.port}/{path}?{query}", timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type"), answer.read()


def test_the_explorer_of_a_par_serves_bin_splotch_s_picture_and_shows_in_a_notebook(tmp_path):
    x, y, z, h, light, colour = cloud()
    par = raw_par(tmp_path, (x, y, z, h, light, colour), {**KEYS, "outfile": tmp_path / "cli.png"})
    run = subprocess.run([BIN, str(par)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with splotch.explore(par) as explorer:
        assert explorer.serving and explorer.drawn == 1  # (the first view: read and drawn before it serves)
        status, kind, page = get(explorer)
        assert status == 200 and kind.startswith("text/html") and b"<title>splotch" in page
        status, kind, png = get(explorer, "view", client="test", quality="full")
        assert kind == "image/png" and png == (tmp_path / "cli.png").read_bytes()
        # A notebook shows the page: an IFrame of the URL with its token.
        shown = explorer._repr_html_()
        assert f'<iframe src="{explorer.url}"' in shown and explorer.url.endswith("?token=" + explorer.token)
        assert f"127.0.0.1:{explorer.port}/" in explorer.url
        # Without the token, nothing.
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{explorer.port}/view?client=t", timeout=30)
        assert refused.value.code == 403
    assert not explorer.serving and "stopped" in repr(explorer) and "stopped" in explorer._repr_html_()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(explorer.url, timeout=5)
    explorer.stop()  # (again: nothing)


def test_the_explorer_of_arrays_draws_render_s_picture_and_gives_the_arrays_back(tmp_path):
    x, y, z, h, light, colour = cloud()
    held = sys.getrefcount(x)
    gas = splotch.Particles(x=x, y=y, z=z, h=h, light=light, colour=colour)
    keys = {**KEYS, "color_label0": "colour", "intensity_label0": "light"}
    explorer = splotch.explore(gas, width=640, height=480, **keys)
    assert explorer.input == "particles" and 'width="640" height="480"' in explorer._repr_html_()
    picture = splotch.render(gas, **keys)
    assert get(explorer, "view", client="a", quality="full")[2] == picture.png()
    # A browser's view with keys of its own: render's picture with those keys.
    wider = splotch.render(gas, **{**keys, "fov": 60})
    assert get(explorer, "view", client="a", quality="full", fov=60)[2] == wider.png()
    assert explorer.drawn == 3
    record = get(explorer, "par", client="a")[2].decode()
    assert "arrays in memory" in record and "fov = 60" in record
    del gas, picture, wider
    assert sys.getrefcount(x) > held  # (the explorer holds them)
    explorer.stop()
    assert sys.getrefcount(x) == held


def test_a_proxy_s_page_and_the_explorer_s_errors(tmp_path):
    x, y, z, h, light, colour = cloud(n=500)
    gas = splotch.Particles(x=x, y=y, z=z, h=h)
    with splotch.explore(gas, proxy="/proxy/{port}/", xres=64) as explorer:
        assert explorer.page == f"/proxy/{explorer.port}/?token={explorer.token}"
        assert f'<iframe src="{explorer.page}"' in explorer._repr_html_()
        # A port taken is said, and no server starts.
        with pytest.raises(splotch.SplotchError, match=str(explorer.port)):
            splotch.explore(gas, port=explorer.port, xres=64)
    with pytest.raises(FileNotFoundError, match="no such parameter file or snapshot"):
        splotch.explore(tmp_path / "missing.hdf5")
    with pytest.raises(splotch.SplotchError, match="xres"):
        splotch.explore(gas, xres="wide")
