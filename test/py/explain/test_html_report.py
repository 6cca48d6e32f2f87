"""The HTML report as a person sees it: rendered by headless chromium, checked through its DOM (every tensor, every
collective, the memory chart, tiles on the devices XLA's own compiled sharding puts them), no script errors, nothing
fetched, text escaped, and a screenshot kept in build/test-artifacts/."""

import itertools
import os
import random
import subprocess
import sys

import jax

jax.config.update("jax_num_cpu_devices", 8)

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from browser import render, screenshot  # noqa: E402
from jax_corpus import corpus_with_locations  # noqa: E402
from png_pixels import png_pixels  # noqa: E402
from pysdy.explanation.build import explain_text  # noqa: E402
from pysdy.explanation.html_report import PALETTE, drawn_tensors, render_html  # noqa: E402
from pysdy.explanation.model import Explanation, MeshView, TensorView  # noqa: E402
from pysdy.explanation.tiles import tile_devices  # noqa: E402
from pysdy.runtime.compile import compile_module  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
ARTIFACTS = os.path.join(ROOT, "build", "test-artifacts")


# ----- the tile map, against JAX's own device assignment -----


def jax_tiles(mesh: MeshView, dim_axes, shape) -> dict:
    """Tile index -> devices, from jax.sharding.NamedSharding's devices_indices_map."""
    devices = {d.id: d for d in jax.devices()}
    array = np.array([devices[i] for i in mesh.device_ids]).reshape([size for _, size in mesh.axes])
    sharding = NamedSharding(Mesh(array, tuple(name for name, _ in mesh.axes)), P(*[tuple(a) or None for a in dim_axes]))
    tiles: dict = {}
    for device, index in sharding.devices_indices_map(tuple(shape)).items():
        tile = tuple((s.start or 0) // len(range(*s.indices(extent))) for s, extent in zip(index, shape))
        tiles.setdefault(tile, []).append(device.id)
    return {tile: tuple(sorted(ids)) for tile, ids in sorted(tiles.items())}


def tensor(dim_axes, shape=(8, 8, 8), mesh="m") -> TensorView:
    return TensorView("%t", "argument", shape, "f32", 4 * int(np.prod(shape)), mesh, None, tuple(map(tuple, dim_axes)), None)


@pytest.mark.parametrize("seed", range(12))
def test_tiles_match_jax_device_assignment_for_random_shardings(seed):
    rng = random.Random(seed)
    ids = list(range(8))
    if seed % 2:
        rng.shuffle(ids)
    mesh = MeshView("m", (("a", 2), ("b", 2), ("c", 2)), tuple(ids))
    axes = ["a", "b", "c"]
    rng.shuffle(axes)
    dim_axes = [[] for _ in range(3)]
    for axis in axes[: rng.randint(0, 3)]:
        dim_axes[rng.randrange(3)].append(axis)
    assert tile_devices(tensor(dim_axes), mesh) == jax_tiles(mesh, dim_axes, (8, 8, 8))


def test_a_sub_axis_takes_its_part_of_the_axis_coordinate():
    # "y":(2)2 on a 2x4 mesh is the major half of "y": coordinate y // 2. Devices at y = 0,1 hold tile 0, y = 2,3 tile
    # 1, in both rows of "x" (row-major: device 4x + y).
    mesh = MeshView("m", (("x", 2), ("y", 4)), tuple(range(8)))
    assert tile_devices(tensor([["y:(2)2"], []], (8, 8)), mesh) == {(0, 0): (0, 1, 4, 5), (1, 0): (2, 3, 6, 7)}


# ----- real programs, rendered -----


def xla_tiles(hlo_sharding, rank: int) -> dict:
    """Tile index -> devices, from the HloSharding XLA compiled an argument or result with."""
    if hlo_sharding.is_replicated():
        return {tuple(0 for _ in range(rank)): tuple(range(8))}
    dims = hlo_sharding.tile_assignment_dimensions()
    devices = np.array(hlo_sharding.tile_assignment_devices()).reshape(dims)
    tiles = {}
    for tile in itertools.product(*(range(d) for d in dims[:rank])):
        tiles[tile] = tuple(sorted(int(d) for d in np.ravel(devices[tile])))
    return tiles


def report(tmp_path, name: str, text: str):
    source = tmp_path / f"{name}.mlir"
    source.write_text(text)
    page = tmp_path / f"{name}.html"
    done = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_run", str(source), "--report", "html", "-o", str(page)],
        capture_output=True, text=True, timeout=600, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return source, page, render(str(page), str(tmp_path / "profile"))


def check_report(tmp_path, name: str, text: str):
    source, page, rendered = report(tmp_path, name, text)
    assert rendered.console_errors == []
    root = rendered.root
    html = page.read_text()
    assert "http://" not in html and "https://" not in html
    explanation = explain_text(text, str(source))
    sections = {s.attributes["data-name"]: s for s in root.iter("section", "tensor")}
    assert list(sections) == [t.name for t in drawn_tensors(explanation)]
    compiled = compile_module(text)
    by_role = {"argument": compiled.parameter_shardings, "result": compiled.output_shardings}
    for view in explanation.tensors:
        if view.role not in by_role:
            continue
        index = int(view.name.removeprefix("%arg").removeprefix("result "))
        drawn = {
            tuple(map(int, rect.attributes["data-tile"].split(","))) if rect.attributes["data-tile"] else ():
            tuple(map(int, rect.attributes["data-devices"].split(",")))
            for rect in sections[view.name].iter("rect", "tile")
        }  # fmt: skip
        assert drawn == xla_tiles(by_role[view.role][index], len(view.shape)), view.name
    routes = {row.attributes["data-route"]: row for row in root.iter("tr") if "data-route" in row.attributes}
    assert list(routes) == ["pysdy (gspmd route)", "XLA's own Shardy"]
    pysdy_count = int([cell.all_text() for cell in routes["pysdy (gspmd route)"].iter("td")][-2])
    collectives = list(root.iter("li", "collective"))
    assert len(collectives) == pysdy_count
    for item in collectives:
        groups = [tuple(map(int, g.split(","))) for g in item.attributes["data-groups"].split(";")]
        assert sorted(d for g in groups for d in g) == sorted(set(d for g in groups for d in g))
        assert item.attributes["data-kind"] in item.all_text()
    bars = list(root.iter("rect", "bar"))
    assert [(b.attributes["data-route"], b.attributes["data-field"]) for b in bars] == [
        (route, field) for route in routes for field in ("argument", "output", "temp", "peak")
    ]
    peaks = [b for b in bars if b.attributes["data-field"] == "peak"]
    heights = {b.attributes["data-route"]: float(b.attributes["height"]) for b in peaks}
    sizes = {b.attributes["data-route"]: int(b.attributes["data-bytes"]) for b in peaks}
    assert (heights["pysdy (gspmd route)"] >= heights["XLA's own Shardy"]) == (
        sizes["pysdy (gspmd route)"] >= sizes["XLA's own Shardy"]
    )
    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, f"report-{name}.png")
    width, height, rows = png_pixels(screenshot(str(page), str(tmp_path / "profile"), shot, 1280, 1500))
    seen = {tuple(row[i : i + 3]) for row in rows for i in range(0, len(row), 3 * 7)}
    first = tuple(int(PALETTE[0][i : i + 2], 16) for i in (1, 3, 5))
    assert (width, height) == (1280, 1500) and first in seen
    return explanation, root


