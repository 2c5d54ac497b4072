"""splotch.Particles: particles held in memory (NumPy arrays), drawn and mapped as a snapshot's
fields are, with the same keys, without a copy of the arrays."""
from __future__ import annotations

import itertools
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core

_names = itertools.count(1)


def _field(name: str, values: Any, converted: List[str]) -> tuple:
    """(name, a 1-D float32 C-contiguous array, what was given): the array itself where it is
    one already (used in place), else a float32 copy (said in `converted`)."""
    given = np.asarray(values)
    if given.ndim != 1:
        raise _core.SplotchError(f"the field {name!r} has shape {given.shape}: a field is one value per particle "
                                 f"(a vector: give its components, as x, y, z or vx, vy, vz)")
    if given.dtype == np.float32 and given.flags.c_contiguous:
        return name, given, "float32"
    if not np.issubdtype(given.dtype, np.number) or np.issubdtype(given.dtype, np.complexfloating):
        raise _core.SplotchError(f"the field {name!r} is of {given.dtype}: a field holds real numbers")
    converted.append(f"{name} ({given.dtype}{'' if given.flags.c_contiguous else ', strided'})")
    return name, np.ascontiguousarray(given, dtype=np.float32), f"{given.dtype} (converted to float32)"


def _no_table_as_x(x: Any, y: Any, z: Any) -> None:
    """A table of fields given where the x positions go: said, with the call that takes it."""
    if isinstance(x, Mapping):
        raise _core.SplotchError(f"splotch.Particles was given a dict of {len(x)} fields as x: give its fields as "
                                 f"keywords, splotch.Particles(**fields) (with x, y, z or pos among them)")
    names = getattr(getattr(x, "dtype", None), "names", None)
    if names:
        raise _core.SplotchError(f"splotch.Particles was given a structured array (fields {', '.join(names)}) as x: "
                                 "give its fields as keywords, splotch.Particles(**{n: a[n] for n in a.dtype.names})")
    shape = np.shape(x) if x is not None and y is None and z is None else None
    if shape is not None and len(shape) == 2 and 3 in shape:
        hint = "pos=a" if shape[1] == 3 else "pos=a.T (it is (3, N))"
        raise _core.SplotchError(f"splotch.Particles was given positions of shape {shape} as x: "
                                 f"give them as {hint}, or x, y and z one by one")


class Particles:
    """One type of particles in memory: positions ``x, y, z`` (or ``pos``, an (N, 3) array),
    smoothing lengths ``h`` where known, and any other fields by name (``mass=``, ``rho=``,
    ``temperature=``, ...), which the keys name as they name a file's (color_label0="temperature",
    map_quantity0="mass"). Names are read as a snapshot's: h, hsml or SmoothingLength the
    smoothing lengths, mass or Masses, rho or Density, u or InternalEnergy, vx/vy/vz.

    1-D float32 C-contiguous arrays are used in place, never written, and kept alive as long as a
    picture or Session needs them; any other (float64, strided, the columns of ``pos``) is made a
    float32 copy once, listed in ``converted``.

        gas = splotch.Particles(x=x, y=y, z=z, h=h, rho=rho, mass=m, name="gas")
        picture = splotch.render(gas, xres=800)
        stars = splotch.Particles(pos=star_pos, type=4, name="stars")
        picture = splotch.render([gas, stars], ptypes=2, ptype1=4)
    """

    def __init__(self, x: Any = None, y: Any = None, z: Any = None, *, pos: Any = None, h: Any = None,
                 type: Optional[int] = None, name: str = "", box_size: float = 0.0, time: float = 0.0,  # noqa: A002
                 redshift: Optional[float] = None, units: Optional[Mapping[str, Any]] = None, **fields: Any) -> None:
        _no_table_as_x(x, y, z)
        self.converted: List[str] = []
        self.type: Optional[int] = type
        self.name: str = name
        # The snapshot's, for maps and the periodic box (as splotch.read gives them: Snapshot.units).
        self.box_size: float = float(box_size)
        self.time: float = float(time)
        self.redshift: Optional[float] = redshift
        self.units: Dict[str, Any] = dict(units or {})
        if pos is not None:
            if x is not None or y is not None or z is not None:
                raise _core.SplotchError("give the positions once: pos (an (N, 3) array) or x, y and z")
            p = np.asarray(pos)
            if p.ndim != 2 or p.shape[1] != 3:
                hint = ": pos=a.T" if p.ndim == 2 and p.shape[0] == 3 else ""
                raise _core.SplotchError(f"pos has shape {p.shape}: the positions are an (N, 3) array{hint}")
            x, y, z = p[:, 0], p[:, 1], p[:, 2]
        if x is None or y is None or z is None:
            raise _core.SplotchError("the particles need their positions: x, y and z (or pos, an (N, 3) array)")
        given: Dict[str, Any] = {"x": x, "y": y, "z": z}
        if h is not None:
            given["h"] = h
        given.update(fields)
        self.fields: Dict[str, np.ndarray] = {}
        self._entries = []
        for field_name, values in given.items():
            entry = _field(field_name, values, self.converted)
            self.fields[field_name] = entry[1]
            self._entries.append(entry)
        counts = {len(v) for v in self.fields.values()}
        if len(counts) != 1:
            sizes = ", ".join(f"{k} {len(v)}" for k, v in self.fields.items())
            raise _core.SplotchError(f"every field has one value per particle, and these differ: {sizes}")

    @property
    def count(self) -> int:
        return len(self.fields["x"])

    def __repr__(self) -> str:
        what = f" type {self.type}" if self.type is not None else ""
        return f"<splotch.Particles{what} {self.name!r}: {self.count} particles, fields {', '.join(self.fields)}>"


ParticlesInput = Union[Particles, Sequence[Particles], Mapping[int, Particles]]


def is_particles(input: Any) -> bool:
    """Whether `input` is particles in memory (rather than a file's name)."""
    if isinstance(input, Particles):
        return True
    if isinstance(input, Mapping):
        return bool(input) and all(isinstance(p, Particles) for p in input.values())
    if isinstance(input, (list, tuple)):
        return bool(input) and all(isinstance(p, Particles) for p in input)
    return False


def core_arrays(input: ParticlesInput) -> "_core.Arrays":
    """The particles as the native module's arrays, types numbered by their ``type`` (else their
    place in the list: 0, 1, ...; a dict's keys); the box, time and units those of the types that
    give them (alike, or an error)."""
    if isinstance(input, Particles):
        numbered: Iterable = [(input.type if input.type is not None else 0, input)]
    elif isinstance(input, Mapping):
        numbered = [(int(t), p) for t, p in input.items()]
    else:
        numbered = [(p.type if p.type is not None else n, p) for n, p in enumerate(input)]
    numbered = list(numbered)
    types = [(t, p.name, list(p._entries)) for t, p in numbered]
    shared: Dict[str, Any] = {}
    for what, unset in (("box_size", 0.0), ("time", 0.0), ("redshift", None), ("units", {})):
        given = [getattr(p, what) for _, p in numbered if getattr(p, what) != unset]
        if any(g != given[0] for g in given):
            raise _core.SplotchError(f"the types give different {what}: {given}; give it to one, or the same to all")
        shared[what] = given[0] if given else unset
    redshift = shared["redshift"]
    return _core.Arrays(f"splotch.Particles #{next(_names)}", types, time=shared["time"],
                        redshift=-1.0 if redshift is None else float(redshift), box_size=shared["box_size"],
                        units=dict(shared["units"]))
