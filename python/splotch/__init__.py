"""splotch from Python: pictures of particle simulations as NumPy arrays, in notebooks.

    import splotch
    picture = splotch.render("snap_010.hdf5", xres=1024)    # a snapshot alone: its first picture
    picture = splotch.render("galaxy.par", fov=30)          # a parameter file, keys overridden
    picture.rgb              # float32 array (height, width, 3), the picture's values in [0, 1]
    picture.save("a.png")    # the file bin/splotch writes, and its used.par beside it
    picture                  # shown in a notebook
    column = splotch.map("snap_010.hdf5", "column", xres=512)  # values, extent, unit; to_fits()
    snap = splotch.read("snap_010.hdf5")                     # the header, units, types and fields
    snap[0]["Coordinates"]   # float32 array (count, 3), read when first asked for
    gas = splotch.Particles(x=x, y=y, z=z, h=h, rho=rho)    # arrays in memory, used in place
    picture = splotch.render(gas, color_label0="rho")       # drawn with the same keys
    splotch.explore("snap_010.hdf5")                         # the browser explorer, in the notebook

Every key is bin/splotch's (docs/parameters.md); a picture is byte for byte the one bin/splotch
draws from the same keys. Problems come as splotch.SplotchError (a ValueError) with
bin/splotch's message; Ctrl-C stops a long render.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _core
from .explorer import Explorer
from .maps import Map
from .particles import Particles, ParticlesInput, core_arrays, is_particles
from .snapshot import ParticleType, Snapshot

__version__: str = _core.version
SplotchError = _core.SplotchError

__all__ = ["read", "render", "map", "info", "explore", "Explorer", "Session", "Picture", "Map", "Particles", "SplotchWarning", "Snapshot",
           "ParticleType", "SplotchError", "key_arguments"]

Input = Union[str, "os.PathLike[str]", ParticlesInput]

class SplotchWarning(UserWarning):
    """What bin/splotch says as "splotch: warning: ..." (a key not used, a range that lights
    nothing, ...): each also in the picture's or map's .warnings."""


_PALETTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "palettes")


def _drawn(input: Any, keys: List[str], draw: Any) -> Dict[str, Any]:
    drawn = draw(input, keys)
    for text in drawn["warnings"]:
        warnings.warn(text, SplotchWarning, stacklevel=3)
    return drawn


class _Source:
    """What a call draws: a file's name (checked to exist), or particles in memory (their
    arrays handed to the native module once, kept as long as this)."""

    def __init__(self, input: Any) -> None:
        self.converted: List[str] = []
        if is_particles(input):
            self.name = "particles"
            self.arrays = core_arrays(input)
            for p in input.values() if isinstance(input, dict) else input if isinstance(input, (list, tuple)) else [input]:
                self.converted += p.converted
            return
        if not isinstance(input, (str, bytes, os.PathLike)):
            hint = ""
            if isinstance(input, dict) or getattr(getattr(input, "dtype", None), "names", None):
                hint = ": splotch.Particles(**fields) makes particles of a table of arrays"
            raise TypeError(f"splotch draws a parameter file, a snapshot or splotch.Particles, not "
                            f"{type(input).__name__}{hint}")
        self.name = os.fspath(input)
        self.arrays = None
        if not os.path.exists(self.name):
            raise FileNotFoundError(f"'{self.name}': no such parameter file or snapshot")

    def draw(self, keys: List[str], session: Any = None) -> Dict[str, Any]:
        if self.arrays is not None:
            try:
                drawn = _drawn(self.arrays, keys, session.draw_arrays if session else _core.draw_arrays)
            except SplotchError as e:
                if "no field 'MASS'" not in str(e):
                    raise
                raise SplotchError(f"{e}; arrays in memory: give splotch.Particles their masses (mass=...), or "
                                   "map another of their fields (map_quantity0=\"rho\", say)") from None
        else:
            drawn = _drawn(self.name, keys, session.draw if session else _core.draw)
        if self.converted:
            drawn["notes"] = [*drawn["notes"], "copied to float32 arrays (the others used in place): " +
                              ", ".join(self.converted)]
        return drawn


_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".tga": "tga", ".ppm": "ppm"}


def key_arguments(keys: Dict[str, Any]) -> List[str]:
    """The keys as bin/splotch's key=value arguments (True and False as TRUE and FALSE)."""
    out = []
    for name, value in keys.items():
        if isinstance(value, bool):
            text = "TRUE" if value else "FALSE"
        elif isinstance(value, (list, tuple, np.ndarray)):
            raise SplotchError(f"{name} = {value!r}: a key takes one value (a number, a word or a path)")
        else:
            text = str(value)
        out.append(f"{name}={text}")
    return out


