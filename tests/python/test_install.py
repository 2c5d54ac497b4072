"""pip install --no-build-isolation . (pyproject.toml, setup.py) installs the module offline with
Debian's setuptools, into a virtual environment that sees Debian's NumPy; the installed package
draws bin/splotch's picture with its own copy of the palettes."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pip_installs_the_module_offline(tmp_path):
    if subprocess.run([sys.executable, "-m", "venv", "--help"], capture_output=True).returncode != 0 or \
            subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("no venv or pip for this python3 (make deps installs python3-venv and python3-pip)")
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env)], check=True)
    python = str(env / "bin" / "python")
    if subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode != 0:
        # (a python3 that is itself a virtual environment: a venv made from it sees the system's
        # packages, not its own NumPy; Debian's python3 with python3-numpy runs this test)
        pytest.skip(f"a virtual environment made from {sys.executable} sees no NumPy (is it a venv itself?): "
                    "run this test with Debian's /usr/bin/python3 and python3-numpy")
    install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", ROOT],
                             capture_output=True, text=True)
    assert install.returncode == 0, install.stdout + install.stderr
    # Away from the checkout, so that the installed package is the one imported.
    script = ("import os, splotch\n"
              "print(os.path.dirname(splotch.__file__))\n"
              "picture = splotch.render(os.environ['SNAPSHOT'], xres=48, outfile='x.png')\n"
              "print(picture.shape, picture.particles_read)\n"
              "import json, urllib.request\n"
              "explorer = splotch.explore(os.environ['SNAPSHOT'])\n"
              "info = json.load(urllib.request.urlopen(explorer.url.replace('/?', '/info?')))\n"
              "print(explorer.serving, sorted(p['name'] if isinstance(p, dict) else p for p in info['palettes']))\n"
              "explorer.stop()\n")
    par = tmp_path / "p.par"
    raw = tmp_path / "p.bin"
    import numpy as np
    np.array([[1, 2, 3, 0.5, 1, 1], [2, 3, 1, 0.5, 1, 2]], dtype=">f4").tofile(raw)
    par.write_text(f"simtype = 0\ninfile = {raw}\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                   "palette0 = ice\nxres = 48\noutfile = x.png\n")
    run = subprocess.run([python, "-c", script], capture_output=True, text=True, cwd=str(tmp_path),
                         env={**os.environ, "SNAPSHOT": str(par), "PYTHONPATH": ""})
    assert run.returncode == 0, run.stderr
    where, shape, served = run.stdout.splitlines()[:3]
    assert where.startswith(str(env))
    assert shape == "(48, 48) 2"
    # The explorer of the installed package offers the palettes installed with it.
    assert served.startswith("True [") and "'fire'" in served and "'temperature'" in served, served
    shutil.rmtree(env)
