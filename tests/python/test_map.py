"""splotch.map against bin/splotch: the same keys write the same data file byte for byte; the
values, their extent and units are the file's."""
import os
import subprocess

import numpy as np
import pytest

import splotch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "bin", "splotch")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")
SNAPSHOT = os.path.join(DATA, "gadget4_lcdm_gas_snapshot_004.hdf5")
needs_data = pytest.mark.skipif(not os.path.exists(SNAPSHOT), reason="../shared/data is not beside this checkout")
PALETTE = os.path.join(ROOT, "testdata", "palettes", "fire.pal")


@needs_data
def test_a_column_map_is_bin_splotch_s_file_byte_for_byte(tmp_path):
    keys = {"xres": 96, "palette0": PALETTE, "outfile": str(tmp_path / "map.fits")}
    column = splotch.map(SNAPSHOT, "column", **keys)
    assert column.shape == (96, 96) and column.values.dtype == np.float32
    assert column.unit == "Msun kpc^-2" and column.length_unit == "kpc"
    left, right, bottom, top = column.extent
    assert right - left == pytest.approx(96 * column.pixel) and top == -bottom
    # The report's total is the values times the pixel area.
    total = [n for n in column.notes if "times the pixel area sum to" in n][0]
    assert column.total() == pytest.approx(float(total.split("sum to ")[1].split()[0]), rel=1e-5)
    column.to_fits(tmp_path / "python.fits")
    run = subprocess.run([BIN, SNAPSHOT, "map=column", *[f"{k}={v}" for k, v in keys.items()]],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # (the record names the file as outfile gave it: the same for both)
    assert (tmp_path / "python.fits").read_bytes() == (tmp_path / "map.fits").read_bytes()
    # .npy: the values, row 0 at the bottom.
    column.save(tmp_path / "values.npy")
    np.testing.assert_array_equal(np.load(tmp_path / "values.npy").reshape(96, 96), column.values)
    assert column._repr_png_() is None  # (a map given a data file's name has no figure, as bin/splotch's)


@needs_data
def test_a_map_without_a_file_s_name_has_bin_splotch_s_figure(tmp_path):
    column = splotch.map(SNAPSHOT, "column", xres=64, palette0=PALETTE)
    assert column._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
    run = subprocess.run([BIN, SNAPSHOT, "map=column", "xres=64", f"palette0={PALETTE}",
                          f"outfile={tmp_path / 'figure.png'}"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert column._repr_png_() == (tmp_path / "figure.png").read_bytes()
    assert column.figure_rgb.shape[2] == 3


@needs_data
def test_an_average_map_and_the_errors():
    temperature = splotch.map(SNAPSHOT, "average", map_quantity0="InternalEnergy", xres=32)
    assert temperature.shape == (32, 32)
    assert np.nanmax(temperature.values) > 0
    with pytest.raises(splotch.SplotchError, match="splotch.map draws it"):
        splotch.render(SNAPSHOT, map="column", xres=32)
    with pytest.raises(splotch.SplotchError, match="map"):
        splotch.map(SNAPSHOT, "sideways", xres=32)
    with pytest.raises(splotch.SplotchError, match="a map's data file ends in"):
        temperature.save("map.png")


def test_a_map_of_particles_of_our_own_is_bin_splotch_s(tmp_path):
    """(without ../shared/data: a raw file written here)"""
    i = np.arange(300, dtype=np.float32)
    table = np.stack([np.cos(i), np.sin(i), 0.01 * i, np.full(300, 0.3), np.ones(300), 1 + i], axis=1)
    table.astype(">f4").tofile(tmp_path / "p.bin")
    par = tmp_path / "p.par"
    par.write_text(f"simtype = 0\ninfile = {tmp_path / 'p.bin'}\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\n"
                   f"I = 5\nC1 = 6\npalette0 = {PALETTE}\nxres = 40\ncamera_x = 0\ncamera_y = -6\ncamera_z = 1\n"
                   f"lookat_x = 0\nlookat_y = 0\nlookat_z = 1\noutfile = {tmp_path / 'cli.fits'}\n")
    column = splotch.map(par, "column")
    assert column.shape == (40, 40)
    assert column.total() == pytest.approx(300, rel=0.02)  # an amount of 1 a particle (I)
    column.to_fits(tmp_path / "python.fits")
    run = subprocess.run([BIN, str(par), "map=column"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    python_bytes = (tmp_path / "python.fits").read_bytes()
    assert python_bytes == (tmp_path / "cli.fits").read_bytes()