class Picture:
    """One picture: its pixels, the run's report and the used.par that draws it again."""

    def __init__(self, drawn: Dict[str, Any], view: int = 0) -> None:
        self.rgb: np.ndarray = drawn["images"][view]
        self.views: List[np.ndarray] = list(drawn["images"])
        self.used_par: str = drawn["used_par"]
        self.outfile: str = drawn["image_path"]
        self.report: str = drawn["report"]
        self.warnings: List[str] = list(drawn["warnings"])
        self.notes: List[str] = list(drawn["notes"])
        self.ranges: List[str] = list(drawn["ranges"])
        self.stages: Dict[str, float] = dict(drawn["stages"])
        self.renderer: str = drawn["renderer"]
        self.particles_read: int = drawn["particles_read"]
        self.particles_active: int = drawn["particles_active"]
        self.seconds: float = drawn["total_seconds"]
        self.reused: bool = drawn["reused"]  # the particles came from an earlier call of the Session
        self.peak_memory_mib: float = drawn["peak_memory_mib"]

    @property
    def shape(self) -> Tuple[int, int]:
        """(height, width) in pixels."""
        return self.rgb.shape[0], self.rgb.shape[1]

    def to_uint8(self) -> np.ndarray:
        """The 8-bit picture bin/splotch writes: v8 = clamp(int(256 v), 0, 255)."""
        return np.clip((self.rgb * 256.0).astype(np.int64), 0, 255).astype(np.uint8)

    def save(self, path: Optional[str] = None, quality: int = 90) -> str:
        """Writes the picture (its format by the name: .png, .jpg, .tga, .ppm) and path.used.par
        beside it, as bin/splotch does; without a path, to the run's outfile. Returns the path."""
        path = os.fspath(path) if path is not None else self.outfile
        suffix = os.path.splitext(path)[1].lower()
        if suffix not in _FORMATS:
            raise SplotchError(f"'{path}': a picture's name ends in .png, .jpg, .jpeg, .tga or .ppm")
        _core.write(self.rgb, path, _FORMATS[suffix], quality)
        with open(path + ".used.par", "w") as used:
            used.write(self.used_par)
        return path

    def png(self) -> bytes:
        """The PNG file's bytes."""
        return _core.encode(self.rgb, "png")

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:
        height, width = self.shape
        return (f"<splotch.Picture {width}x{height}, {self.particles_read} particles read, "
                f"{self.renderer}, {self.seconds:.3g} s>")


def render(input: Input, **keys: Any) -> Picture:
    """Draws the picture of `input` (a parameter file; a snapshot alone: the first picture
    bin/splotch would draw of it; or splotch.Particles, a list of them: their first picture, as
    a snapshot's) with `keys` overriding the file's (xres=1024, fov=30, palette0="ice", ...).
    The GIL is released while it draws; Ctrl-C stops it."""
    source = _Source(input)
    drawn = source.draw(key_arguments(keys))
    if drawn["maps"]:
        raise SplotchError(f"'{source.name}' with these keys draws a map (map = ...): splotch.map draws it")
    return Picture(drawn)


def info(path: str) -> str:
    """What `bin/splotch --info path` prints: the snapshot's types, fields, ranges, units, time."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"'{path}': no such snapshot or parameter file")
    return _core.info(path)


def read(path: str, **keys: Any) -> Snapshot:
    """The snapshot `path` (any format bin/splotch reads by itself; `keys` as for a render, e.g.
    swap_endian=True): its header, units, time, and per type its fields, each read as NumPy when
    first asked for. The formats read as columns (RAMSES, Enzo, Phantom, ...) are read once, and
    their arrays are the reader's own memory, not a copy."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"'{path}': no such snapshot")
    return Snapshot(path, key_arguments(keys))


