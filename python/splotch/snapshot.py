"""splotch.read: a snapshot's header, units, time and each type's fields as NumPy arrays, read
when first asked for (and kept); what bin/splotch --info prints, as data."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Union

import numpy as np

from . import _core


class ParticleType:
    """One particle type of a snapshot: ``ptype["Coordinates"]`` reads that field (a float32
    array of shape (count,) or (count, 3); integers such as IDs exactly, as uint64)."""

    def __init__(self, snapshot: "Snapshot", entry: Dict[str, Any]) -> None:
        self._snapshot = snapshot
        self.file_type: int = entry["file_type"]
        self.name: str = entry["name"]
        self.count: int = entry["count"]
        self.table_mass: float = entry["table_mass"]
        self._fields: Dict[str, Dict[str, Any]] = {f["name"]: f for f in entry["fields"]}
        self._read: Dict[str, np.ndarray] = {}

    @property
    def fields(self) -> List[str]:
        """The fields' names, as the file names them."""
        return list(self._fields)

    def field_type(self, name: str) -> str:
        """The field's type as stored ("float32", "float64", "uint64", ...)."""
        return self._fields[name]["type"]

    def keys(self) -> List[str]:
        return self.fields

    def __contains__(self, name: str) -> bool:
        return name in self._fields

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __getitem__(self, name: str) -> np.ndarray:
        if name in self._read:
            return self._read[name]
        field = self._fields.get(name)
        core = self._snapshot._core
        if field is None:
            raise KeyError(f"{self._snapshot.path}: type {self.file_type} has no field {name!r}; "
                           f"it has {', '.join(self.fields)}")
        if field["integer"]:
            values = core.read_integers(self.file_type, name)
        elif field["components"] == 1:
            values = core.read(self.file_type, name, 0)
        else:
            values = np.stack([core.read(self.file_type, name, c) for c in range(field["components"])], axis=1)
        values.flags.writeable = False  # (the snapshot's own values: copy them to change them)
        self._read[name] = values
        return values

    def particles(self, fields: Optional[List[str]] = None) -> "Particles":
        """The type as splotch.Particles (its fields as read: those of the reader's memory not
        copied), with the snapshot's box, time and units: to draw or map what the file holds
        after changing or selecting in NumPy. `fields`: the ones to take (every real field by
        default, and the header's mass of the type as Masses where it has no field of them); a
        vector field gives its components as name_x, name_y, name_z, its positions x,
        y and z."""
        from .particles import Particles
        chosen = fields if fields is not None else [f for f in self.fields if not self._fields[f]["integer"]]
        arrays: Dict[str, np.ndarray] = {}
        for name in chosen:
            if name not in self._fields:
                raise KeyError(f"{self._snapshot.path}: type {self.file_type} has no field {name!r}; "
                               f"it has {', '.join(self.fields)}")
            components = self._fields[name]["components"]
            if components == 1:
                arrays[name] = self[name]
                continue
            positions = name.lower() in ("coordinates", "pos", "position", "positions")
            names = ("x", "y", "z") if positions else tuple(f"{name}_{a}" for a in "xyz")
            for c, axis in enumerate(names[:components]):  # (each component read as a 1-D array of its own)
                values = self._snapshot._core.read(self.file_type, name, c)
                values.flags.writeable = False
                arrays[axis] = values
        if fields is None and self.table_mass > 0 and not any(
                f.lower() in ("masses", "mass") for f in arrays):  # (the header's one mass for all)
            arrays["Masses"] = np.full(self.count, self.table_mass, dtype=np.float32)
        s = self._snapshot
        return Particles(type=self.file_type, name=self.name, box_size=s.box_size, time=s.time,
                         redshift=s.redshift, units=s.units, **arrays)

    def __repr__(self) -> str:
        name = f" ({self.name})" if self.name else ""
        return f"<splotch.ParticleType {self.file_type}{name}: {self.count} particles, fields {', '.join(self.fields)}>"


class Snapshot:
    """A snapshot as splotch reads it: ``snap.types`` by file type, ``snap[0]`` (or ``snap["gas"]``)
    a type, ``snap[0]["Coordinates"]`` its positions."""

    def __init__(self, path: str, keys: List[str]) -> None:
        self._core = _core.Snapshot(path, keys)
        outline = self._core.outline()
        self.path: str = outline["path"]
        self.description: str = outline["description"]
        self.time: float = outline["time"]
        self.redshift: Optional[float] = outline["redshift"]
        self.box_size: float = outline["box_size"]
        self.units: Dict[str, Any] = outline["units"]
        self.header: Dict[str, str] = outline["header"]
        self.notes: List[str] = outline["notes"]
        self.types: Dict[int, ParticleType] = {t["file_type"]: ParticleType(self, t) for t in outline["types"]}

    def __getitem__(self, which: Union[int, str]) -> ParticleType:
        if isinstance(which, str):
            for t in self.types.values():
                if t.name == which or which == f"PartType{t.file_type}":
                    return t
            names = ", ".join(f"{t.file_type} ({t.name})" if t.name else str(t.file_type) for t in self.types.values())
            raise KeyError(f"{self.path} has no type named {which!r}; its types: {names}")
        if which not in self.types:
            raise KeyError(f"{self.path} has no particles of type {which}; its types: "
                           f"{', '.join(str(t) for t in self.types)}")
        return self.types[which]

    def __iter__(self) -> Iterator[ParticleType]:
        return iter(self.types.values())

    def __repr__(self) -> str:
        counts = ", ".join(f"{t.file_type}: {t.count}" for t in self.types.values())
        return f"<splotch.Snapshot {self.path}: {self.description}; types {counts}>"
