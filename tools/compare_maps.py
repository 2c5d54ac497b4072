#!/usr/bin/python3
"""Compare splotch's column-density map (`map = column`) with yt's and SPLASH's.

    /usr/bin/python3 tools/compare_maps.py [--inputs gadget4,bench] [--n 256 1024] [--work /tmp/peers]

For each input (the Gadget-4 HDF5 box of ../shared/data, and the Gadget-2 binary benchmark
snapshot that bin/make_snapshot writes) the view is the whole periodic box projected along z
(x right, y up), N x N pixels, exactly one box wide. Each tool's map is brought to the file's code
units (code mass per code length^2; comoving lengths, masses and lengths with the file's 1/h) and
held as an array a[row, col], row = y from the bottom, col = x. The table gives, per
(input, N, tool): the map times the pixel area over the snapshot's mass, and for the peers against
splotch the median and the 5th/95th percentiles of peer/splotch over the pixels where splotch
holds more than 1e-3 of its maximum, and the wall time (splotch: also its `render` stage; yt: also
the pixelisation, the FRB's first access). Figures: WORK/side_by_side_<input>_<N>.png.

Conventions (read from the peers' sources; see docs/maps.md for splotch's):
- yt 4.1 (frontends/gadget, utilities/lib/pixelization_routines.pyx): cubic spline (M4), the
  file's SmoothingLength/HSML as the kernel's support radius (W(q), q = r/h < 1); the column is the
  projected kernel sampled at each pixel's centre (a 200-step trapezoid table of the line-of-sight
  integral), m/(rho h^2) rho F(r/h); h is floored at the pixel size (h^2 >= dx dy) for the kernel's
  shape but not for its amplitude 1/h^2, so a particle smaller than a pixel adds more than its
  mass. Periodic: one image across each face. Units: g/cm^2 physical (comoving length times a,
  the 1/h taken out), converted back here with yt's own code units (the file's units given as
  unit_base: yt reads Gadget-4's Parameters group only for that).
- SPLASH 3.6 (src/read_data_gadget.f90, src/interpolate3D_projection.f90): cubic spline (M4) with
  support 2h and h = 0.5 HSML (the reader halves Gadget's smoothing length), so the same support;
  column = sum m/(rho h^3) h rho F(r/h) at each pixel's centre; h floored at half a pixel for the
  shape, not the amplitude (as yt); no periodic images in 3-D projections (added here as ghost
  particles for the `splash_pg` rows); `exact_rendering` (Petkova et al. 2018) integrates over the
  pixel for particles that cover at most 2-3 pixels (`splash_pg_exact` rows). Code units with
  --codeunits. This Debian build has neither HDF5 nor FITS: the HDF5 snapshot's gas is written
  here as a Gadget format-1 binary file and the map read from SPLASH's -o pfm output.
"""

import argparse
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GADGET4 = os.path.join(os.path.dirname(REPO), "shared", "data", "gadget4_lcdm_gas_snapshot_000.hdf5")
# Gadget's defaults for a binary snapshot (which names no units): 1 kpc/h, 1e10 Msun/h, 1 km/s
GADGET_DEFAULT_UNITS = {"UnitLength_in_cm": 3.085678e21, "UnitMass_in_g": 1.989e43,
                        "UnitVelocity_in_cm_per_s": 1e5}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- snapshots

class Snapshot:
    """The gas of a snapshot, as the comparison needs it (numpy arrays, code units)."""
    name = path = fmt = None      # fmt: 'hdf5' or 'gadget2' (binary, format 1 or 2)
    box = time = redshift = omega0 = omega_l = hubble = 0.0
    units = None                  # UnitLength_in_cm, UnitMass_in_g, UnitVelocity_in_cm_per_s
    pos = vel = ids = mass = u = rho = hsml = None

    @property
    def total_mass(self):
        return float(np.sum(self.mass, dtype=np.float64))


