"""splotch.read against an independent reader (h5py) and the files' own headers, on the real
files of ../shared/data."""
import os

import numpy as np
import pytest

import splotch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")
needs_data = pytest.mark.skipif(not os.path.isdir(DATA), reason="../shared/data is not beside this checkout")


@needs_data
def test_an_hdf5_snapshot_s_fields_are_h5py_s():
    h5py = pytest.importorskip("h5py", reason="python3-h5py (make deps) is the independent reader")
    path = os.path.join(DATA, "gadget4_lcdm_gas_snapshot_004.hdf5")
    snap = splotch.read(path)
    with h5py.File(path, "r") as f:
        assert snap[0].count == f["Header"].attrs["NumPart_ThisFile"][0]
        assert snap.time == pytest.approx(f["Header"].attrs["Time"])
        assert sorted(snap[0].fields) == sorted(f["PartType0"].keys())
        coordinates = snap[0]["Coordinates"]
        assert coordinates.shape == (snap[0].count, 3) and coordinates.dtype == np.float32
        np.testing.assert_array_equal(coordinates, f["PartType0/Coordinates"][...].astype(np.float32))
        np.testing.assert_array_equal(snap[1]["ParticleIDs"], f["PartType1/ParticleIDs"][...].astype(np.uint64))
        np.testing.assert_array_equal(snap[0]["Density"], f["PartType0/Density"][...].astype(np.float32))
    assert snap[0]["Coordinates"] is coordinates  # read once, kept
    assert not coordinates.flags.writeable
    assert snap.units["length_cm"] > 0
    assert snap["gas"] is snap[0] and snap["dark matter"] is snap[1] and snap["PartType1"] is snap[1]


@needs_data
def test_columns_are_the_reader_s_memory_and_the_types_are_named():
    snap = splotch.read(os.path.join(DATA, "ramses_multimat2d_output_00001"))
    cells = snap[0]
    assert cells.count == 6712
    density = cells["density"]
    assert density.shape == (6712,)
    assert not density.flags["OWNDATA"] and density.base is not None
    assert snap["gas (leaf cells)"] is cells
    blast = splotch.read(os.path.join(DATA, "phantom_blast_00010"))
    gas = blast["gas"]
    assert gas.count == 576
    assert np.all(gas["mass"] == gas["mass"][0]) and gas["mass"][0] > 0  # massoftype
    assert len(np.unique(gas["iorig"])) == 576


@needs_data
def test_a_type_or_field_the_snapshot_lacks_is_named():
    snap = splotch.read(os.path.join(DATA, "changa_testonestar_onestar.tbin"))
    assert snap["gas"].count == 1088
    with pytest.raises(KeyError, match="no particles of type 1; its types: 0, 2"):
        snap[1]
    with pytest.raises(KeyError, match="has no field 'rhoo'; it has"):
        snap[0]["rhoo"]
    with pytest.raises(splotch.SplotchError, match="no such key: swap_endain .did you mean swap_endian"):
        splotch.read(os.path.join(DATA, "changa_testonestar_onestar.tbin"), swap_endain=True)
    with pytest.raises(FileNotFoundError):
        splotch.read(os.path.join(DATA, "absent.hdf5"))
