"""The tile map against JAX's device assignment, and the HTML report as headless chromium renders and shows it."""

import itertools
import os
import random
import subprocess
import sys

import jax

jax.config.update("jax_num_cpu_devices", 8)

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from browser import parse_html, render, screenshot  # noqa: E402
from jax_corpus import corpus_with_locations  # noqa: E402
from png_pixels import png_pixels  # noqa: E402
from pysdy.explanation.build import explain_text  # noqa: E402
from pysdy.explanation.html_report import PALETTE, drawn_tensors, render_html  # noqa: E402
from pysdy.explanation.model import (  # noqa: E402
    Annotation,
    AxisChain,
    CollectiveView,
    Explanation,
    MeshView,
    Reshard,
    RouteFigures,
    Step,
    TensorView,
)
from pysdy.explanation.tiles import tile_devices, tile_grid  # noqa: E402
from pysdy.runtime.compile import compile_module  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
# One folder per jax line: `make test` runs the lines' suites side by side.
ARTIFACTS = os.path.join(ROOT, "build", "test-artifacts", f"jax-{jax.__version__}")
MEMORY_FIELDS = ("argument", "output", "temp", "peak")


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


# ----- the tile map, against JAX's own device assignment -----


def jax_tiles(mesh: MeshView, dim_axes, shape) -> dict:
    """Tile index -> devices, from jax.sharding.NamedSharding's devices_indices_map (named axes only)."""
    devices = {d.id: d for d in jax.devices()}
    array = np.array([devices[i] for i in mesh.device_ids]).reshape([size for _, size in mesh.axes])
    spec = P(*[tuple(axes) or None for axes in dim_axes])
    sharding = NamedSharding(Mesh(array, tuple(name for name, _ in mesh.axes)), spec)
    tiles: dict = {}
    for device, index in sharding.devices_indices_map(tuple(shape)).items():
        tile = tuple((s.start or 0) // len(range(*s.indices(extent))) for s, extent in zip(index, shape))
        tiles.setdefault(tile, []).append(device.id)
    return {tile: tuple(sorted(ids)) for tile, ids in sorted(tiles.items())}


def tensor(dim_axes, shape=(8, 8, 8), mesh="m") -> TensorView:
    size = 4 * int(np.prod(shape))
    return TensorView("%t", "argument", shape, "f32", size, mesh, None, tuple(map(tuple, dim_axes)), None)


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
    assert tile_grid(tensor(dim_axes), mesh) == tuple(2 ** len(axes) for axes in dim_axes)
    assert tile_devices(tensor(dim_axes), mesh) == jax_tiles(mesh, dim_axes, (8, 8, 8))


def test_a_sub_axis_takes_its_part_of_the_axis_coordinate():
    # "y":(2)2 on a 2x4 mesh is the major half of "y": coordinate y // 2. Devices at y = 0,1 hold tile 0, y = 2,3 tile
    # 1, in both rows of "x" (row-major: device 4x + y).
    mesh = MeshView("m", (("x", 2), ("y", 4)), tuple(range(8)))
    assert tile_grid(tensor([["y:(2)2"], []], (8, 8)), mesh) == (2, 1)
    assert tile_devices(tensor([["y:(2)2"], []], (8, 8)), mesh) == {(0, 0): (0, 1, 4, 5), (1, 0): (2, 3, 6, 7)}


def test_an_unsharded_tensor_is_one_tile_on_every_device_and_one_without_a_mesh_on_none_named():
    mesh = MeshView("m", (("x", 2), ("y", 2)), (3, 1, 2, 0))
    assert tile_devices(tensor([[], []], (4, 4)), mesh) == {(0, 0): (0, 1, 2, 3)}
    assert tile_devices(tensor((), (4, 4)), mesh) == {(0, 0): (0, 1, 2, 3)}
    assert tile_devices(tensor([["x"], ["y"]], (4, 4), mesh=None), None) == {(0, 0): ()}
    assert tile_grid(tensor([["x"], ["y"]], (4, 4), mesh=None), None) == (1, 1)


def test_a_mesh_too_large_to_list_still_has_every_tile():
    mesh = MeshView("m", (("x", 64), ("y", 128)), ())
    assert tile_devices(tensor([["y:(4)2", "x"], []], (1024, 8)), mesh) == {(i, 0): () for i in range(128)}


# ----- a hand-built explanation, rendered -----

MESH = MeshView("mesh", (("x", 2), ("y", 4)), tuple(range(8)))
REVERSED = MeshView("reversed", (("a", 2), ("b", 2)), (3, 2, 1, 0))
HOSTILE = "%<script>alert(1)</script>"
ARG0_ANNOTATION = Annotation("argument", "input: 0", "%arg0", '#sdy.sharding<@mesh, [{"x"}, {"y"}]>', "model.py:10")
RESULT_ANNOTATION = Annotation("result", "output: 0", "result 0", "#sdy.sharding<@mesh, []>", "model.py:20")
DOT_STEP = Step(
    3, "stablehlo.dot_general", "model.py:12", "operand-0 (%arg0)", "result-0 (%2)", "([i, k], [k, j])->([i, j])"
)


def view(name, role, shape, mesh, dim_axes, chains=()) -> TensorView:
    """A TensorView with its sharding text written from `dim_axes` (as Shardy prints it)."""
    dims = ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" for axes in dim_axes)
    sharding = f"#sdy.sharding<@{mesh}, [{dims}]>" if dim_axes else None
    size = 4 * int(np.prod(shape))
    return TensorView(name, role, shape, "f32", size, mesh, sharding, dim_axes, f"model.py:{len(name)}", chains)


TENSORS = (
    view("%arg0", "argument", (8, 16), "mesh", (("x",), ("y",)),
         (AxisChain(0, "x", ARG0_ANNOTATION, ()), AxisChain(1, "y", ARG0_ANNOTATION, ()))),
    view("%arg1", "argument", (4, 6), "reversed", (("b",), ("a",))),
    view("%2", "intermediate", (8, 3, 4), "mesh", (("y",), (), ("x",)),
         (AxisChain(2, "x", ARG0_ANNOTATION, (DOT_STEP,)),)),
    view("%3", "intermediate", (16, 16), "mesh", ((), ())),
    view("%4", "intermediate", (4, 8), "mesh", (("y:(2)2",), ())),
    view(HOSTILE, "intermediate", (8,), "mesh", (("x", "y"),)),
    view("result 0", "result", (), "mesh", ()),
)  # fmt: skip
RESHARDS = (
    Reshard("%3", "stablehlo.add", "model.py:14", "#sdy.sharding<@mesh, [{}, {}]>", '#sdy.sharding<@mesh, [{"x"}, {}]>',
            (RESULT_ANNOTATION,), (ARG0_ANNOTATION,), "the result asks for it replicated", ("all-gather",), 256),
    Reshard("%2", "stablehlo.dot_general", "model.py:12", '#sdy.sharding<@mesh, [{"y"}, {}, {"x"}]>',
            '#sdy.sharding<@mesh, [{}, {}, {"x"}]>', (ARG0_ANNOTATION,), (RESULT_ANNOTATION,),
            "the contracting dimension is sharded on both sides", ("all-reduce", "all-gather"), 768),
)  # fmt: skip
COLLECTIVES = (
    CollectiveView("all-gather", "all-gather.1", "f32[8,16]", ((0, 1, 2, 3), (4, 5, 6, 7)), 384, "model.py:14",
                   "gathers %3 over y for stablehlo.add"),
    CollectiveView("all-reduce", "all-reduce.2", "f32[16,16]", ((0, 4), (1, 5), (2, 6), (3, 7)), 1024, None, None),
)  # fmt: skip
ROUTES = (
    RouteFigures("pysdy (gspmd route)", {"argument": 1024, "output": 256, "alias": 0, "temp": 4096,
                                         "generated_code": 0, "peak": 5376}, 2, 1408),
    RouteFigures("XLA's own Shardy", {"argument": 1024, "output": 512, "alias": 0, "temp": 2048,
                                      "generated_code": 0, "peak": 3584}, 1, 1024),
)  # fmt: skip
HAND_BUILT = Explanation("hand_built <i>step</i>", "model.py", (MESH, REVERSED), TENSORS, RESHARDS, COLLECTIVES, ROUTES)


@pytest.fixture(scope="module")
def hand_built(tmp_path_factory):
    """The hand-built explanation's page, its text and the DOM chromium rendered from it."""
    folder = tmp_path_factory.mktemp("hand_built")
    page = folder / "hand_built.html"
    page.write_text(render_html(HAND_BUILT))
    return page, page.read_text(), render(str(page), str(folder / "profile"))


def sections(root) -> dict:
    return {s.attributes["data-name"]: s for s in root.iter("section", "tensor")}


def drawn_tiles(section) -> dict:
    """Tile index -> devices, as the section's tiles say."""
    return {
        tuple(map(int, rect.attributes["data-tile"].split(","))) if rect.attributes["data-tile"] else ():
        tuple(map(int, rect.attributes["data-devices"].split(",")))
        for rect in section.iter("rect", "tile")
    }  # fmt: skip


def test_every_tensor_has_its_section_with_its_facts(hand_built):
    _, _, rendered = hand_built
    drawn = sections(rendered.root)
    assert list(drawn) == [t.name for t in TENSORS]
    for t in TENSORS:
        section = drawn[t.name]
        assert (section.attributes["data-role"], section.attributes["data-mesh"]) == (t.role, t.mesh)
        text = section.all_text()
        assert t.location in text and (t.sharding or "(no sharding)") in text
        assert f"f32[{','.join(map(str, t.shape))}]" in text
    assert "512 B" in drawn["%arg0"].all_text() and "1.0 KiB" in drawn["%3"].all_text()
    assert "other dimensions" in drawn["%2"].all_text()  # rank 3: the caption says what the columns are


def test_the_chains_read_annotation_then_steps(hand_built):
    _, _, rendered = hand_built
    [chain] = sections(rendered.root)["%2"].iter("li", "chain")
    assert (chain.attributes["data-dim"], chain.attributes["data-axis"]) == ("2", "x")
    text = " ".join(chain.all_text().split())
    assert "the argument %arg0" in text and "model.py:10" in text and "[input: 0]" in text
    assert "step 3: stablehlo.dot_general at model.py:12: operand-0 (%arg0) → result-0 (%2)" in text
    assert "([i, k], [k, j])->([i, j])" in text


@pytest.mark.parametrize("name", [t.name for t in TENSORS if not any(":" in a for axes in t.dim_axes for a in axes)])
def test_tiles_on_named_axes_sit_on_the_devices_jax_puts_them(hand_built, name):
    _, _, rendered = hand_built
    t = next(t for t in TENSORS if t.name == name)
    mesh = HAND_BUILT.mesh(t.mesh)
    assert drawn_tiles(sections(rendered.root)[name]) == jax_tiles(mesh, t.dim_axes, t.shape)


def test_tiles_on_a_sub_axis_sit_on_the_devices_its_coordinate_names(hand_built):
    # JAX has no sub-axes: by hand, y:(2)2 is y // 2 on the 2x4 mesh (device 4x + y), so rows 0 and 1 of %4's dim 0
    # are on y = 0,1 and y = 2,3 of both x.
    _, _, rendered = hand_built
    assert drawn_tiles(sections(rendered.root)["%4"]) == {(0, 0): (0, 1, 4, 5), (1, 0): (2, 3, 6, 7)}


def test_a_replicated_tensor_is_one_tile_labelled_with_every_device(hand_built):
    _, _, rendered = hand_built
    for name in ("%3", "result 0"):
        [group] = sections(rendered.root)[name].iter("g", "tile-group")
        assert group.attributes["data-devices"] == "0,1,2,3,4,5,6,7" and "0–7" in group.all_text()


def test_the_meshes_are_drawn_with_their_device_ids_and_axes(hand_built):
    _, _, rendered = hand_built
    drawn = {m.attributes["data-mesh"]: m for m in rendered.root.iter("section", "mesh")}
    assert list(drawn) == ["mesh", "reversed"]
    for mesh in (MESH, REVERSED):
        cells = [int(cell.attributes["data-device"]) for cell in drawn[mesh.name].iter("g", "device-cell")]
        assert cells == list(mesh.device_ids)
        text = drawn[mesh.name].all_text()
        assert all(f"{name}={size}" in text for name, size in mesh.axes)
    fills = {cell.attributes["data-device"]: next(cell.iter("rect")).attributes["fill"]
             for cell in drawn["mesh"].iter("g", "device-cell")}  # fmt: skip
    assert len(set(fills.values())) == 8


def test_reshards_come_costliest_first_with_both_sides_and_their_cause(hand_built):
    _, _, rendered = hand_built
    drawn = list(rendered.root.iter("section", "reshard"))
    assert [(s.attributes["data-value"], s.attributes["data-bytes"]) for s in drawn] == [("%2", "768"), ("%3", "256")]
    text = " ".join(drawn[0].all_text().split())
    assert "all-reduce, all-gather" in text and "stablehlo.dot_general" in text and "model.py:12" in text
    assert RESHARDS[1].current in text and RESHARDS[1].needed in text and RESHARDS[1].reason in text
    assert "the argument %arg0" in text and "the result 0" in text


def test_every_collective_is_listed_with_its_groups_drawn_on_the_mesh(hand_built):
    _, _, rendered = hand_built
    drawn = list(rendered.root.iter("li", "collective"))
    assert [(li.attributes["data-kind"], li.attributes["data-name"], li.attributes["data-bytes"]) for li in drawn] == [
        (c.kind, c.name, str(c.sent_bytes)) for c in COLLECTIVES
    ]
    for li, collective in zip(drawn, COLLECTIVES):
        groups = [tuple(map(int, g.split(","))) for g in li.attributes["data-groups"].split(";")]
        assert groups == list(collective.groups)
        assert collective.shape in li.all_text()
        cells = {int(r.attributes["data-device"]): r for r in li.iter("rect", "group-cell")}
        assert sorted(cells) == list(range(8))
        for number, group in enumerate(groups):
            assert {cells[d].attributes["data-group"] for d in group} == {str(number)}
            assert len({cells[d].attributes["fill"] for d in group}) == 1
        assert len({cells[group[0]].attributes["fill"] for group in groups}) == len(groups)
    assert "gathers %3 over y" in drawn[0].all_text() and "XLA's partitioner chose it" in drawn[1].all_text()


def test_the_memory_chart_has_a_bar_per_route_and_field_as_tall_as_its_bytes(hand_built):
    _, _, rendered = hand_built
    [chart] = [svg for svg in rendered.root.iter("svg") if svg.attributes.get("id") == "memory-chart"]
    bars = list(chart.iter("rect", "bar"))
    expected = [(r.route, field, r.memory[field]) for r in ROUTES for field in MEMORY_FIELDS]
    drawn = [(b.attributes["data-route"], b.attributes["data-field"], int(b.attributes["data-bytes"])) for b in bars]
    assert drawn == expected
    heights = [float(b.attributes["height"]) for b in bars]
    for (_, _, size_a), height_a in zip(expected, heights):
        for (_, _, size_b), height_b in zip(expected, heights):
            assert (size_a < size_b) == (height_a < height_b)
    assert heights[expected.index(("pysdy (gspmd route)", "peak", 5376))] == max(heights) > 0
    assert len({float(b.attributes["y"]) + float(b.attributes["height"]) for b in bars}) == 1  # one baseline
    assert all(field in chart.all_text() for field in MEMORY_FIELDS) and "bytes per device" in chart.all_text()
    rows = {row.attributes["data-route"]: [td.all_text() for td in row.iter("td")] for row in rendered.root.iter("tr")
            if "data-route" in row.attributes}  # fmt: skip
    assert rows == {
        "pysdy (gspmd route)": ["pysdy (gspmd route)", "1.0 KiB", "256 B", "4.0 KiB", "5.2 KiB", "2", "1.4 KiB"],
        "XLA's own Shardy": ["XLA's own Shardy", "1.0 KiB", "512 B", "2.0 KiB", "3.5 KiB", "1", "1.0 KiB"],
    }


def test_without_routes_the_page_says_it_was_not_compiled():
    root = parse_html(render_html(Explanation("t", "s", (MESH,), TENSORS[:1], (), (), ())))
    assert [svg for svg in root.iter("svg") if svg.attributes.get("id") == "memory-chart"] == []
    assert "no memory figures" in root.all_text() and list(root.iter("li", "collective")) == []


def test_no_script_error_and_nothing_fetched(hand_built):
    _, html, rendered = hand_built
    assert rendered.console_errors == []
    fetching = ("src", "href", "xlink:href", "srcset", "action", "poster", "data")
    for element in rendered.root.iter():
        for value in (element.attributes.get(name, "") for name in fetching):
            assert "://" not in value and not value.startswith("//"), element
    assert "url(" not in html and "@import" not in html and "<link" not in html


def test_text_is_escaped_not_run(hand_built):
    _, _, rendered = hand_built
    section = sections(rendered.root)[HOSTILE]
    assert HOSTILE in section.all_text()
    assert [s.all_text() for s in rendered.root.iter("script") if "alert" in s.all_text()] == []
    assert "<i>step</i>" in next(rendered.root.iter("h1")).all_text() and list(rendered.root.iter("i")) == []


def test_the_screenshot_shows_the_tiles_colours(hand_built):
    page, _, rendered = hand_built
    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "report-hand_built.png")
    width, height, rows = png_pixels(screenshot(str(page), str(page.parent / "profile"), shot, 1280, 2000))
    assert (width, height) == (1280, 2000)
    fills = {rect.attributes["fill"] for rect in sections(rendered.root)["%arg0"].iter("rect", "tile")}
    assert fills == set(PALETTE[:8])
    seen = {tuple(row[i : i + 3]) for row in rows for i in range(0, len(row), 3)}
    assert {rgb(fill) for fill in fills} <= seen


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
    assert (width, height) == (1280, 1500) and rgb(PALETTE[0]) in seen
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


def test_a_script_error_would_be_caught(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>undefinedFunction();</script></body></html>")
    assert render(str(page), str(tmp_path / "profile")).console_errors
