"""Writes docs/python_notebook.ipynb (without outputs: make notebook runs it) from the cells
below, so that the notebook's text and code are reviewed as a Python file is.

    /usr/bin/python3 tools/make_python_notebook.py
"""
import os

import nbformat as nbf
nb = nbf.v4.new_notebook()
md = nbf.v4.new_markdown_cell
code = nbf.v4.new_code_cell
cells = [
md("""# splotch from Python

Pictures, maps and a snapshot's fields as NumPy arrays, drawn as `bin/splotch` draws them. This
notebook runs in CI (`make test`: `jupyter nbconvert --execute`), on particles it makes itself
and, where `../shared/data` is beside the checkout, on a real RAMSES output. Start it from the
checkout with `PYTHONPATH=<checkout>/python` (or with the module installed: see the README)."""),
code("""import os, tempfile
import numpy as np
import matplotlib
import matplotlib.pyplot as plt
import splotch
print(splotch.__version__)"""),
md("""## Particles of our own

A clump of 20 000 particles with a satellite in a raw file of blocks (`simtype = 1`: x, y, z, smoothing length,
intensity, colour, one block each, big-endian as the original reads them), and a parameter file."""),
code("""work = tempfile.mkdtemp()
rng = np.random.default_rng(4)
n = 20000
r = rng.gamma(2.0, 0.15, n)
phi, cos = rng.uniform(0, 2 * np.pi, n), rng.uniform(-1, 1, n)
sin = np.sqrt(1 - cos**2)
x, y, z = r * sin * np.cos(phi), r * sin * np.sin(phi), 0.3 * r * cos
x[:3000] = 0.7 + 0.15 * x[:3000]  # a satellite, off the axis the orbit turns about
y[:3000] *= 0.15
z[:3000] *= 0.15
h = 0.02 + 0.05 * r
blocks = np.stack([x, y, z, h, np.ones(n), 1 / (0.05 + r)]).astype(">f4")
blocks.tofile(os.path.join(work, "clump.bin"))
par = os.path.join(work, "clump.par")
with open(par, "w") as f:
    f.write(f\"\"\"simtype = 1
infile = {work}/clump.bin
num_blocks = 6
x = 1
y = 2
z = 3
r = 4
I = 5
C1 = 6
color_log0 = TRUE
palette0 = fire
xres = 400
camera_x = 0
camera_y = -1.6
camera_z = 0.8
lookat_x = 0
lookat_y = 0
lookat_z = 0
outfile = {work}/clump.png
\"\"\")"""),
md("""## A picture

`splotch.render` takes a parameter file (or a snapshot alone) and any key as a keyword. The
picture shows itself; its pixels are a float32 array of the run's own memory."""),
code("""picture = splotch.render(par, exposure="auto")
print(picture, picture.rgb.shape, picture.rgb.dtype)
print({stage: round(seconds, 4) for stage, seconds in picture.stages.items()})
picture"""),
md("""The same keys give `bin/splotch`'s file byte for byte; `save` writes it with its used.par."""),
code("""path = picture.save(os.path.join(work, "clump_python.png"))
print(open(path + ".used.par").read().splitlines()[2:6])"""),
md("""## A session: an orbit without reading again

A `Session` keeps the particles its first call read: the later views only draw."""),
code("""session = splotch.Session(par, xres=200, exposure="auto")
fig, axes = plt.subplots(1, 4, figsize=(12, 3))
for ax, angle in zip(axes, np.radians([0, 45, 90, 135])):
    view = session.render(camera_x=1.6 * np.sin(angle), camera_y=-1.6 * np.cos(angle))
    ax.imshow(view.rgb)
    ax.set_title(f"reused: {view.reused}")
    ax.axis("off")"""),
md("""## A map

`splotch.map` draws the quantitative maps (`column`, `average`, `slice`: docs/maps.md): values in
their units with the map's extent, `plot()` with a colour bar, `to_fits()` as `bin/splotch`
writes it. A raw file's particles carry an amount of 1 each, so its column map counts them."""),
code("""column = splotch.map(par, "column", xres=200)
print(column, "total:", round(column.total()))
column.plot()
column.to_fits(os.path.join(work, "clump_column.fits"))"""),
md("""## Arrays of our own, without a file

`splotch.Particles` takes the arrays in memory (`x, y, z, h` or `pos`, and any named field) and
draws them with the same keys, as a snapshot alone is drawn: float32 arrays are used in place, never
copied or written. A field is named by its key (`color_label0="rho"`), as a file's is."""),
code("""rho = (1 / (0.05 + r)).astype(np.float32)
mass = np.full(n, 1.0 / n, np.float32)  # (the clump's mass: 1)
clump = splotch.Particles(x=x.astype(np.float32), y=y.astype(np.float32), z=z.astype(np.float32),
                          h=h.astype(np.float32), mass=mass, rho=rho)
own = splotch.render(clump, color_label0="rho", color_log0=True, palette0="fire", xres=300,
                     camera_x=0, camera_y=-1.6, camera_z=0.8, lookat_x=0, lookat_y=0, lookat_z=0)
print(own, own.notes)
own"""),
md("""The column map of the same arrays (of `mass`, found by its name): its total is the mass within
its field, here all of it."""),
code("""surface = splotch.map(clump, "column", xres=200, camera_x=0, camera_y=-3, camera_z=0, lookat_x=0,
                      lookat_y=0, lookat_z=0, fov=60)
print(surface, "total:", round(surface.total(), 4), "of", mass.sum())
surface.plot()"""),
md("""## The browser explorer in the notebook

`splotch.explore` serves `bin/splotch --serve`'s page from this Python process: fly through the
particles, tune their keys, Save the .par, make a movie. The notebook shows the page; the server
runs until `stop()` (a browser on another machine than the kernel's: an ssh tunnel to the port, or
`proxy="/proxy/{port}/"` with jupyter-server-proxy)."""),
code("""explorer = splotch.explore(clump, color_label0="rho", color_log0=True, palette0="fire", height=600)
print(explorer)
explorer"""),
code("""explorer.stop()  # (its threads end, and the arrays are the caller's alone again)
print(explorer)"""),
md("""## A real snapshot's fields

`splotch.read` gives the header, units and each type's fields, read when first asked for."""),
code("""root = os.path.dirname(os.path.abspath(""))  # (the notebook runs in docs/)
data = os.path.join(root, "..", "shared", "data")
output = os.path.join(data, "ramses_multimat2d_output_00001")
if os.path.isdir(output):
    snap = splotch.read(output)
    cells = snap[0]
    print(snap)
    print(cells.fields)
    density = cells["density"]
    print("density", density.min(), density.max(), "cells", cells.count)
    first = splotch.render(output, xres=300)
    plt.figure()
    plt.imshow(first.rgb)
    plt.title(os.path.basename(output))
else:
    print("../shared/data is not beside this checkout: the real snapshot is left out")"""),
]
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "python_notebook.ipynb"))