def read_hdf5(path, name):
    import h5py
    s = Snapshot()
    s.name, s.path, s.fmt = name, path, "hdf5"
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        p = dict(f["Parameters"].attrs) if "Parameters" in f else {}
        get = lambda k, d=None: h.get(k, p.get(k, d))
        s.box = float(get("BoxSize"))
        s.time, s.redshift = float(get("Time")), float(get("Redshift"))
        s.omega0, s.omega_l, s.hubble = float(get("Omega0")), float(get("OmegaLambda")), float(get("HubbleParam"))
        s.units = {k: float(get(k, GADGET_DEFAULT_UNITS[k])) for k in GADGET_DEFAULT_UNITS}
        g = f["PartType0"]
        n = int(np.asarray(h["NumPart_ThisFile"])[0])
        s.pos = g["Coordinates"][:].astype(np.float64)
        s.vel = g["Velocities"][:].astype(np.float32)
        s.ids = g["ParticleIDs"][:].astype(np.int64)
        if "Masses" in g:
            s.mass = g["Masses"][:].astype(np.float64)
        else:
            s.mass = np.full(n, float(np.asarray(h["MassTable"])[0]))
        s.u = g["InternalEnergy"][:].astype(np.float32)
        s.rho = g["Density"][:].astype(np.float32)
        s.hsml = g["SmoothingLength"][:].astype(np.float64)
    return s


def _records(buf):
    """Fortran records of a Gadget binary file (little-endian, 4-byte markers)."""
    off, out = 0, []
    while off + 4 <= len(buf):
        (n,) = struct.unpack_from("<i", buf, off)
        out.append(buf[off + 4: off + 4 + n])
        (n2,) = struct.unpack_from("<i", buf, off + 4 + n)
        if n2 != n:
            raise ValueError("bad Fortran record markers at byte %d" % off)
        off += 8 + n
    return out


def read_gadget_binary(path, name):
    """Gadget-2 binary, format 1 or 2 (labelled blocks), little-endian, one file, gas only used."""
    buf = open(path, "rb").read()
    recs = _records(buf)
    blocks = {}
    if len(recs[0]) == 8:     # format 2: ('LABL', size) before each block
        for i in range(0, len(recs), 2):
            blocks[recs[i][:4].decode().strip()] = recs[i + 1]
        order = None
    else:
        order = ["HEAD", "POS", "VEL", "ID", "MASS", "U", "RHO", "HSML"]
    hd = blocks.get("HEAD", recs[0])
    npart = struct.unpack_from("<6i", hd, 0)
    massarr = struct.unpack_from("<6d", hd, 24)
    s = Snapshot()
    s.name, s.path, s.fmt = name, path, "gadget2"
    s.time, s.redshift = struct.unpack_from("<2d", hd, 72)
    s.box, s.omega0, s.omega_l, s.hubble = struct.unpack_from("<4d", hd, 128)
    s.units = dict(GADGET_DEFAULT_UNITS)
    ntot = sum(npart)
    ng = npart[0]
    if order is not None:     # format 1: blocks in Gadget's order, MASS only where needed
        need_mass = any(npart[t] > 0 and massarr[t] == 0 for t in range(6))
        names = [b for b in order if b != "MASS" or need_mass]
        blocks = dict(zip(names, recs[:len(names)]))

    def arr(label, count, width=1):
        b = blocks[label]
        nbytes = len(b) // (count * width)
        dt = {4: "<f4", 8: "<f8"}[nbytes]
        return np.frombuffer(b, dtype=dt).reshape(count, width) if width > 1 else np.frombuffer(b, dtype=dt)
    s.pos = arr("POS", ntot, 3)[:ng].astype(np.float64)
    s.vel = arr("VEL", ntot, 3)[:ng].astype(np.float32)
    idb = blocks["ID"]
    s.ids = np.frombuffer(idb, dtype="<i4" if len(idb) == 4 * ntot else "<i8")[:ng].astype(np.int64)
    if massarr[0] > 0:
        s.mass = np.full(ng, massarr[0])
    else:
        nm = sum(npart[t] for t in range(6) if massarr[t] == 0)
        s.mass = np.frombuffer(blocks["MASS"], dtype="<f4" if len(blocks["MASS"]) == 4 * nm else "<f8")[:ng].astype(np.float64)
    s.u = arr("U", ng).astype(np.float32)
    s.rho = arr("RHO", ng).astype(np.float32)
    s.hsml = arr("HSML", ng).astype(np.float64)
    return s


