"""make bench (tests/bench/bench_python.sh): the one published timing of a Python peer we found,
set up again here as it was published, and drawn by the module: swiftsimio's benchmark script of
19 May 2019 (SWIFTSIM/swiftsimio scripts/benchmark_visualisation.py, removed in 2023): 100 000
particles uniform in the unit square (NumPy's legacy generator, seed 1234), masses 1, smoothing
lengths uniform in [0, 0.2), scattered to 1024 x 1024, "approximately 21 seconds ... on a 2018
Macbook Pro with a 2.7 GhZ i7" (its serial scatter, timed alone after a compiling call). No
figure of py-sphviewer's was published (that script timed it but recorded nothing).

Drawn here as a column map of the same particles (the cubic spline with support 1.778002 h, the
kernel_gamma that script gives), with one thread and with all, medians of --runs. The machines
differ: the published time is quoted beside ours, not divided by it."""
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

PUBLISHED_S = 21.0
N, RES = 100_000, 1024


def particles():
    rng = np.random.RandomState(1234)  # (numpy.random.seed(1234) and rand(), as the script draws them)
    x = rng.rand(N).astype(np.float32)
    y = rng.rand(N).astype(np.float32)
    h = rng.rand(N).astype(np.float32) * 0.2
    return splotch.Particles(x=x, y=y, z=np.zeros(N, np.float32), h=h, mass=np.ones(N, np.float32))


KEYS = {"xres": RES, "camera_x": 0.5, "camera_y": 0.5, "camera_z": 2, "lookat_x": 0.5, "lookat_y": 0.5,
        "lookat_z": 0, "sky_x": 0, "sky_y": 1, "sky_z": 0, "map_width": 1, "map_kernel": "cubic",
        "map_hsml_factor": 1.778002, "renderer": "host"}


def measure(runs, renderer):
    gas = particles()
    rows = []
    for _ in range(runs):
        start = time.perf_counter()
        column = splotch.map(gas, "column", **{**KEYS, "renderer": renderer})
        wall = time.perf_counter() - start
        rows.append((column.stages.get("render", 0.0), wall))
    inside = float(column.total())
    print(f"{statistics.median(r for r, _ in rows):.4f} {statistics.median(w for _, w in rows):.4f} {inside:.1f}")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--measure", action="store_true", help="(one thread count: the child's)")
    a.add_argument("--renderer", default="host")
    o = a.parse_args()
    if o.measure:
        return measure(o.runs, o.renderer)
    print(f"swiftsimio's published benchmark (19 May 2019): {N} particles in the unit square, h in [0, 0.2), "
          f"{RES}x{RES}, column map; medians of {o.runs}; {os.cpu_count()} CPUs here")
    head = ("tool", "threads", "machine", "render_s", "call_s", "Mparticles/s", "mass in the map")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    print(f"| swiftsimio scatter (published) | 1 | 2018 MacBook Pro, 2.7 GHz i7 | - | {PUBLISHED_S:.1f} | "
          f"{N / PUBLISHED_S / 1e6:.4f} | - |")
    for threads, renderer in (("1", "host"), (str(os.cpu_count()), "host"), (str(os.cpu_count()), "cuda")):
        env = {**os.environ, "OMP_NUM_THREADS": threads}
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--measure", "--runs", str(o.runs),
                               "--renderer", renderer], env=env, capture_output=True, text=True)
        if done.returncode != 0:
            if renderer == "cuda":  # (no GPU here: said, and the row left out)
                print(f"| splotch.map (column, GPU) | - | no GPU here: {done.stderr.strip().splitlines()[-1][:80]} "
                      "| - | - | - | - |")
                continue
            sys.exit(done.stderr)
        render, call, inside = (float(v) for v in done.stdout.split()[-3:])
        what = "splotch.map (column, GPU)" if renderer == "cuda" else "splotch.map (column)"
        print(f"| {what} | {threads} | this one | {render:.3f} | {call:.3f} | {N / call / 1e6:.3f} | "
              f"{inside:.0f} of {N} |")
    print("call_s: the module's whole call from the arrays (the published time: the scatter alone). The mass "
          "in the map is less than N where kernels cross the square's edges (not wrapped, as the script's).")


if __name__ == "__main__":
    main()
