"""The Python module (python/splotch) against bin/splotch: the same keys give the same picture,
byte for byte, and the same used.par; errors are Python exceptions with bin/splotch's messages.
Run by make test (make python-test alone): PYTHONPATH=python python3 -m pytest tests/python."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import splotch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "bin", "splotch")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")


def raw_cloud(path):
    """200 particles on a helix (x y z r I C1 per record, big-endian floats, as the original reads)."""
    i = np.arange(200, dtype=np.float32)
    t = np.float32(0.1) * i
    table = np.stack([50 + 10 * np.cos(t), 50 + 10 * np.sin(t), 50 + np.float32(0.05) * (i - 100),
                      1 + np.float32(0.01) * i, 1 + i % 10, 1 + i], axis=1).astype(">f4")
    table.tofile(path)


@pytest.fixture
def scene(tmp_path):
    data = tmp_path / "particles.bin"
    raw_cloud(data)
    par = tmp_path / "scene.par"
    par.write_text(f"simtype = 0\ninfile = {data}\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                   "palette0 = fire\ncolor_log0 = TRUE\ncamera_x = 50\ncamera_y = -50\ncamera_z = 80\n"
                   "lookat_x = 50\nlookat_y = 50\nlookat_z = 50\nxres = 64\n"
                   f"outfile = {tmp_path / 'cli.png'}\n")
    return tmp_path, par


def cli(par, *keys):
    run = subprocess.run([BIN, str(par), *keys], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run


def used_without_paths(text):
    """used.par less the lines that name where the picture and the palette are."""
    return [line for line in text.splitlines() if not line.startswith(("outfile", "palette0", "#"))]


def test_a_parameter_file_gives_bin_splotch_s_picture_byte_for_byte(scene):
    directory, par = scene
    cli(par, "fov=30", "brightness0=2")
    picture = splotch.render(par, fov=30, brightness0=2, outfile=directory / "py.png")
    assert picture.shape == (64, 64)
    assert picture.rgb.dtype == np.float32
    assert picture.particles_read == 200
    assert 0 < picture.rgb.max() <= 1
    written = picture.save(directory / "py.png")
    assert written == str(directory / "py.png")
    assert (directory / "py.png").read_bytes() == (directory / "cli.png").read_bytes()
    assert used_without_paths((directory / "py.png.used.par").read_text()) == \
        used_without_paths((directory / "cli.png.used.par").read_text())
    # The notebook's picture is the same PNG.
    assert picture._repr_png_() == (directory / "cli.png").read_bytes()
    # The 8-bit picture is the file's pixels: v8 = clamp(int(256 v), 0, 255).
    assert picture.to_uint8().shape == (64, 64, 3)
    assert picture.stages["render"] >= 0 and "read" in picture.stages


def test_other_keys_give_another_picture(scene):
    directory, par = scene
    a = splotch.render(par)
    b = splotch.render(par, camera_z=60)
    assert a.rgb.shape == b.rgb.shape
    assert not np.array_equal(a.rgb, b.rgb)
    # The pixels are the run's own memory, not a copy: a view of it.
    assert a.rgb.base is not None and not a.rgb.flags["OWNDATA"]


@pytest.mark.skipif(not os.path.exists(os.path.join(DATA, "gadget4_lcdm_gas_snapshot_004.hdf5")),
                    reason="../shared/data is not beside this checkout")
def test_a_snapshot_alone_gives_bin_splotch_s_first_picture(tmp_path):
    snapshot = os.path.join(DATA, "gadget4_lcdm_gas_snapshot_004.hdf5")
    cli(snapshot, "xres=96", f"outfile={tmp_path / 'cli.png'}")
    picture = splotch.render(snapshot, xres=96)
    picture.save(tmp_path / "py.png")
    assert (tmp_path / "py.png").read_bytes() == (tmp_path / "cli.png").read_bytes()
    assert picture.outfile.endswith("gadget4_lcdm_gas_snapshot_004.png")
    assert "32768" in splotch.info(snapshot)


def test_errors_are_python_exceptions_with_bin_splotch_s_messages(scene, tmp_path):
    directory, par = scene
    with pytest.raises(splotch.SplotchError, match="xres = 'wide' is not an integer"):
        splotch.render(par, xres="wide")
    assert issubclass(splotch.SplotchError, ValueError)
    with pytest.raises(FileNotFoundError, match="no such parameter file or snapshot"):
        splotch.render(tmp_path / "absent.par")
    with pytest.raises(splotch.SplotchError, match="a key takes one value"):
        splotch.render(par, fov=[30, 40])
    run = subprocess.run([BIN, str(par), "palette0=nonesuch"], capture_output=True, text=True)
    assert run.returncode == 1
    message = run.stderr.strip().removeprefix("splotch: error: ")
    with pytest.raises(splotch.SplotchError) as caught:
        splotch.render(par, palette0="nonesuch")
    assert str(caught.value).replace("python/splotch/palettes", "testdata/palettes") == message
    with pytest.raises(splotch.SplotchError, match="a picture's name ends in"):
        splotch.render(par).save(tmp_path / "picture.gif")


def test_warnings_are_python_warnings_and_data(scene):
    directory, par = scene
    with pytest.warns(splotch.SplotchWarning, match="xress .command line.: did you mean xres"):
        picture = splotch.render(par, xress=32)
    assert any("xress" in w for w in picture.warnings)
    assert picture.report.startswith("splotch: drew the picture (64 x 64")  # (nothing written)


def test_a_session_s_later_views_read_nothing_and_draw_what_a_fresh_render_draws(scene):
    directory, par = scene
    session = splotch.Session(par, xres=48, renderer="host")  # (auto may choose differently where there is a GPU)
    first = session.render()
    assert not first.reused
    turned = session.render(camera_x=20, camera_y=-40)
    assert turned.reused  # the particles the first call read, kept
    # (drawn with the first picture's automatic exposure, which the session keeps for its views)
    fresh = splotch.render(par, xres=48, camera_x=20, camera_y=-40, renderer="host",
                           **({"exposure": repr(session.exposure)} if session.exposure is not None else {}))
    assert not fresh.reused
    assert np.array_equal(turned.rgb, fresh.rgb)
    # Keys that read the particles otherwise (another colour column) read them again.
    other = session.render(C1=5)
    assert not other.reused
    assert session.map("column").shape == (48, 48)


def test_ctrl_c_stops_a_long_render_and_raises_keyboard_interrupt():
    # A render of minutes on any machine (every particle covers the whole picture), interrupted as
    # a notebook's Ctrl-C does (SIGINT to the process) a moment after it began.
    script = textwrap.dedent("""
        import os, signal, threading, time
        import numpy as np
        import splotch
        rng = np.random.default_rng(1)
        n = 200000
        x, y, z = rng.normal(size=(3, n)).astype(np.float32)
        gas = splotch.Particles(x=x, y=y, z=z, h=np.full(n, 30.0, np.float32))
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.time()
        try:
            splotch.render(gas, xres=2000, renderer="host", exposure=1e-6, camera_x=0, camera_y=-10, camera_z=0,
                           lookat_x=0, lookat_y=0, lookat_z=0)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after", time.time() - start)
    """)
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("interrupted after"), run.stdout + run.stderr