def test_the_bundled_transformer_block_report(tmp_path):
    with open(os.path.join(ROOT, "examples", "transformer_block.mlir")) as source:
        explanation, root = check_report(tmp_path, "transformer_block", source.read())
    assert len(list(root.iter("section", "reshard"))) == len(explanation.reshards) == 2
    # Both all-reduces XLA inserted are matched back to the dot whose contraction over "y" needs them.
    explained = [li.iter("div", "explanation") for li in root.iter("li", "collective")]
    assert all("sums over dimensions sharded across" in next(div).all_text() for div in explained)


def test_a_shard_map_program_report(tmp_path):
    check_report(tmp_path, "shard_map_psum", corpus_with_locations()["shard_map_psum"])


def test_text_is_escaped_not_run(tmp_path):
    mesh = MeshView("m", (("x", 2),), (0, 1))
    hostile = TensorView("%<script>alert(1)</script>", "argument", (4,), "f32", 16, "m", None, (("x",),), "<b>x</b>.py:1")
    page = tmp_path / "hostile.html"
    page.write_text(render_html(Explanation("<i>title</i>", "source", (mesh,), (hostile,), ())))
    root = render(str(page), str(tmp_path / "profile")).root
    [section] = root.iter("section", "tensor")
    assert section.attributes["data-name"] == "%<script>alert(1)</script>"
    assert "%<script>alert(1)</script>" in section.all_text()
    assert [s.all_text() for s in root.iter("script") if "alert" in s.all_text()] == []
    assert "<b>x</b>.py:1" in section.all_text() and "<i>title</i>" in next(root.iter("h1")).all_text()
    assert list(root.iter("i")) == []


def test_a_script_error_would_be_caught(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>undefinedFunction();</script></body></html>")
    assert render(str(page), str(tmp_path / "profile")).console_errors