def write_gadget1(path, s, pos, vel, ids, mass, u, rho, hsml):
    """Gas only, Gadget format 1, float32, MASS block (mass table 0)."""
    n = len(mass)

    def rec(b):
        return struct.pack("<i", len(b)) + b + struct.pack("<i", len(b))
    hd = struct.pack("<6i", n, 0, 0, 0, 0, 0) + struct.pack("<6d", *([0.0] * 6))
    hd += struct.pack("<2d", s.time, s.redshift) + struct.pack("<2i", 0, 0)
    hd += struct.pack("<6i", n, 0, 0, 0, 0, 0) + struct.pack("<2i", 0, 1)   # no cooling, 1 file
    hd += struct.pack("<4d", s.box, s.omega0, s.omega_l, s.hubble)
    hd += b"\0" * (256 - len(hd))
    with open(path, "wb") as f:
        f.write(rec(hd))
        f.write(rec(np.ascontiguousarray(pos, dtype="<f4").tobytes()))
        f.write(rec(np.ascontiguousarray(vel, dtype="<f4").tobytes()))
        f.write(rec(np.ascontiguousarray(ids, dtype="<i4").tobytes()))
        for a in (mass, u, rho, hsml):
            f.write(rec(np.ascontiguousarray(a, dtype="<f4").tobytes()))


def periodic_ghosts(s):
    """The gas plus its periodic images across the x and y faces (and corners) that reach into the
    box: kernel support = HSML (Gadget's), images of particles within HSML of a face."""
    L = s.box
    x, y, h = s.pos[:, 0], s.pos[:, 1], s.hsml
    sx = np.where(x < h, 1, np.where(x > L - h, -1, 0))
    sy = np.where(y < h, 1, np.where(y > L - h, -1, 0))
    parts = [np.arange(len(x))]
    shifts = [np.zeros((len(x), 3))]
    for ax, ay, sel in ((1, 0, sx != 0), (0, 1, sy != 0), (1, 1, (sx != 0) & (sy != 0))):
        idx = np.nonzero(sel)[0]
        sh = np.zeros((len(idx), 3))
        if ax:
            sh[:, 0] = sx[idx] * L
        if ay:
            sh[:, 1] = sy[idx] * L
        parts.append(idx)
        shifts.append(sh)
    idx = np.concatenate(parts)
    pos = s.pos[idx] + np.concatenate(shifts)
    return idx, pos


# --------------------------------------------------------------------------- tools

