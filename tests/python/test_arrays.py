"""Pictures and maps of particles given as NumPy arrays (splotch.Particles): the same picture and
map as bin/splotch draws from the same particles in a file, the arrays used in place (the same
memory, never written, no copy in the peak memory), and the errors a user meets."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import splotch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "bin", "splotch")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")
SNAPSHOT = os.path.join(DATA, "gadget4_lcdm_gas_snapshot_004.hdf5")
needs_data = pytest.mark.skipif(not os.path.exists(SNAPSHOT), reason="../shared/data is not beside this checkout")
PALETTE = os.path.join(ROOT, "testdata", "palettes", "fire.pal")

# The view both draw: fixed, so that neither places a camera of its own.
VIEW = {"camera_x": 0, "camera_y": -9, "camera_z": 2, "lookat_x": 0, "lookat_y": 0, "lookat_z": 0, "fov": 40,
        "xres": 96, "palette0": PALETTE, "a_eq_e": True}


def cloud(n=5000, seed=3):
    """A Gaussian cloud: positions, smoothing lengths that vary, a brightness and a colour."""
    rng = np.random.default_rng(seed)
    x, y, z = rng.normal(size=(3, n)).astype(np.float32)
    h = (0.05 * (1 + rng.random(n))).astype(np.float32)
    light = (1 + rng.random(n)).astype(np.float32)
    colour = np.exp(-(x * x + y * y + z * z)).astype(np.float32)
    return x, y, z, h, light, colour


def raw_par(directory, arrays, keys):
    """The particles written as the original's raw table (simtype 0) and a .par that reads them."""
    table = np.stack(arrays, axis=1).astype(">f4")
    table.tofile(directory / "cloud.bin")
    lines = [f"simtype = 0", f"infile = {directory / 'cloud.bin'}", "num_blocks = 6", "x = 1", "y = 2", "z = 3",
             "r = 4", "I = 5", "C1 = 6"]
    lines += [f"{k} = {'TRUE' if v is True else 'FALSE' if v is False else v}" for k, v in keys.items()]
    par = directory / "cloud.par"
    par.write_text("\n".join(lines) + "\n")
    return par


