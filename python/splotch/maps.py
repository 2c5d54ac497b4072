"""splotch.map: the quantitative maps (column, average, slice: docs/maps.md) as float arrays with
their extent, units and record, drawn as bin/splotch draws them."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _core

_MAP_FORMATS = {".fits": "fits", ".fit": "fits", ".fts": "fits", ".h5": "hdf5", ".hdf5": "hdf5", ".npy": "npy"}


class Map:
    """One map: ``values`` (a float32 array of shape (height, width), row 0 at the bottom: show
    it with origin="lower"), in ``unit``; ``extent`` its sides in ``length_unit`` about its centre;
    the record a data file keeps (kernel, time, redshift, the parameters)."""

    def __init__(self, drawn: Dict[str, Any], view: int = 0) -> None:
        m = drawn["maps"][view]
        self.values: np.ndarray = m["values"]
        self.values.flags.writeable = False
        self.quantity: str = m["quantity"]
        self.unit: str = m["unit"]
        self.fits_unit: str = m["fits_unit"]
        self.length_unit: str = m["length_unit"]
        self.physical: bool = m["physical"]
        self.pixel: float = m["pixel"]
        self.centre: Tuple[float, float, float] = tuple(m["centre"])
        self.x_axis: Tuple[float, float, float] = tuple(m["x_axis"])
        self.y_axis: Tuple[float, float, float] = tuple(m["y_axis"])
        self.time: float = m["time"]
        self.redshift: Optional[float] = m["redshift"]
        self.snapshot: str = m["snapshot"]
        self.kernel: str = m["kernel"]
        self.history: List[str] = list(m["history"])
        self.figure_rgb: Optional[np.ndarray] = m["figure"]
        self._write = m["write"]
        self.report: str = drawn["report"]
        self.notes: List[str] = list(drawn["notes"])
        self.warnings: List[str] = list(drawn["warnings"])
        self.used_par: str = drawn["used_par"]
        self.outfile: str = drawn["image_path"]
        self.stages: Dict[str, float] = dict(drawn["stages"])  # seconds per stage, as the report gives them
        self.renderer: str = drawn["renderer"]
        self.particles_read: int = drawn["particles_read"]
        self.seconds: float = drawn["total_seconds"]
        self.reused: bool = drawn["reused"]  # the particles came from an earlier call of the Session
        self.peak_memory_mib: float = drawn["peak_memory_mib"]

    @property
    def shape(self) -> Tuple[int, int]:
        return self.values.shape

    @property
    def extent(self) -> Tuple[float, float, float, float]:
        """(left, right, bottom, top) in length_unit, about the centre along x_axis and y_axis
        (matplotlib's imshow extent)."""
        height, width = self.values.shape
        return (-width * self.pixel / 2, width * self.pixel / 2, -height * self.pixel / 2, height * self.pixel / 2)

    @property
    def world_axes(self) -> Optional[Tuple[str, str]]:
        """The snapshot's axes ("x", "y" or "z") along the map's width and height, where the view
        looks along one of them (a placed camera's face, or any camera on an axis); None for a view
        at an angle."""
        names = []
        for axis in (self.x_axis, self.y_axis):
            along = [n for n, c in zip("xyz", axis) if abs(abs(c) - 1) < 1e-6]
            if len(along) != 1:
                return None
            names.append(along[0])
        return names[0], names[1]

    @property
    def world_extent(self) -> Optional[Tuple[float, float, float, float]]:
        """The extent in the snapshot's own coordinates along world_axes (left, right, bottom,
        top: left > right where the map's width runs against its axis), as imshow takes it; None
        for a view at an angle."""
        named = self.world_axes
        if named is None:
            return None
        left, right, bottom, top = self.extent
        out = []
        for name, axis, lo, hi in ((named[0], self.x_axis, left, right), (named[1], self.y_axis, bottom, top)):
            k = "xyz".index(name)
            sign = 1.0 if axis[k] > 0 else -1.0
            out += [self.centre[k] + sign * lo, self.centre[k] + sign * hi]
        return out[0], out[1], out[2], out[3]

    def total(self) -> float:
        """A column map's values times the pixel area, summed: the amount drawn (unit times
        length_unit^2); NaN pixels (an average's empty ones) left out."""
        return float(np.nansum(self.values.astype(np.float64)) * self.pixel * self.pixel)

    def save(self, path: Optional[str] = None) -> str:
        """Writes the map as bin/splotch does: a data file by its name (.fits, .h5, .npy), with
        path.used.par beside it. Returns the path."""
        path = os.fspath(path) if path is not None else self.outfile
        suffix = os.path.splitext(path)[1].lower()
        if path == self.outfile and suffix not in _MAP_FORMATS:  # (the run's figure's name: its FITS beside it)
            path, suffix = os.path.splitext(path)[0] + ".fits", ".fits"
        if suffix not in _MAP_FORMATS:
            raise _core.SplotchError(f"'{path}': a map's data file ends in .fits, .h5 or .npy")
        self._write(path, _MAP_FORMATS[suffix])
        with open(path + ".used.par", "w") as used:
            used.write(self.used_par)
        return path

    def to_fits(self, path: str) -> str:
        """The FITS file bin/splotch writes (BUNIT, the WCS of the pixels, the record)."""
        if os.path.splitext(os.fspath(path))[1].lower() not in (".fits", ".fit", ".fts"):
            raise _core.SplotchError(f"'{path}': a FITS file's name ends in .fits")
        return self.save(path)

    def plot(self, ax: Any = None, log: bool = True, decades: float = 4, cmap: str = "inferno", **imshow: Any) -> Any:
        """A matplotlib figure of the map with its colour bar (unit) and axes (length_unit); on a
        log scale over `decades` below the largest value (vmin=, vmax= to choose)."""
        import matplotlib.pyplot as plt
        from matplotlib.colors import LogNorm

        if ax is None:
            _, ax = plt.subplots()
        values = np.asarray(self.values, dtype=np.float64)
        positive = values[np.isfinite(values) & (values > 0)]
        norm = None
        if log and positive.size and "vmin" not in imshow and "vmax" not in imshow:
            top = positive.max()
            norm = LogNorm(vmin=max(positive.min(), top * 10.0**-decades), vmax=top)
        colours = plt.get_cmap(cmap).copy()
        colours.set_bad(colours(0.0))  # (empty pixels, zero on a log scale, as the lowest value)
        colours.set_under(colours(0.0))
        named, world = self.world_axes, self.world_extent
        image = ax.imshow(values, origin="lower", extent=world or self.extent, cmap=colours, norm=norm, **imshow)
        if named:  # (the snapshot's own coordinates)
            ax.set_xlabel(f"{named[0]} [{self.length_unit}]")
            ax.set_ylabel(f"{named[1]} [{self.length_unit}]")
        else:
            ax.set_xlabel(f"from the centre along {tuple(round(c, 3) for c in self.x_axis)} [{self.length_unit}]")
            ax.set_ylabel(f"from the centre along {tuple(round(c, 3) for c in self.y_axis)} [{self.length_unit}]")
        # (two lines: a long unit on one beside the quantity runs past the figure)
        ax.figure.colorbar(image, ax=ax, label=f"{self.quantity}\n[{self.unit}]")
        return ax

    def _repr_png_(self) -> Optional[bytes]:
        if self.figure_rgb is None:
            return None
        return _core.encode((self.figure_rgb.astype(np.float32) + 0.5) / 256, "png")

    def __repr__(self) -> str:
        height, width = self.values.shape
        return f"<splotch.Map {self.quantity}, {width}x{height} pixels of {self.pixel:.4g} {self.length_unit}, in {self.unit}>"