def executable(path, work):
    """bin/ may sit on a file system that does not execute (noexec): run a copy instead, beside a
    link to the repository's testdata/ (splotch finds its palettes from its own path)."""
    try:
        subprocess.run([path, "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        return path
    except PermissionError:
        d = os.path.join(work, "exec")
        os.makedirs(os.path.join(d, "bin"), exist_ok=True)
        link = os.path.join(d, "testdata")
        if not os.path.islink(link):
            os.symlink(os.path.join(REPO, "testdata"), link)
        copy = os.path.join(d, "bin", os.path.basename(path))
        shutil.copy2(path, copy)
        os.chmod(copy, 0o755)
        log("note: %s cannot be executed here (noexec mount?); running a copy %s" % (path, copy))
        return copy


def run_splotch(exe, s, n, work, units="code"):
    L = s.box
    c = 0.5 * L
    out = os.path.join(work, "splotch_%s_%d_%s.npy" % (s.name, n, units))
    par = os.path.join(work, "splotch_%s_%d_%s.par" % (s.name, n, units))
    with open(par, "w") as f:
        f.write("\n".join([
            "simtype = %d" % (8 if s.fmt == "hdf5" else 2),
            "infile = %s" % s.path, "ptypes = 1", "ptype0 = 0",
            "map = column", "map_units = %s" % units,
            "xres = %d" % n, "yres = %d" % n, "map_width = %.17g" % L,
            "lookat_x = %.17g" % c, "lookat_y = %.17g" % c, "lookat_z = %.17g" % c,
            "camera_x = %.17g" % c, "camera_y = %.17g" % c, "camera_z = %.17g" % (c + 2 * L),
            "sky_x = 0", "sky_y = 1", "sky_z = 0",
            "outfile = %s" % out]) + "\n")
    t0 = time.perf_counter()
    p = subprocess.run([exe, par], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError("splotch failed:\n" + p.stdout + p.stderr)
    text = p.stdout + p.stderr
    m = re.search(r"^\s*render\s+([0-9.eE+-]+) s", text, re.M)
    render = float(m.group(1)) if m else float("nan")
    kern = re.search(r"note: kernel: (.*)", text)
    unit = re.search(r"note: map: column of .*?in (.*)", text)
    img = np.load(out).astype(np.float64)     # [row = y from the bottom, col = x]
    return img, wall, render, {"kernel": kern.group(1) if kern else "?", "unit": unit.group(1) if unit else "?",
                               "log": text}


_YT = {}


def run_yt(s, n):
    """Returns the map in code mass / code length^2, [row = y from the bottom, col = x]."""
    t0 = time.perf_counter()
    import yt
    yt.set_log_level(40)
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    ds = yt.load(s.path, unit_base=dict(s.units))   # fresh load per map: the wall time includes it
    proj = ds.proj(("gas", "density"), "z")
    frb = proj.to_frb(ds.domain_width[0], (n, n), center=ds.domain_center)
    t1 = time.perf_counter()
    img = frb["gas", "density"]                        # the SPH pixelisation happens here
    t2 = time.perf_counter()
    code = np.asarray(img.to("code_mass/code_length**2").v, dtype=np.float64)
    wall = t2 - t0
    # the same conversion by hand from yt's cgs: Sigma_code = Sigma_cgs (L_u a / h)^2 / (M_u / h)
    a = 1.0 / (1.0 + float(ds.current_redshift))
    hcgs = s.units["UnitLength_in_cm"] ** 2 * a * a / (s.units["UnitMass_in_g"] * ds.hubble_constant)
    byhand = np.asarray(img.to("g/cm**2").v) * hcgs
    info = {"t_import": t_import, "t_pixelize": t2 - t1, "units": str(img.units),
            "kernel": getattr(ds, "kernel_name", "?"), "periodicity": ds.periodicity,
            "hand_vs_yt": float(np.max(np.abs(byhand / np.where(code > 0, code, 1) - 1)[code > 0])),
            "length_unit": str(ds.length_unit), "mass_unit": str(ds.mass_unit),
            "bounds": [float(b) for b in frb.bounds], "msun_kpc2": np.asarray(img.to("Msun/kpc**2").v)}
    return code, wall, info


def run_splash(gfile, fmt2, n, s, rundir, exact=False):
    """SPLASH 3.6 non-interactively: column density (render density, column 9, 3-D projection,
    not normalised), N pixels across, limits the box; pixel map via -o pfm, in code units."""
    os.makedirs(rundir, exist_ok=True)
    for f in glob.glob(os.path.join(rundir, "*.pfm")):
        os.remove(f)
    # splash reads its namelists in this order; those left out keep their defaults
    with open(os.path.join(rundir, "splash.defaults"), "w") as f:
        f.write("&dataopts\n/\n&plotopts\n/\n&pageopts\n/\n&renderopts\n npix = %d,\n"
                " inormalise_interpolations = F,\n exact_rendering = %s,\n/\n" % (n, "T" if exact else "F"))
    with open(os.path.join(rundir, "splash.limits"), "w") as f:   # x y z the box, the rest unused
        for i in range(12):
            f.write("%.17g %.17g\n" % ((0.0, s.box) if i < 3 else (0.0, 1.0)))
    link = os.path.join(rundir, "snap")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.abspath(gfile), link)
    cmd = ["splash", "-f", "gadget"] + (["--format=2"] if fmt2 else []) + \
          ["-x", "1", "-y", "2", "-r", "9", "-c", "0", "-dev", "/null", "-o", "pfm", "--codeunits", "snap"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=rundir, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    text = p.stdout + p.stderr
    with open(os.path.join(rundir, "splash.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + text)
    pfm = glob.glob(os.path.join(rundir, "*.pfm"))
    if p.returncode != 0 or not pfm:
        raise RuntimeError("splash failed (%s):\n%s" % (" ".join(cmd), text[-3000:]))
    if "column density" not in text or "projecting" not in text:
        raise RuntimeError("splash did not render a column density:\n" + text[-3000:])
    buf = open(pfm[0], "rb").read()
    nbytes = 4 * n * n
    # header 'Pf' / nx ny / -1.0, then Fortran's unformatted record: marker, data, marker
    start = len(buf) - 4 - nbytes
    hdr = buf[:start - 4].decode("ascii", "replace").split()
    assert hdr[0] == "Pf" and int(hdr[1]) == n and int(hdr[2]) == n and float(hdr[3]) < 0, hdr
    assert struct.unpack_from("<i", buf, start - 4)[0] == nbytes
    img = np.frombuffer(buf, dtype="<f4", count=n * n, offset=start).reshape(n, n).astype(np.float64)
    # Fortran datpix(1:nx,1:ny), j = 1 the bottom: numpy [row = y from the bottom, col = x]
    m = re.search(r"pixel size > 2h for\s+(\d+) particles", text)
    info = {"subpixel": int(m.group(1)) if m else 0,
            "projecting": (re.search(r"projecting:\s*(.*)", text) or [None, "?"])[1].strip(),
            "log": text}
    return img, wall, info


# --------------------------------------------------------------------------- comparison

ORIENTATIONS = {
    "as read": lambda a: a, "transposed": lambda a: a.T, "flipud": np.flipud, "fliplr": np.fliplr,
    "rot180": lambda a: a[::-1, ::-1], "transposed+flipud": lambda a: np.flipud(a.T),
    "transposed+fliplr": lambda a: np.fliplr(a.T), "transposed+rot180": lambda a: a.T[::-1, ::-1],
}


def orient(peer, ref):
    """The one of the 8 orientations of peer that matches ref best (median |log ratio|)."""
    mask = ref > 1e-3 * ref.max()
    scores = {}
    for k, f in ORIENTATIONS.items():
        p = f(peer)
        ok = mask & (p > 0)
        scores[k] = float(np.median(np.abs(np.log(p[ok] / ref[ok])))) if ok.any() else np.inf
    best = min(scores, key=scores.get)
    return best, ORIENTATIONS[best](peer), scores


def ratio_stats(peer, ref, sel=None):
    mask = ref > 1e-3 * ref.max()
    if sel is not None:
        mask &= sel
    r = peer[mask] / ref[mask]
    return float(np.median(r)), float(np.percentile(r, 5)), float(np.percentile(r, 95)), int(mask.sum())


def side_by_side(path, maps, ratios, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import LogNorm
    except ImportError:
        log("matplotlib missing: no figure")
        return None
    ref = maps[0][1]
    vmax = max(m.max() for _, m in maps)
    vmin = max(min(np.percentile(m[m > 0], 0.5) for _, m in maps), vmax * 1e-5)
    # the ratios' range: what yt and the periodic SPLASH show (the plain SPLASH's edge saturates)
    dev = [np.percentile(np.abs(r[np.isfinite(r) & (r > 0)] - 1), 99.5) for k, r in ratios if "pg" in k or "yt" in k]
    lim = max(1e-3, max(dev) if dev else 0.2)
    ncol = max(len(maps), len(ratios))
    fig, axes = plt.subplots(2, ncol, figsize=(3.6 * ncol + 1.2, 7.4), squeeze=False, constrained_layout=True)
    for i, (name, m) in enumerate(maps):
        ax = axes[0, i]
        im = ax.imshow(np.where(m > 0, m, vmin), origin="lower", norm=LogNorm(vmin, vmax), cmap="inferno",
                       extent=(0, 1, 0, 1), interpolation="nearest")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("x / box", fontsize=8)
        ax.set_ylabel("y / box", fontsize=8)
    for i in range(len(maps), ncol):
        axes[0, i].axis("off")
    fig.colorbar(im, ax=axes[0, ncol - 1], shrink=0.9, label="code mass / code length$^2$ (log)")
    for i, (name, r) in enumerate(ratios):
        ax = axes[1, i]
        im2 = ax.imshow(r, origin="lower", vmin=1 - lim, vmax=1 + lim, cmap="RdBu_r", extent=(0, 1, 0, 1),
                        interpolation="nearest")
        ax.set_title(name, fontsize=9)
    for i in range(len(ratios), ncol):
        axes[1, i].axis("off")
    fig.colorbar(im2, ax=axes[1, ncol - 1], shrink=0.9, label="peer / splotch")
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def repeated(runs, fn, *a, **k):
    """fn's result of the last of `runs` calls, with the median of their wall times (result[1])
    in its place, and the list of them appended."""
    results = [fn(*a, **k) for _ in range(max(1, runs))]
    walls = sorted(r[1] for r in results)
    last = list(results[-1])
    last[1] = walls[len(walls) // 2]
    return tuple(last) + (walls,)


def stage_times(log):
    """splotch's stage times (seconds) from its report."""
    return dict((m.group(1), float(m.group(2))) for m in re.finditer(r"^\s*([a-z_]+)\s+([0-9.eE+-]+) s\b", log, re.M))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", default="gadget4,bench", help="comma-separated: gadget4, bench")
    ap.add_argument("--n", type=int, nargs="+", default=[256, 1024], help="map sizes (pixels a side)")
    ap.add_argument("--work", default="/tmp/peers", help="scratch directory (maps, logs, figures)")
    ap.add_argument("--splotch", default=os.path.join(REPO, "bin", "splotch"))
    ap.add_argument("--make-snapshot", default=os.path.join(REPO, "bin", "make_snapshot"))
    ap.add_argument("--gadget4", default=GADGET4)
    ap.add_argument("--bench", default=None, help="benchmark snapshot (default: WORK/bench_1e5, made if absent)")
    ap.add_argument("--no-yt", action="store_true")
    ap.add_argument("--no-splash", action="store_true")
    ap.add_argument("--splash-variants", default="splash,splash_pg,splash_pg_exact",
                    help="which SPLASH runs (comma-separated): splash, splash_pg, splash_pg_exact")
    ap.add_argument("--runs", type=int, default=1, help="runs of each tool per map: the wall times are their median")
    ap.add_argument("--timing", action="store_true",
                    help="also print the speed table (make bench: tests/bench/bench_maps.sh); leave out the "
                         "physical-units and format-1 rewrite checks")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    splotch = executable(args.splotch, work)

    snaps = []
    for name in args.inputs.split(","):
        if name == "gadget4":
            snaps.append(read_hdf5(args.gadget4, "gadget4"))
        elif name == "bench":
            path = args.bench or os.path.join(work, "bench_1e5")
            if not os.path.exists(path):
                mk = executable(args.make_snapshot, work)
                subprocess.run([mk, "--n", "100000", "--seed", "1", "--out", path], check=True,
                               stdout=subprocess.DEVNULL)
            snaps.append(read_gadget_binary(path, "bench"))
        else:
            sys.exit("unknown input %r" % name)

    rows, notes, figs, timing = [], [], [], []
    for s in snaps:
        M = s.total_mass
        notes.append("%s: %s, %d gas, box %g, z = %.4g (a = %.5g), h = %g, gas mass %.7g code units; "
                     "HSML %.4g..%.4g (median %.4g)" % (s.name, s.path, len(s.mass), s.box, s.redshift, s.time,
                                                       s.hubble, M, s.hsml.min(), s.hsml.max(), np.median(s.hsml)))
        # SPLASH inputs: the gas as Gadget format 1 (this SPLASH has no HDF5), with and without
        # periodic images (SPLASH's 3-D projection draws none)
        sp_plain = sp_ghost = None
        if not args.no_splash and any(v.startswith("splash") for v in args.splash_variants.split(",")):
            t0 = time.perf_counter()
            if s.fmt == "hdf5":
                sp_plain = (os.path.join(work, "splash_%s_gas.gadget1" % s.name), False)
                write_gadget1(sp_plain[0], s, s.pos, s.vel, s.ids, s.mass, s.u, s.rho, s.hsml)
            else:
                sp_plain = (s.path, True)     # the benchmark file itself, format 2
            idx, gpos = periodic_ghosts(s)
            sp_ghost = (os.path.join(work, "splash_%s_ghosts.gadget1" % s.name), False)
            write_gadget1(sp_ghost[0], s, gpos, s.vel[idx], np.arange(1, len(idx) + 1), s.mass[idx], s.u[idx],
                          s.rho[idx], s.hsml[idx])
            notes.append("%s: SPLASH input written in %.2f s; %d periodic images added for splash_pg"
                         % (s.name, time.perf_counter() - t0, len(idx) - len(s.mass)))
        for n in args.n:
            pix_area = (s.box / n) ** 2
            log("== %s N=%d: splotch" % (s.name, n))
            ref, wall, render, sinfo, swalls = repeated(args.runs, run_splotch, splotch, s, n, work)
            rows.append((s.name, n, "splotch", ref.sum() * pix_area / M, None, None, None, wall, render, ""))
            timing.append((s.name, len(s.mass), n, "splotch", wall, stage_times(sinfo["log"]), swalls))
            if n == args.n[0]:
                notes.append("%s: splotch %s; map in %s" % (s.name, sinfo["kernel"], sinfo["unit"]))
            edge = np.zeros_like(ref, dtype=bool)       # pixels within the 95th-percentile HSML of a face
            w = int(np.ceil(np.percentile(s.hsml, 95) / (s.box / n)))
            edge[:w, :] = edge[-w:, :] = edge[:, :w] = edge[:, -w:] = True
            peers = []
            if not args.no_yt:
                log("== %s N=%d: yt" % (s.name, n))
                img, wall, yinfo, ywalls = repeated(args.runs, run_yt, s, n)
                best, img, scores = orient(img, ref)
                peers.append(("yt", img, wall, yinfo["t_pixelize"], best, scores))
                timing.append((s.name, len(s.mass), n, "yt", wall, {"pixelize": yinfo["t_pixelize"]}, ywalls))
                if n == args.n[0] and not args.timing:
                    notes.append("%s: yt kernel %s, periodicity %s, length unit %s, mass unit %s, FRB bounds %s, "
                                 "FRB units %s -> code_mass/code_length**2 (yt import %.2f s, not counted); "
                                 "by-hand cgs->code conversion (a^2 L^2/(M h)) agrees to %.1e"
                                 % (s.name, yinfo["kernel"], yinfo["periodicity"], yinfo["length_unit"],
                                    yinfo["mass_unit"], yinfo["bounds"], yinfo["units"], yinfo["t_import"],
                                    yinfo["hand_vs_yt"]))
                    # physical units: splotch map_units = physical (Msun/kpc^2) against yt's Msun/kpc**2
                    phys, _, _, pinfo = run_splotch(splotch, s, n, work, units="physical")
                    yphys = ORIENTATIONS[best](yinfo["msun_kpc2"])
                    med = ratio_stats(yphys, phys)[0]
                    notes.append("%s: physical units: splotch map in %s; median yt(Msun/kpc**2)/splotch = %.6f "
                                 "(code-unit median %.6f; Msun: yt 1.98841586e33 g, splotch 1.98841e33 g)" % (s.name, pinfo["unit"], med, ratio_stats(img, ref)[0]))
            if not args.no_splash:
                for tag, (gf, f2), exact in (("splash", sp_plain, False), ("splash_pg", sp_ghost, False),
                                             ("splash_pg_exact", sp_ghost, True)):
                    if tag not in args.splash_variants.split(","):
                        continue
                    log("== %s N=%d: %s" % (s.name, n, tag))
                    img, wall, spinfo, spwalls = repeated(args.runs, run_splash, gf, f2, n, s,
                                                          os.path.join(work, "splash_%s_%d_%s" % (s.name, n, tag)),
                                                          exact=exact)
                    best, img, scores = orient(img, ref)
                    peers.append((tag, img, wall, None, best, scores))
                    timing.append((s.name, len(s.mass), n, tag, wall, {}, spwalls))
                    if spinfo["subpixel"]:
                        notes.append("%s N=%d %s: SPLASH warns pixel size > 2h for %d particles (h floored at half "
                                     "a pixel)" % (s.name, n, tag, spinfo["subpixel"]))
                if s.fmt != "hdf5" and n == args.n[0] and not args.timing and "splash" in args.splash_variants.split(","):
                    # check of the Gadget format-1 writer: SPLASH on the rewritten file = on the original
                    chk = os.path.join(work, "splash_%s_rewritten.gadget1" % s.name)
                    write_gadget1(chk, s, s.pos, s.vel, s.ids, s.mass, s.u, s.rho, s.hsml)
                    a, _, _ = run_splash(chk, False, n, s, os.path.join(work, "splash_%s_%d_rewritten" % (s.name, n)))
                    b = dict((p[0], p[1]) for p in peers)["splash"]
                    notes.append("%s: SPLASH on the format-1 rewrite vs on the original file: max |diff|/max = %.1e"
                                 % (s.name, np.abs(a - b).max() / b.max()))
            for tag, img, wall, stage, best, scores in peers:
                med, p5, p95, npx = ratio_stats(img, ref)
                mi = ratio_stats(img, ref, ~edge)[0]
                me = ratio_stats(img, ref, edge)[0]
                rows.append((s.name, n, tag, img.sum() * pix_area / M, med, p5, p95, wall, stage,
                             "%s (next %s %.3g vs %.3g); median interior %.4f, edge band (%d px) %.4f"
                             % (best, sorted(scores, key=scores.get)[1], sorted(scores.values())[1],
                                scores[best], mi, w, me)))
            fig = side_by_side(
                os.path.join(work, "side_by_side_%s_%d.png" % (s.name, n)),
                [("splotch (pixel integral)", ref)] + [(p[0], p[1]) for p in peers if p[0] in ("yt", "splash", "splash_pg")],
                [(p[0] + " / splotch", p[1] / np.where(ref > 0, ref, np.inf)) for p in peers],
                "%s, %d x %d, column density (code units), log scale" % (s.name, n, n))
            if fig:
                figs.append(fig)

    hdr = ("input", "N", "tool", "total/M", "med", "p5", "p95", "wall s", "stage s", "orientation; notes")
    fmt = "%-8s %5s %-16s %9s %8s %8s %8s %8s %8s  %s"
    print(fmt % hdr)
    f = lambda v, p="%.5f": "-" if v is None else (p % v)
    for r in rows:
        print(fmt % (r[0], r[1], r[2], f(r[3]), f(r[4], "%.4f"), f(r[5], "%.4f"), f(r[6], "%.4f"),
                     f(r[7], "%.2f"), f(r[8], "%.3f"), r[9]))
    print()
    print("med/p5/p95: peer/splotch over the pixels where splotch > 1e-3 of its max; total/M: the map "
          "times the pixel area over the gas mass in the file; stage: splotch's `render`, yt's "
          "pixelisation (first FRB access); orientation: the flip/transpose of the peer's array (read "
          "as [row = y from the bottom, col = x]) that matches splotch best (median |log ratio|)")
    print("splash: as SPLASH 3.6 draws it (no periodic images); splash_pg: with periodic ghost particles "
          "added; splash_pg_exact: and exact_rendering = T")
    for nline in notes:
        print("note: " + nline)
    for fg in figs:
        print("figure: " + fg)
    if args.timing:
        print_timing(timing, args.runs)


def print_timing(timing, runs):
    """The speed table of make bench: splotch's stages, each tool's wall time (the whole process;
    yt: from yt.load, its import not counted) and splotch's speed-up over each peer."""
    print()
    cols = ("dataset", "N", "image", "tool", "read", "render", "write", "total", "wall", "Mpart/s", "vs_splotch", "walls")
    fmt = "%-9s %9s %10s %-16s %7s %7s %7s %7s %8s %8s %10s  %s"
    print(fmt % cols)
    mine = dict(((d, n), w) for d, _, n, tool, w, _, _ in timing if tool == "splotch")
    for d, count, n, tool, wall, stages, walls in timing:
        g = lambda k: ("%.3f" % stages[k]) if k in stages else "-"
        ratio = wall / mine[(d, n)] if (d, n) in mine and mine[(d, n)] > 0 else float("nan")
        print(fmt % (d, count, "%dx%d" % (n, n), tool, g("read"), g("render") if tool == "splotch" else g("pixelize"),
                     g("write"), g("total"), "%.2f" % wall, "%.2f" % (count / wall / 1e6),
                     "1.00x" if tool == "splotch" else "%.2fx" % ratio, " ".join("%.2f" % w for w in walls)))
    print("(seconds; wall: median of %d runs of the whole process (yt: from yt.load to the map's array, its "
          "import not counted); read/render/write/total: splotch's report, of its last run (for yt the render "
          "column is its pixelisation); vs_splotch: this tool's wall over splotch's; Mpart/s from wall)" % runs)


if __name__ == "__main__":
    main()
