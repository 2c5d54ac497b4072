#!/usr/bin/python3
"""Compare splotch's column-density map (`map = column`) with yt's and SPLASH's.

    /usr/bin/python3 tools/compare_maps.py [--inputs gadget4,bench,swift,tipsy] [--n 256 1024] [--work /tmp/peers]
        [--splotch PATH (default REPO/bin/splotch)]

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

Two more real files (--inputs swift,tipsy; ../shared/data), code units (no units in either file):
each peer is run under the convention it takes by itself, and again with the convention matched
to a splotch run (the rows name the splotch run they are compared with: "vs ..."). Every peer
run's row also gives the total that widening sub-pixel kernels predicts, sum m max(1, (pixel /
H)^2) / M (H the support radius; yt: H^2 >= dx dy, SPLASH: 2h >= a pixel, amplitudes unchanged).
- swift: swift_sodshock3d_glass_002.hdf5 (early SWIFT, 50653 gas, periodic box 1, header
  attributes as 1-element arrays, Time an uninitialised 2.3e-310, no Units/Code/HydroScheme
  groups, positions up to 0.0095 outside the box): the whole box along z, one box wide. SWIFT's
  SmoothingLength is h, the cubic spline's support gamma h, gamma = 1.825742.
  * splotch: the file has no Units group, so it is not taken as SWIFT's (docs/maps.md): cubic,
    support = SmoothingLength, Gadget's convention (its report: "support 1 x the smoothing length
    (... Gadget's convention)"); `splotch_gamma` rows: map_hsml_factor = 1.825742, SWIFT's.
  * yt 4.1: SwiftDataset._is_valid (frontends/swift/data_structures.py) wants the Header attribute
    Code = "SWIFT", absent here, so yt.load takes the file as GadgetHDF5Dataset (frontends/gadget),
    SmoothingLength as the cubic's support. Its SWIFT frontend would do the same:
    IOHandlerSwift._get_smoothing_length (frontends/swift/io.py) returns SmoothingLength as stored,
    no kernel gamma, and SwiftDataset takes no kernel_name (cubic: SPHDataset.default_kernel_name,
    frontends/sph/data_structures.py), so yt's support is h, not gamma h, for any SWIFT file.
    `yt_gamma`: yt.load_particles with smoothing_length = gamma h (the same projection).
  * SPLASH: the gas as Gadget format 1 with HSML = the support radius (its reader halves HSML and
    takes support 2h): `splash`/`splash_pg` HSML = h (as splotch's default), `splash_pg_gamma`
    HSML = gamma h; periodic images as for gadget4, positions wrapped into the box first.
- tipsy: changa_testonestar_onestar.tbin (ChaNGa Tipsy standard, big-endian, 32-byte header,
  1088 gas + 1 star; gas only), not periodic: square views centred on the gas's extent, along z,
  each a cube that holds every gas particle with its support. Gasoline/ChaNGa's hsmooth is h with
  support 2h; this file's hsmooth is one value, 0.00125, for every particle (a softening: 2h is a
  few 1e-3 where the particles are ~0.1 apart).
  * splotch: Tipsy: cubic, support 2h, but a single-valued hsmooth is taken as a placeholder and h
    estimated as the radius holding the 32 nearest particles, itself included (d31: the 31st
    nearest other, splotch/load/knn_hsml.h), support 2 d31 (its report says so); computed here by
    brute force for the peers. `splotch_fileh`: size_label0 = hsmooth, the file's h, support 2h
    (as the report's hint says: "size_label0 = hsmooth keeps the file's").
  * yt 4.1 (frontends/tipsy/io.py, IOHandlerTipsyBinary): hsmooth is read as the field Epsilon
    and not used for SPH; smoothing_length comes from _generate_smoothing_length ->
    utilities/lib/particle_kdtree_tools.pyx generate_smoothing_length(..., ds._num_neighbors = 32,
    SPHDataset): the distance to the 32nd nearest other particle (find_neighbors skips the particle
    itself), taken as the cubic's support (so about half of splotch's 2 d31). It caches them as
    FILE-hsml beside the file (loaded here through a link under WORK). Without a .param file
    bPeriodic defaults to True (TipsyDataset._parse_parameter_file): given here a .param with
    bPeriodic = 0 and bounding_box = the view's cube. `yt_2d31`, `yt_2h`: yt.load_particles with
    smoothing_length = 2 d31 and 2 hsmooth.
  * SPLASH: its Tipsy reader (splash -f tipsy) stops on this file ("ERROR reading binary file
    header: wrong endian?") and on a byte-swapped copy (end of file at column 0; both tried, the
    note says): the gas as Gadget format 1, HSML = the support radius: `splash_2d31` (2 d31),
    `splash_2h` (2 hsmooth), `splash_2h_exact` with exact_rendering.
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
SWIFT = os.path.join(os.path.dirname(REPO), "shared", "data", "swift_sodshock3d_glass_002.hdf5")
TIPSY = os.path.join(os.path.dirname(REPO), "shared", "data", "changa_testonestar_onestar.tbin")
SWIFT_CUBIC_GAMMA = 1.825742     # SWIFT's kernel_gamma of the cubic spline: support = gamma h
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
    center = width = simtype = None   # the view (default: the box's centre, one box wide) and splotch's simtype
    periodic = True

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


def read_swift(path, name):
    """An early SWIFT HDF5 snapshot: header attributes as 1-element arrays, no Units, Cosmology or
    HydroScheme group (so: code units; splotch takes it as the Gadget family's, see the docstring),
    positions slightly outside the periodic box (wrapped here into [0, box) for SPLASH's input and
    yt's particle runs; splotch and yt's own reader take the file as it is)."""
    import h5py
    s = Snapshot()
    s.name, s.path, s.fmt, s.simtype = name, path, "hdf5", 8
    one = lambda v: float(np.ravel(v)[0])
    with h5py.File(path, "r") as f:
        h = dict(f["Header"].attrs)
        rt = dict(f["RuntimePars"].attrs) if "RuntimePars" in f else {}
        s.box = one(h["BoxSize"])
        t = one(h.get("Time", 0.0))
        s.time = t if abs(t) > 1e-300 else 0.0    # this file's Time is an uninitialised 2.3e-310
        s.redshift, s.omega0, s.omega_l, s.hubble = 0.0, 0.0, 0.0, 1.0
        s.units = dict(GADGET_DEFAULT_UNITS)      # none written: only yt's unit_base, undone by its code units
        s.periodic = bool(int(np.ravel(rt.get("PeriodicBoundariesOn", [1]))[0]))
        g = f["PartType0"]
        s.pos_file = g["Coordinates"][:].astype(np.float64)
        s.pos = np.mod(s.pos_file, s.box) if s.periodic else s.pos_file
        s.vel = g["Velocities"][:].astype(np.float32)
        s.ids = g["ParticleIDs"][:].astype(np.int64)
        s.mass = g["Masses"][:].astype(np.float64)
        s.u = g["InternalEnergy"][:].astype(np.float32)
        s.rho = g["Density"][:].astype(np.float32)
        s.hsml = g["SmoothingLength"][:].astype(np.float64)
    return s


def read_tipsy(path, name):
    """Tipsy standard binary (Gasoline, ChaNGa), either byte order, 28- or 32-byte header, single
    precision; the gas records (mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi) only."""
    buf = open(path, "rb").read()
    for end in (">", "<"):
        t, nb, ndim, nsph, ndark, nstar = struct.unpack_from(end + "d5i", buf, 0)
        if ndim in (2, 3) and nb == nsph + ndark + nstar and nb >= 0:
            break
    else:
        raise ValueError("%s: not a Tipsy file" % path)
    body = 48 * nsph + 36 * ndark + 44 * nstar
    hdr = {28 + body: 28, 32 + body: 32}.get(len(buf))
    if hdr is None:
        raise ValueError("%s: %d bytes, not the 28 or 32 + %d of single-precision records" % (path, len(buf), body))
    g = np.frombuffer(buf, dtype=end + "f4", count=12 * nsph, offset=hdr).reshape(nsph, 12).astype(np.float64)
    s = Snapshot()
    s.name, s.path, s.fmt, s.simtype = name, path, "tipsy", 11
    s.endian, s.header_bytes = {">": "big", "<": "little"}[end], hdr
    s.time, s.redshift, s.box, s.omega0, s.omega_l, s.hubble = t, 0.0, 0.0, 0.0, 0.0, 1.0
    s.units, s.periodic = None, False
    s.mass, s.pos, s.vel = g[:, 0], g[:, 1:4].copy(), g[:, 4:7].astype(np.float32)
    s.rho, s.u, s.hsml = g[:, 7].astype(np.float32), g[:, 8].astype(np.float32), g[:, 9].copy()   # u: temp
    s.ids = np.arange(1, nsph + 1)
    return s


def knn_distance(pos, k):
    """Distance from each particle to its k-th nearest other particle (open boundaries, brute force:
    for the few thousand particles of a test file)."""
    d = np.empty(len(pos))
    for i0 in range(0, len(pos), 512):
        p = pos[i0:i0 + 512]
        r2 = np.sum((p[:, None, :] - pos[None, :, :]) ** 2, axis=-1)
        d[i0:i0 + 512] = np.sqrt(np.partition(r2, k, axis=1)[:, k])   # column 0: the particle itself
    return d


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


def periodic_ghosts(s, support=None):
    """The gas plus its periodic images across the x and y faces (and corners) that reach into the
    box: kernel support = HSML (Gadget's) unless `support` is given, images of particles within the
    support of a face."""
    L = s.box
    x, y, h = s.pos[:, 0], s.pos[:, 1], (s.hsml if support is None else support)
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
        if os.path.isdir(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(path))), "testdata")):
            return path
        raise PermissionError   # a binary outside a checkout (--splotch): no palettes beside it
    except PermissionError:
        d = os.path.join(work, "exec")
        os.makedirs(os.path.join(d, "bin"), exist_ok=True)
        link = os.path.join(d, "testdata")
        if not os.path.islink(link):
            os.symlink(os.path.join(REPO, "testdata"), link)
        copy = os.path.join(d, "bin", os.path.basename(path))
        shutil.copy2(path, copy)
        os.chmod(copy, 0o755)
        log("note: %s cannot be executed here (noexec mount?) or has no testdata/ beside its bin/; running a "
            "copy %s" % (path, copy))
        return copy


def run_splotch(exe, s, n, work, units="code", extra=(), tag=""):
    """splotch's map of s's view (default: the whole box along z, one box wide); `extra`: more
    parameter lines (a convention: map_hsml_factor, size_estimate0), `tag` names its files."""
    L = s.width or s.box
    cx, cy, cz = s.center if s.center is not None else (0.5 * L,) * 3
    simtype = s.simtype or (8 if s.fmt == "hdf5" else 2)
    out = os.path.join(work, "splotch_%s_%d_%s%s.npy" % (s.name, n, units, tag))
    par = os.path.join(work, "splotch_%s_%d_%s%s.par" % (s.name, n, units, tag))
    with open(par, "w") as f:
        f.write("\n".join([
            "simtype = %d" % simtype,
            "infile = %s" % s.path, "ptypes = 1", "ptype0 = 0",
            "map = column", "map_units = %s" % units,
            "xres = %d" % n, "yres = %d" % n, "map_width = %.17g" % L,
            "lookat_x = %.17g" % cx, "lookat_y = %.17g" % cy, "lookat_z = %.17g" % cz,
            "camera_x = %.17g" % cx, "camera_y = %.17g" % cy, "camera_z = %.17g" % (cz + 2 * L),
            "sky_x = 0", "sky_y = 1", "sky_z = 0"] + list(extra) + [
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


def run_splash(gfile, fmt2, n, s, rundir, exact=False, limits=None):
    """SPLASH 3.6 non-interactively: column density (render density, column 9, 3-D projection,
    not normalised), N pixels across, limits the box (or `limits`: (lo, hi) of x, y, z); pixel map
    via -o pfm, in code units."""
    os.makedirs(rundir, exist_ok=True)
    for f in glob.glob(os.path.join(rundir, "*.pfm")):
        os.remove(f)
    # splash reads its namelists in this order; those left out keep their defaults
    with open(os.path.join(rundir, "splash.defaults"), "w") as f:
        f.write("&dataopts\n/\n&plotopts\n/\n&pageopts\n/\n&renderopts\n npix = %d,\n"
                " inormalise_interpolations = F,\n exact_rendering = %s,\n/\n" % (n, "T" if exact else "F"))
    with open(os.path.join(rundir, "splash.limits"), "w") as f:   # x y z the box, the rest unused
        for i in range(12):
            lim = limits[i] if (limits is not None and i < 3) else ((0.0, s.box) if i < 3 else (0.0, 1.0))
            f.write("%.17g %.17g\n" % tuple(lim))
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


def side_by_side(path, maps, ratios, title, lim_keys=("pg", "yt"), axis="box"):
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
    dev = [np.percentile(np.abs(r[np.isfinite(r) & (r > 0)] - 1), 99.5) for k, r in ratios if any(q in k for q in lim_keys)]
    lim = max(1e-3, max(dev) if dev else 0.2)
    ncol = max(len(maps), len(ratios))
    fig, axes = plt.subplots(2, ncol, figsize=(3.6 * ncol + 1.2, 7.4), squeeze=False, constrained_layout=True)
    for i, (name, m) in enumerate(maps):
        ax = axes[0, i]
        im = ax.imshow(np.where(m > 0, m, vmin), origin="lower", norm=LogNorm(vmin, vmax), cmap="inferno",
                       extent=(0, 1, 0, 1), interpolation="nearest")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("x / %s" % axis, fontsize=8)
        ax.set_ylabel("y / %s" % axis, fontsize=8)
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


def yt_column(ds, n):
    """yt's column density along z of the dataset's whole domain, n x n, in code units; the FRB and
    the times before and after its pixelisation (the FRB's first access)."""
    proj = ds.proj(("gas", "density"), "z")
    frb = proj.to_frb(ds.domain_width[0], (n, n), center=ds.domain_center)
    t1 = time.perf_counter()
    img = frb["gas", "density"]
    t2 = time.perf_counter()
    return np.asarray(img.to("code_mass/code_length**2").v, dtype=np.float64), frb, t1, t2


def run_yt_particles(s, n, pos, support, lo, hi, periodic):
    """yt 4.1 on the gas handed over in memory (yt.load_particles: the same SPH projection and
    pixelisation as its frontends, pixelize_sph_kernel_projection), with the kernel support radius
    we give it as its smoothing_length: the peer run with a convention matched. lo, hi: the domain
    (a cube), which the FRB spans in x and y. Returns the map in code units [row = y, col = x]."""
    import yt
    yt.set_log_level(40)
    t0 = time.perf_counter()
    data = {("io", "particle_position_x"): pos[:, 0], ("io", "particle_position_y"): pos[:, 1],
            ("io", "particle_position_z"): pos[:, 2], ("io", "particle_mass"): np.asarray(s.mass, np.float64),
            ("io", "density"): np.asarray(s.rho, np.float64), ("io", "smoothing_length"): np.asarray(support, np.float64)}
    bbox = np.array([[lo[i], hi[i]] for i in range(3)], dtype=np.float64)
    ds = yt.load_particles(data, length_unit=1.0, mass_unit=1.0, bbox=bbox, periodicity=(periodic,) * 3)
    code, frb, t1, t2 = yt_column(ds, n)
    return code, t2 - t0, {"t_pixelize": t2 - t1, "kernel": getattr(ds, "kernel_name", "?"),
                           "periodicity": ds.periodicity, "bounds": [float(b) for b in frb.bounds]}


def run_yt_tipsy(s, n, work, lo, hi):
    """yt 4.1's own Tipsy frontend on the file (through a link in WORK: yt writes its smoothing
    lengths beside the file, FILE-hsml), open boundaries (a .param with bPeriodic = 0; without one
    yt takes the domain periodic) and bounding_box the view's cube."""
    import yt
    yt.set_log_level(40)
    d = os.path.join(work, "yt_tipsy_%s" % s.name)
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, os.path.basename(s.path))
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(s.path), link)
    param = os.path.join(d, "run.param")
    with open(param, "w") as f:
        f.write("bPeriodic = 0\n")
    t0 = time.perf_counter()
    ds = yt.load(link, parameter_file=param, bounding_box=[[lo[i], hi[i]] for i in range(3)])
    code, frb, t1, t2 = yt_column(ds, n)
    ad = ds.all_data()
    hs = np.asarray(ad["Gas", "smoothing_length"].to("code_length").v)
    eps = np.asarray(ad["Gas", "Epsilon"].to("code_length").v)
    return code, t2 - t0, {"t_pixelize": t2 - t1, "kernel": getattr(ds, "kernel_name", "?"),
                           "periodicity": ds.periodicity, "bounds": [float(b) for b in frb.bounds],
                           "hsml": hs, "epsilon": eps, "sph_ptypes": ds._sph_ptypes,
                           "num_neighbors": ds._num_neighbors}


def try_splash_tipsy(s, work, n):
    """SPLASH 3.6's own Tipsy reader (splash -f tipsy) on the file and on a little-endian copy:
    returns (the log's last lines, whether a map was written)."""
    out = []
    d = os.path.join(work, "splash_%s_tipsy_reader" % s.name)
    os.makedirs(d, exist_ok=True)
    le = os.path.join(d, "littleendian.tbin")
    buf = open(s.path, "rb").read()
    if s.endian == "big":
        hd = np.frombuffer(buf, dtype=">f8", count=1), np.frombuffer(buf, dtype=">i4", count=6, offset=8)
        n_f = (len(buf) - s.header_bytes) // 4
        body = np.frombuffer(buf, dtype=">f4", count=n_f, offset=s.header_bytes)
        with open(le, "wb") as f:
            f.write(hd[0].astype("<f8").tobytes() + hd[1][:(s.header_bytes - 8) // 4].astype("<i4").tobytes()
                    + body.astype("<f4").tobytes())
    files = [("as written", s.path)] + ([("little-endian copy", le)] if s.endian == "big" else [])
    ok = False
    for what, fn in files:
        for f in glob.glob(os.path.join(d, "*.pfm")):
            os.remove(f)
        with open(os.path.join(d, "splash.defaults"), "w") as f:
            f.write("&dataopts\n/\n&plotopts\n/\n&pageopts\n/\n&renderopts\n npix = %d,\n"
                    " inormalise_interpolations = F,\n/\n" % n)
        link = os.path.join(d, "snap")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.abspath(fn), link)
        cmd = ["splash", "-f", "tipsy", "-x", "1", "-y", "2", "-r", "6", "-dev", "/null", "-o", "pfm", "--codeunits", "snap"]
        p = subprocess.run(cmd, cwd=d, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        text = p.stdout + p.stderr
        lines = [l.strip() for l in text.splitlines() if re.search(r"ERROR|WARNING: END|ntot|reading", l)]
        got = bool(glob.glob(os.path.join(d, "*.pfm")))
        ok |= got
        out.append("%s (%s): %s%s" % (" ".join(cmd[:3]), what, " / ".join(lines), "; a map written" if got else "; no map"))
    return "; ".join(out), ok


def subpixel_excess(mass, support, pix):
    """The mass a peer that widens a kernel smaller than a pixel to a pixel without lowering its
    amplitude (yt: H^2 >= dx dy; SPLASH: 2h >= a pixel) adds, over the mass: sum m max(1, (pix/H)^2) / M."""
    return float(np.sum(mass * np.maximum(1.0, (pix / support) ** 2)) / np.sum(mass))


def compare_other(s, args, splotch, work, rows, notes, figs, timing):
    """The SWIFT and Tipsy inputs: splotch under each convention it can take (references), each peer
    against the reference whose convention it shares; rows as main's."""
    M = s.total_mass
    if s.name == "swift":
        g = SWIFT_CUBIC_GAMMA
        L = s.box
        s.center, s.width = (0.5 * L,) * 3, L
        box_view = ((0.5 * L,) * 3, L)
        refs = [("splotch", [], s.hsml, "splotch's default for this file: support = SmoothingLength", box_view),
                ("splotch_gamma", ["map_hsml_factor = %.7g" % g], g * s.hsml, "support = gamma h (SWIFT's)", box_view)]
        peers = [("yt", "splotch", "yt_file", s.hsml), ("yt_gamma", "splotch_gamma", "yt_particles", g * s.hsml),
                 ("splash", "splotch", "splash", s.hsml), ("splash_pg", "splotch", "splash_pg", s.hsml),
                 ("splash_pg_gamma", "splotch_gamma", "splash_pg", g * s.hsml)]
        axis = "box"
    else:
        d31, d32 = knn_distance(s.pos, 31), knn_distance(s.pos, 32)
        H = 2 * d31                           # splotch's support for this file (its note says so)
        mid = 0.5 * (s.pos.min(axis=0) + s.pos.max(axis=0))

        def cube(sup):    # centred on the gas's extent, holding every particle with its support
            half = float(np.max(np.abs(s.pos - mid) + sup[:, None])) * 1.001
            return tuple(mid), 2 * half
        v_knn, v_h = cube(np.maximum(H, d32)), cube(2 * s.hsml)
        notes.append("%s: views: cubes centred on the gas's extent (%.5g, %.5g, %.5g) that hold every gas particle "
                     "with its support, along z too: %.6g wide for the d31/d32 supports, %.6g for 2 hsmooth; hsmooth "
                     "%.4g..%.4g; d31 (31st nearest other particle) %.4g..%.4g (median %.4g), d32 median %.4g"
                     % ((s.name,) + tuple(mid) + (v_knn[1], v_h[1], s.hsml.min(), s.hsml.max(), d31.min(), d31.max(),
                                                   np.median(d31), np.median(d32))))
        refs = [("splotch", [], H, "splotch's default for this file: hsmooth one value (a placeholder), so h = d31, "
                 "support 2h; view %.5g" % v_knn[1], v_knn),
                ("splotch_fileh", ["size_label0 = hsmooth"], 2 * s.hsml, "the file's hsmooth h, support 2h; view %.5g"
                 % v_h[1], v_h)]
        peers = [("yt", "splotch", "yt_tipsy", d32), ("yt_2d31", "splotch", "yt_particles", H),
                 ("yt_2h", "splotch_fileh", "yt_particles", 2 * s.hsml),
                 ("splash_2d31", "splotch", "splash", H), ("splash_2h", "splotch_fileh", "splash", 2 * s.hsml),
                 ("splash_2h_exact", "splotch_fileh", "splash_exact", 2 * s.hsml)]
        axis = "view"
        if not args.no_splash:
            msg, ok = try_splash_tipsy(s, work, args.n[0])
            notes.append("%s: SPLASH's own reader: %s" % (s.name, msg))
    if args.no_yt:
        peers = [p for p in peers if not p[0].startswith("yt")]
    if args.no_splash:
        peers = [p for p in peers if not p[0].startswith("splash")]
    views = dict((r[0], r[4]) for r in refs)
    gfiles = {}
    for tag, _, kind, sup in peers:         # SPLASH's inputs: HSML = the support radius (SPLASH: h = HSML/2, support 2h)
        if kind.startswith("splash"):
            if kind == "splash_pg":
                idx, gpos = periodic_ghosts(s, sup)
            else:
                idx, gpos = np.arange(len(s.mass)), s.pos
            fn = os.path.join(work, "splash_%s_%s.gadget1" % (s.name, tag.replace("_exact", "")))
            write_gadget1(fn, s, gpos, s.vel[idx], np.arange(1, len(idx) + 1), s.mass[idx], s.u[idx], s.rho[idx], sup[idx])
            gfiles[tag] = fn
            if kind == "splash_pg":
                notes.append("%s: %s input: %d periodic images added" % (s.name, tag, len(idx) - len(s.mass)))
    for n in args.n:
        maps = {}
        for rtag, extra, sup, what, view in refs:
            s.center, s.width = view
            pix_area = (s.width / n) ** 2
            log("== %s N=%d: %s" % (s.name, n, rtag))
            ref, wall, render, sinfo, swalls = repeated(args.runs, run_splotch, splotch, s, n, work,
                                                        extra=extra, tag="_" + rtag)
            maps[rtag] = ref
            rows.append((s.name, n, rtag, ref.sum() * pix_area / M, None, None, None, wall, render,
                         "%s%s" % (what, ("; " + " ".join(extra)) if extra else "")))
            timing.append((s.name, len(s.mass), n, rtag, wall, stage_times(sinfo["log"]), swalls))
            if n == args.n[0]:
                for key in ("smoothing lengths", "the file's hsmooth", "kernel"):
                    for m in re.finditer(r"note: (%s.*)" % re.escape(key), sinfo["log"]):
                        notes.append("%s %s: splotch %s" % (s.name, rtag, m.group(1)))
        peer_maps = []
        for tag, rtag, kind, sup in peers:
            log("== %s N=%d: %s" % (s.name, n, tag))
            ref = maps[rtag]
            s.center, s.width = views[rtag]
            lo, hi = tuple(np.asarray(s.center) - 0.5 * s.width), tuple(np.asarray(s.center) + 0.5 * s.width)
            limits = [(lo[i], hi[i]) for i in range(3)]
            pix = s.width / n
            pix_area = pix * pix
            if kind == "yt_file":
                img, wall, info, walls = repeated(args.runs, run_yt, s, n)
            elif kind == "yt_tipsy":
                img, wall, info, walls = repeated(args.runs, run_yt_tipsy, s, n, work, lo, hi)
                if n == args.n[0]:
                    hs = info["hsml"]
                    notes.append("%s: yt's Tipsy frontend: SPH types %s, smoothing_length from its %d nearest "
                                 "neighbours (not the file's hsmooth, which it reads as Epsilon, %.4g..%.4g): "
                                 "median %.5g; vs the 32nd nearest other particle here: max |rel diff| %.1e; "
                                 "median 2 d31 / yt's %.4f; periodicity %s"
                                 % (s.name, info["sph_ptypes"], info["num_neighbors"], info["epsilon"].min(),
                                    info["epsilon"].max(), np.median(hs),
                                    float(np.max(np.abs(np.sort(hs) / np.sort(d32) - 1))),
                                    float(np.median(np.sort(2 * d31) / np.sort(hs))), info["periodicity"]))
            elif kind == "yt_particles":
                img, wall, info, walls = repeated(args.runs, run_yt_particles, s, n, s.pos, sup, lo, hi, s.periodic)
            else:
                img, wall, info, walls = repeated(args.runs, run_splash, gfiles[tag], False, n, s,
                                                  os.path.join(work, "splash_%s_%d_%s" % (s.name, n, tag)),
                                                  exact=kind == "splash_exact", limits=limits)
            raw = img
            best, img, scores = orient(img, ref)
            peer_maps.append((tag, img))
            med, p5, p95, npx = ratio_stats(img, ref)
            if best != "as read":     # a peer that disagrees may match a flip better: the map as read too
                a0 = ratio_stats(raw, ref)
                best += " (as read: med %.4f p5 %.4f p95 %.4f)" % a0[:3]
            extra_note = ""
            if kind == "yt_file" and n == args.n[0]:
                extra_note = "; yt frontend %s kernel %s periodicity %s" % (info.get("length_unit"), info["kernel"], info["periodicity"])
            if kind.startswith("splash") and info.get("subpixel"):
                extra_note += "; SPLASH: pixel > 2h for %d" % info["subpixel"]
            nsub = int(np.sum(sup < pix))
            rows.append((s.name, n, tag, img.sum() * pix_area / M, med, p5, p95, wall, info.get("t_pixelize"),
                         "vs %s; %s; %d of %d supports below a pixel, widening predicts total %.5f%s"
                         % (rtag, best, nsub, len(sup), subpixel_excess(s.mass, sup, pix), extra_note)))
            timing.append((s.name, len(s.mass), n, tag, wall, {}, walls))
        ratios = [(tag + " / " + rtag, img / np.where(maps[rtag] > 0, maps[rtag], np.inf))
                  for (tag, img), (_, rtag, _, _) in zip(peer_maps, peers)]
        fig = side_by_side(
            os.path.join(work, "side_by_side_%s_%d.png" % (s.name, n)),
            [(r[0], maps[r[0]]) for r in refs] + [p for p in peer_maps if "exact" not in p[0]], ratios,
            "%s, %d x %d, column density (code units), log scale; ratios against the splotch run of the same "
            "convention" % (s.name, n, n), lim_keys=("gamma", "pg", "2d31", "2h") if s.name == "swift" else ("2d31",),
            axis=axis)
        if fig:
            figs.append(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", default="gadget4,bench", help="comma-separated: gadget4, bench, swift, tipsy")
    ap.add_argument("--n", type=int, nargs="+", default=[256, 1024], help="map sizes (pixels a side)")
    ap.add_argument("--work", default="/tmp/peers", help="scratch directory (maps, logs, figures)")
    ap.add_argument("--splotch", default=os.path.join(REPO, "bin", "splotch"))
    ap.add_argument("--make-snapshot", default=os.path.join(REPO, "bin", "make_snapshot"))
    ap.add_argument("--gadget4", default=GADGET4)
    ap.add_argument("--swift", default=SWIFT)
    ap.add_argument("--tipsy", default=TIPSY)
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
        elif name == "swift":
            snaps.append(read_swift(args.swift, "swift"))
        elif name == "tipsy":
            snaps.append(read_tipsy(args.tipsy, "tipsy"))
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
        if s.name in ("swift", "tipsy"):
            compare_other(s, args, splotch, work, rows, notes, figs, timing)
            continue
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
