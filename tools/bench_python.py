"""make bench (tests/bench/bench_python.sh): a picture and a column map of the benchmark snapshot's
particles handed to the Python module as NumPy arrays (np.fromfile of the raw block file: float32,
used in place), against bin/splotch reading the same file with the same keys, in one command.
Prints the medians over --runs of each stage, bin/splotch's whole process, the module's whole call
(arrays to picture), particles per second, the ratio of the render stages (arrays / file), and
whether the pictures are the same bytes."""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import splotch  # noqa: E402

VIEW = {"camera_x": 230, "camera_y": -120, "camera_z": 160, "lookat_x": 50, "lookat_y": 50, "lookat_z": 50,
        "sky_x": 0, "sky_y": 0, "sky_z": 1, "fov": 40, "brightness0": 1, "gray_absorption": 0.05,
        "palette0": os.path.join(ROOT, "testdata", "palettes", "temperature.pal"), "a_eq_e": True,
        "renderer": "host"}
DRAW = ("geometry", "colour", "sort", "render", "post")  # the stages after the particles are in memory


def stages_of(report):
    out = {}
    for line in report.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-1] == "s" and parts[0] in DRAW + ("read", "normalize", "total"):
            out[parts[0]] = float(parts[1])
    return out


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--snapshot", required=True, help="make_snapshot --raw block output (x y z hsml rho u)")
    a.add_argument("--n", type=int, required=True)
    a.add_argument("--xres", type=int, default=800)
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--work", required=True)
    o = a.parse_args()
    os.makedirs(o.work, exist_ok=True)
    blocks = np.memmap(o.snapshot, dtype="<f4", mode="r").reshape(6, o.n)  # (the page cache's pages, lent)
    x, y, z, hsml, rho, u = (np.asarray(b) for b in blocks)
    keys = {**VIEW, "xres": o.xres, "color_log0": True, "intensity_log0": True}
    args = lambda k: [f"{n}={'TRUE' if v is True else 'FALSE' if v is False else v}" for n, v in k.items()]  # noqa: E731
    rows = []
    for mode in ("picture", "column map"):
        extra = {} if mode == "picture" else {"map": "column", "map_quantity0": 5}  # (a raw file: by number)
        suffix = "png" if mode == "picture" else "fits"
        file_keys = {"simtype": 1, "num_blocks": 6, "x": 1, "y": 2, "z": 3, "r": 4, "I": 5, "C1": 6,
                     "swap_endian": False, "infile": o.snapshot, **keys, **extra}
        cli_times, cli_walls, py_times, py_walls, py_stages, cli_stages = [], [], [], [], [], []
        for run in range(o.runs):
            out = os.path.join(o.work, f"cli.{suffix}")
            start = time.perf_counter()
            done = subprocess.run([os.path.join(ROOT, "bin", "splotch"), os.path.join(ROOT, "tests/bench/bench.par"),
                                   *args(file_keys), f"outfile={out}"], capture_output=True, text=True)
            cli_walls.append(time.perf_counter() - start)
            if done.returncode != 0:
                sys.exit(done.stderr)
            cli_stages.append(stages_of(done.stdout + done.stderr))
            gas = splotch.Particles(x=x, y=y, z=z, hsml=hsml, rho=rho, u=u)
            py_keys = {**keys, **extra, "size_label0": "hsml", "size_fix0": 0, "intensity_label0": "rho",
                       "color_label0": "u", "outfile": os.path.join(o.work, f"python.{suffix}")}
            if mode != "picture":
                py_keys["map_quantity0"] = "rho"
            start = time.perf_counter()
            drawn = splotch.render(gas, **py_keys) if mode == "picture" else splotch.map(gas, "column", **py_keys)
            py_walls.append(time.perf_counter() - start)
            py_stages.append(stages_of(drawn.report))
        same = "-"
        if mode == "picture":
            drawn.save(os.path.join(o.work, "python.png"))
            same = open(os.path.join(o.work, "python.png"), "rb").read() == open(out, "rb").read()
        else:
            drawn.to_fits(os.path.join(o.work, "python.fits"))
            cli_map = splotch.map(os.path.join(ROOT, "tests/bench/bench.par"), "column",
                                  **{k: v for k, v in file_keys.items() if k != "map"})
            same = bool(np.array_equal(cli_map.values, drawn.values))
        med = lambda rows, k: statistics.median(r.get(k, 0.0) for r in rows)  # noqa: E731
        draw_cli = statistics.median(sum(r.get(k, 0.0) for k in DRAW) for r in cli_stages)
        draw_py = statistics.median(sum(r.get(k, 0.0) for k in DRAW) for r in py_stages)
        rows.append((mode, "bin/splotch (file)", med(cli_stages, "read"), med(cli_stages, "normalize"), draw_cli,
                     med(cli_stages, "render"), statistics.median(cli_walls), "-", "-"))
        rows.append((mode, "splotch.Particles", med(py_stages, "read"), med(py_stages, "normalize"), draw_py,
                     med(py_stages, "render"), statistics.median(py_walls), f"{draw_py / draw_cli:.3f}", same))
    print(f"{o.n:.0e} particles (benchmark snapshot, raw blocks), {o.xres}x{o.xres}, host renderer, "
          f"{os.cpu_count()} CPUs, medians of {o.runs}")
    head = ("what", "from", "read_s", "normalize_s", "draw_s", "render_s", "wall_s", "Mparticles/s", "draw ratio",
            "same")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for what, src, read, norm, draw, render, wall, ratio, same in rows:
        print(f"| {what} | {src} | {read:.3f} | {norm:.3f} | {draw:.3f} | {render:.3f} | {wall:.3f} | "
              f"{o.n / wall / 1e6:.1f} | {ratio} | {same} |")
    print("draw_s: geometry + colour + sort + render + post (what follows the particles in memory); wall_s: "
          "bin/splotch's whole process, the module's whole call from the arrays")


if __name__ == "__main__":
    main()