def test_a_picture_of_arrays_is_bin_splotch_s_of_the_same_particles_in_a_file(tmp_path):
    x, y, z, h, light, colour = cloud()
    keys = {**VIEW, "color_log0": True, "brightness0": 1.5}
    par = raw_par(tmp_path, (x, y, z, h, light, colour), {**keys, "outfile": tmp_path / "cli.png"})
    run = subprocess.run([BIN, str(par)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    gas = splotch.Particles(x=x, y=y, z=z, h=h, light=light, colour=colour)
    picture = splotch.render(gas, color_label0="colour", intensity_label0="light", **keys)
    assert picture.particles_read == 5000 and picture.shape == (96, 96)
    picture.save(tmp_path / "python.png")
    assert (tmp_path / "python.png").read_bytes() == (tmp_path / "cli.png").read_bytes()
    assert "arrays in memory" in picture.used_par
    # A first picture of arrays alone, as of a snapshot alone: framed, exposed, coloured.
    first = splotch.render(gas, xres=64)
    assert first.rgb.max() > 0.5 and "placed to frame the particles" in first.report


def test_the_arrays_are_used_in_place_and_never_written(tmp_path):
    x, y, z, h, light, colour = cloud(20000)
    # Read-only pages: a write by any stage would end the process, not pass unseen.
    fields = {}
    for name, values in (("x", x), ("y", y), ("z", z), ("h", h), ("rho", colour)):
        values.tofile(tmp_path / name)
        fields[name] = np.memmap(tmp_path / name, dtype=np.float32, mode="r")
    gas = splotch.Particles(**fields, name="gas")
    assert gas.converted == []
    session = splotch.Session(gas, **VIEW)
    first = session.render()
    again = session.render(fov=30)
    assert again.reused  # (the arrays kept as the first call took them: nothing read)
    column = session.map("column", map_quantity0="rho")
    assert column.total() > 0
    (kept,) = session.kept_memory()
    for field, given in (("x", "x"), ("y", "y"), ("z", "z"), ("hsml", "h")):
        address, lent, count = kept[field]
        assert lent and count == 20000
        assert address == fields[given].ctypes.data, field
    assert not kept["intensity"][1]  # (normalised: the render's own)
    for name in fields:
        np.testing.assert_array_equal(np.fromfile(tmp_path / name, dtype=np.float32), fields[name])
    assert first.rgb.max() > 0


def test_float64_and_strided_arrays_are_copied_once_and_said(tmp_path):
    x, y, z, h, light, colour = cloud(3000)
    pos = np.stack([x, y, z], axis=1).astype(np.float64)
    gas = splotch.Particles(pos=pos, h=h.astype(np.float64), rho=colour)
    assert [c.split()[0] for c in gas.converted] == ["x", "y", "z", "h"]
    picture = splotch.render(gas, **VIEW)
    assert any("copied to float32" in n and "x (float64, strided)" in n for n in picture.notes)
    same = splotch.render(splotch.Particles(x=x, y=y, z=z, h=h, rho=colour), **VIEW)
    np.testing.assert_array_equal(picture.rgb, same.rgb)


def test_a_map_of_arrays_equals_the_map_of_the_same_particles_in_a_file(tmp_path):
    x, y, z, h, light, colour = cloud()
    keys = {**VIEW, "outfile": tmp_path / "cli.fits"}
    par = raw_par(tmp_path, (x, y, z, h, light, colour), keys)
    run = subprocess.run([BIN, str(par), "map=column"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    from_file = splotch.map(par, "column")
    gas = splotch.Particles(x=x, y=y, z=z, h=h, I=light)
    from_arrays = splotch.map(gas, "column", map_quantity0="I", **keys)
    np.testing.assert_array_equal(from_arrays.values, from_file.values)
    assert from_arrays.total() == pytest.approx(float(light.sum()), rel=0.02)


@needs_data
def test_a_map_of_a_snapshot_s_arrays_equals_the_snapshot_s_map():
    snap = splotch.read(SNAPSHOT)
    gas = snap[0].particles()
    assert gas.count == snap[0].count and gas.units["mass_g"] == snap.units["mass_g"]
    from_file = splotch.map(SNAPSHOT, "column", xres=64)
    from_arrays = splotch.map(gas, "column", xres=64)
    assert from_arrays.unit == from_file.unit and from_arrays.extent == from_file.extent
    np.testing.assert_allclose(from_arrays.values, from_file.values, rtol=1e-6)
    # Two types, from the file's arrays and from arrays in memory.
    picture = splotch.render(SNAPSHOT, xres=64)
    again = splotch.render(gas, xres=64)
    np.testing.assert_array_equal(picture.rgb, again.rgb)


def test_types_and_their_numbers():
    x, y, z, h, light, colour = cloud(2000)
    gas = splotch.Particles(x=x, y=y, z=z, h=h, name="gas")
    stars = splotch.Particles(x=x[:500] + 3, y=y[:500], z=z[:500], type=4, name="stars")
    both = splotch.render([gas, stars], ptypes=2, ptype1=4, palette1="ice", size_fix1=0.05, size_estimate1="none", **VIEW)
    assert both.particles_read == 2500
    alone = splotch.render([gas, stars], ptype0=4, xres=32)
    assert alone.particles_read == 500
    with pytest.raises(splotch.SplotchError, match=r"holds no particles of the types asked for \(ptype0 = 2\); "
                                                   r"it holds 2000 of type 0 \(gas\)"):
        splotch.render({0: gas}, ptype0=2, xres=32)


def test_what_is_wrong_with_the_arrays_is_said():
    x, y, z, h, _, _ = cloud(100)
    with pytest.raises(splotch.SplotchError, match="one value per particle, and these differ: x 100, y 100, z 99"):
        splotch.Particles(x=x, y=y, z=z[:99])
    with pytest.raises(splotch.SplotchError, match="positions: x, y and z"):
        splotch.Particles(x=x, y=y)
    with pytest.raises(splotch.SplotchError, match=r"shape \(100, 2\)"):
        splotch.Particles(x=x, y=y, z=z, v=np.zeros((100, 2)))
    with pytest.raises(splotch.SplotchError, match="of <U1: a field holds real numbers"):
        splotch.Particles(x=x, y=y, z=z, name_of=np.array(["a"] * 100))
    with pytest.raises(splotch.SplotchError, match="two fields are named 'RHO'"):
        splotch.render(splotch.Particles(x=x, y=y, z=z, rho=h, RHO=h), xres=16)
    with pytest.raises(splotch.SplotchError, match="two sets of particles are given as type 0"):
        splotch.render([splotch.Particles(x=x, y=y, z=z, type=0), splotch.Particles(x=x, y=y, z=z, type=0)])
    with pytest.warns(splotch.SplotchWarning, match="has no field 'temperature' for type 0 .particles. "
                                                    r"\(color_label0; it has: x, y, z, h\)"):
        splotch.render(splotch.Particles(x=x, y=y, z=z, h=h), color_label0="temperature", xres=16)
    with pytest.raises(TypeError, match="not int"):
        splotch.render(3)
    # A table given where the positions go, and the call that takes it.
    with pytest.raises(splotch.SplotchError, match=r"a dict of 3 fields as x: .*splotch.Particles\(\*\*fields\)"):
        splotch.Particles({"x": x, "y": y, "z": z})
    with pytest.raises(splotch.SplotchError, match=r"shape \(3, 100\) as x: give them as pos=a.T"):
        splotch.Particles(np.stack([x, y, z]))
    with pytest.raises(splotch.SplotchError, match=r"shape \(100, 3\) as x: give them as pos=a,"):
        splotch.Particles(np.stack([x, y, z], axis=1))
    with pytest.raises(splotch.SplotchError, match=r"pos has shape \(3, 100\).*pos=a.T"):
        splotch.Particles(pos=np.stack([x, y, z]))
    table = np.zeros(100, dtype=[("x", "f4"), ("y", "f4"), ("z", "f4")])
    with pytest.raises(splotch.SplotchError, match="structured array .fields x, y, z."):
        splotch.Particles(table)
    with pytest.raises(TypeError, match=r"not dict: splotch.Particles\(\*\*fields\)"):
        splotch.render({"x": x, "y": y, "z": z})
    with pytest.raises(splotch.SplotchError, match=r"no field 'MASS'.*give splotch.Particles their masses \(mass="):
        splotch.map(splotch.Particles(x=x, y=y, z=z, h=h), "column", xres=16)


def test_the_caller_s_smoothing_lengths_are_kept_even_where_all_alike_and_size_fix_takes_their_place():
    x, y, z, _, _, _ = cloud(3000)
    h = np.full(3000, 0.3, np.float32)  # (a file's one value for all is taken for a placeholder: not the caller's)
    gas = splotch.Particles(x=x, y=y, z=z, h=h)
    kept = splotch.render(gas, xres=48)
    assert any("the file's h (size_estimate0 = auto)" in n for n in kept.notes), kept.notes
    assert not any("nearest neighbours" in n for n in kept.notes)
    assert np.array_equal(kept.rgb, splotch.render(gas, xres=48, size_label0="h", size_estimate0="none").rgb)
    # size_fix0 alone replaces the first picture's size_estimate0 = auto (no conflict between them).
    fixed = splotch.render(gas, xres=48, size_fix0=0.1)
    assert any("0.1 for every particle (size_fix0)" in n for n in fixed.notes), fixed.notes
    assert not np.array_equal(fixed.rgb, kept.rgb)
    assert "size_estimate0 = none" in fixed.used_par


def test_a_1e7_picture_holds_no_copy_of_the_arrays(tmp_path):
    """The peak memory of a call on 10^7 particles: the render's own arrays (intensities, colours,
    the projected splats: 8 floats a particle) and its image, not a copy of the positions and
    sizes (16 bytes a particle more), measured in a process of its own."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.path.join(ROOT, 'python')!r})
        import numpy as np, splotch
        n = 10_000_000
        rng = np.random.default_rng(2)
        x, y, z = rng.normal(size=(3, n)).astype(np.float32)
        h = np.float32(0.02) * (1 + rng.random(n, dtype=np.float32))
        rho = np.exp(-(x * x + y * y + z * z)).astype(np.float32)
        gas = splotch.Particles(x=x, y=y, z=z, h=h, rho=rho)
        def kib(key):
            return int(open("/proc/self/status").read().split(key + ":")[1].split()[0])
        before = kib("VmRSS")
        open("/proc/self/clear_refs", "w").write("5")  # (the high-water mark from here)
        picture = splotch.render(gas, xres=256, renderer="host")
        print(picture.particles_read, (kib("VmHWM") - before) / 1024)
        """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    read, extra_mib = run.stdout.split()
    assert int(read) == 10_000_000
    own = 8 * 4 * 10_000_000 / 2**20  # 305 MiB
    copy = 4 * 4 * 10_000_000 / 2**20  # 153 MiB
    print(f"1e7 particles: {float(extra_mib):.0f} MiB above the arrays (the render's own: {own:.0f} MiB)")
    assert float(extra_mib) < own + 0.7 * copy, f"{extra_mib} MiB: as if the arrays were copied"


def gpu_or_skip():
    """The GPU's picture of a few particles, or a skip that says why there is none."""
    x = np.arange(100, dtype=np.float32)
    try:
        splotch.render(splotch.Particles(x=x, y=x, z=x, h=x + 1), renderer="cuda", xres=16)
    except splotch.SplotchError as e:
        if "renderer = cuda" in str(e):
            pytest.skip(f"no GPU: {e}")
        raise


def test_the_gpu_draws_arrays_as_the_host_does_and_keeps_them_between_views():
    gpu_or_skip()
    x, y, z, h, light, colour = cloud(200000)
    gas = splotch.Particles(x=x, y=y, z=z, h=h, light=light, rho=colour)
    keys = {**VIEW, "xres": 256, "intensity_label0": "light", "color_log0": True, "exposure": 0.01}
    host = splotch.render(gas, renderer="host", **keys)
    session = splotch.Session(gas, renderer="cuda", **keys)
    gpu = session.render()
    assert gpu.renderer.startswith("cuda"), gpu.renderer
    assert np.abs(gpu.rgb - host.rgb).max() <= 1e-4 * host.rgb.max() + 1 / 512
    turned = session.render(camera_x=9, camera_y=0)
    assert turned.reused and turned.renderer.startswith("cuda")
    assert not np.array_equal(turned.rgb, gpu.rgb)
    (kept,) = session.kept_memory()
    assert kept["x"][0] == x.ctypes.data and kept["x"][1]
    column = session.map("column", map_quantity0="light")
    host_column = splotch.map(gas, "column", map_quantity0="light", renderer="host", **{k: v for k, v in keys.items()
                                                                                          if k != "exposure"})
    np.testing.assert_allclose(column.total(), host_column.total(), rtol=1e-4)


def test_one_particle_is_framed_by_its_size_and_its_map_holds_its_mass():
    one = splotch.Particles(x=np.array([1.0], np.float32), y=np.array([2.0], np.float32),
                            z=np.array([3.0], np.float32), h=np.array([0.5], np.float32),
                            mass=np.array([2.5], np.float32))
    column = splotch.map(one, "column", xres=64)
    assert column.total() == pytest.approx(2.5, rel=1e-5)
    assert column.extent[1] - column.extent[0] == pytest.approx(2 * 1.05 * 2 * 0.5, rel=1e-4)
    assert (splotch.render(one, xres=64).rgb.sum(axis=2) > 0.01).mean() > 0.2  # (a splat, not a dot)


def test_a_map_along_an_axis_has_its_extent_in_the_snapshot_s_own_coordinates():
    two = splotch.Particles(x=np.array([1.0, 1.5], np.float32), y=np.array([2.0, 2.2], np.float32),
                            z=np.array([3.0, 3.4], np.float32), h=np.array([0.3, 0.3], np.float32),
                            mass=np.array([2.0, 1.0], np.float32))
    for face, axes, at in (("FRONT", ("x", "z"), (1.0, 3.0)), ("BACK", ("x", "z"), (1.0, 3.0)),
                           ("TOP", ("x", "y"), (1.0, 2.0)), ("LEFT", ("y", "z"), (2.0, 3.0))):
        column = splotch.map(two, "column", xres=64, face=face)
        assert column.world_axes == axes, face
        left, right, bottom, top = column.world_extent
        row, col = np.unravel_index(np.argmax(column.values), column.values.shape)  # (the heavier particle)
        assert left + (col + 0.5) / 64 * (right - left) == pytest.approx(at[0], abs=2 * column.pixel)
        assert bottom + (row + 0.5) / 64 * (top - bottom) == pytest.approx(at[1], abs=2 * column.pixel)
    askew = splotch.map(two, "column", xres=16, camera_x=5, camera_y=5, camera_z=5, lookat_x=1, lookat_y=2,
                        lookat_z=3)
    assert askew.world_axes is None and askew.world_extent is None


def test_a_session_keeps_its_first_picture_s_automatic_exposure():
    x, y, z, h, light, colour = cloud()
    session = splotch.Session(splotch.Particles(x=x, y=y, z=z, h=h), xres=64)
    first = session.render()
    assert session.exposure is not None and session.exposure > 0
    assert f"exposure = {session.exposure:g}" in first.used_par
    closer = session.render(fov=10)
    assert closer.reused and f"exposure = {session.exposure!r}" in closer.used_par
    chosen_again = session.render(fov=10, exposure="auto")
    assert "# auto" in [line for line in chosen_again.used_par.splitlines() if line.startswith("exposure")][0]
    assert not np.array_equal(closer.rgb, chosen_again.rgb)