def map(input: Input, mode: str = "column", **keys: Any) -> Map:  # noqa: A001 (splotch.map, as the key is)
    """The quantitative map `mode` (column, average or slice; docs/maps.md) of `input` (as for
    render: a file or splotch.Particles) with `keys` (map_quantity0="Density", map_units=
    "physical", xres=512, ...), drawn as bin/splotch draws it: a Map of float values in their
    unit, with its extent and record (to_fits())."""
    drawn = _Source(input).draw(key_arguments({"map": mode, **keys}))
    if not drawn["maps"]:
        raise SplotchError(f"map = {mode}: no map was drawn")
    return Map(drawn)


class Session:
    """Pictures and maps of one input that share what the first call read: the snapshot's
    particles (kept, ready for any camera) and their copy on the GPU, so that a loop over cameras
    or the frames of an orbit costs a draw each, not a read. Keys given here hold for every call;
    a call's keys are added to them.

        session = splotch.Session("snap_010.hdf5", xres=800)
        for angle in range(0, 360, 10):
            picture = session.render(camera_x=..., camera_y=..., camera_z=...)
    """

    def __init__(self, input: Input, **keys: Any) -> None:
        self._source = _Source(input)
        self.input = self._source.name
        self.keys: Dict[str, Any] = dict(keys)
        self._core = _core.Session(True)
        # The first picture's automatic exposure, kept for the later ones (an orbit's frames alike).
        self.exposure: Optional[float] = None

    def render(self, **keys: Any) -> Picture:
        """A picture with the session's keys and these; the particles read by an earlier call
        are drawn again where the keys that read them are the same (Picture.reused).

        Where no exposure or brightnessN is given, the first picture's automatic exposure
        (exposure = auto) is kept for the later ones, so that the views of an orbit or a movie are
        alike in brightness (Session.exposure; give exposure="auto" to choose it for each)."""
        given = {**self.keys, **keys}
        own = any(k == "exposure" or k.startswith("brightness") for k in given)
        if not own and self.exposure is not None:
            given["exposure"] = repr(self.exposure)
        drawn = self._source.draw(key_arguments(given), self._core)
        if drawn["maps"]:
            raise SplotchError(f"'{self.input}' with these keys draws a map (map = ...): Session.map draws it")
        if not own and self.exposure is None:
            for line in drawn["used_par"].splitlines():
                if line.startswith("exposure = ") and "# auto" in line:
                    self.exposure = float(line.split("=", 1)[1].split("#", 1)[0])
        return Picture(drawn)

    def map(self, mode: str = "column", **keys: Any) -> Map:
        """A map (as splotch.map) with the session's keys and these."""
        return Map(self._source.draw(key_arguments({**self.keys, "map": mode, **keys}), self._core))

    def kept_memory(self) -> List[Dict[str, Tuple[int, bool, int]]]:
        """Per snapshot kept: where its positions (x, y, z), smoothing lengths, intensities and
        colours are (address, whether the caller's memory used in place, length)."""
        return self._core.kept_memory()


def explore(input: Input, port: int = 0, host: str = "127.0.0.1", width: Union[int, str] = "100%",
            height: int = 760, proxy: Optional[str] = None, **keys: Any) -> Explorer:
    """The browser explorer of `input` (a parameter file, a snapshot alone or splotch.Particles,
    as for render) with `keys` over it, as bin/splotch --serve serves it: the snapshot read once,
    the page to fly through it, tune its keys, Save the .par and make movies. Served from this
    process until Explorer.stop(); a notebook shows the page (an IFrame `width` by `height`).

    `port` 0 takes a free one; `host` "127.0.0.1" is this machine only (a notebook's browser
    elsewhere: an ssh tunnel to the port, or `proxy`, e.g. "/proxy/{port}/" with
    jupyter-server-proxy). The first view's errors come as SplotchError, and no server starts;
    Ctrl-C while the snapshot is read stops it."""
    source = _Source(input)
    core = _core.Explorer(source.name if source.arrays is None else "", key_arguments(keys), source.arrays, host,
                          int(port), _PALETTES)
    explorer = Explorer(core, source.name, width, height, proxy)
    for text in explorer.warnings:
        warnings.warn(text, SplotchWarning, stacklevel=2)
    return explorer
