"""The transformer-stack bench's logic (bench/pipelines.py): its table, its verdict on outputs, its plot, rendered.

One module-scoped run of the bench on 1- and 2-layer stacks (one run each)
feeds the tests that read its table and plot; the rest call the bench's
functions on made-up measurements. Times are printed, never checked. The
browser test renders the plot with Debian's headless chromium (`make test-py`
installs it when missing) and keeps its screenshot as `scaling.png` under
pytest's temporary directory of that test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
from browser import chromium, headless
from png_pixels import pixel, png_pixels

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench")
sys.path.insert(0, BENCH)
import pipelines  # noqa: E402
from scaling_plot import COLORS, scaling_svg  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
LAYERS = (1, 2)
HEADER = [name for name, _ in pipelines.COLUMNS]


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory):
    """The bench's stdout and plot on 1- and 2-layer stacks, propagation only, one run."""
    plot = tmp_path_factory.mktemp("bench") / "scaling.svg"
    completed = subprocess.run(
        [sys.executable, os.path.join(BENCH, "pipelines.py"), "--layers", ",".join(map(str, LAYERS)),
         "--runs", "1", "--plot", str(plot)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout, plot


def table_rows(stdout: str) -> list[list[str]]:
    """The rows under each table's header, split into cells on runs of two spaces or more."""
    lines = stdout.splitlines()
    headers = [index for index, line in enumerate(lines) if line.startswith("pipeline ")]
    return [[cell.strip() for cell in lines[index + 1].split("  ") if cell.strip()] for index in headers]


def test_one_table_per_size_with_every_column_and_identical_output(bench_run):
    stdout, _ = bench_run
    for layers in LAYERS:
        assert f"\n{layers} layers: JAX's lowered stack " in stdout
    header_lines = [line for line in stdout.splitlines() if line.startswith("pipeline ")]
    assert len(header_lines) == len(LAYERS)
    assert [cell.strip() for cell in header_lines[0].split("  ") if cell.strip()] == HEADER
    for cells in table_rows(stdout):
        assert len(cells) == len(HEADER), cells
        assert cells[0] == "sdy-propagation-pipeline"
        assert cells[-1] == "yes"
        figures = cells[1:-1]
        assert HEADER[4] == "C++ proc ms" and HEADER[6] == "pysdy/C++"
        if float(cells[4]) <= 0:  # noise can beat a tiny C++ share; the ratio over it is then n/a
            assert cells[6] == "n/a"
            figures = cells[1:6] + cells[7:-1]
        for cell in figures:
            float(cell)  # every figure is a number: both sides ran
    assert "start-up, one-function module, no pass: pysdy-opt " in stdout


def test_the_plot_has_a_line_per_series_with_a_point_per_size(bench_run):
    _, plot = bench_run
    root = ElementTree.parse(plot).getroot()
    series = {group.get("data-label"): group for group in root.iter(f"{SVG}g") if group.get("class") == "series"}
    assert set(series) == {"C++ sdy-propagation-pipeline", "pysdy sdy-propagation-pipeline"}
    for group in series.values():
        assert len(group.find(f"{SVG}polyline").get("points").split()) == len(LAYERS)
        assert len(group.findall(f"{SVG}circle")) == len(LAYERS)


RSS = {"cpp": 200.0, "pysdy": 240.0}


def measured(digests: list[str]) -> dict:
    return {"times_ms": [2.0] * len(digests), "peak_mb": 1.0, "digests": digests}


def test_same_output_says_no_when_a_pysdy_run_printed_something_else():
    row = pipelines.row("sdy-propagation-pipeline", 100, {"cpp": measured(["a", "a"]), "pysdy": measured(["a", "b"])}, {"cpp": 5.0, "pysdy": 6.0}, RSS)
    assert row[-1] == "NO"


def test_same_output_says_no_when_the_cpp_runs_disagree_among_themselves():
    row = pipelines.row("sdy-propagation-pipeline", 100, {"cpp": measured(["a", "b"]), "pysdy": measured(["a", "b"])}, {"cpp": 5.0, "pysdy": 6.0}, RSS)
    assert row[-1] == "NO"


def test_a_row_of_matching_runs_has_its_ratios_and_per_op_times():
    row = pipelines.row("sdy-import-pipeline", 100, {"cpp": measured(["a"]), "pysdy": measured(["a"])}, {"cpp": 5.0, "pysdy": 10.0}, {"cpp": 200.0, "pysdy": 300.0})
    assert dict(zip(HEADER, row)) | {"pysdy/C++": None} == {
        "pipeline": "sdy-import-pipeline", "C++ ms": "2.0", "pysdy ms": "2.0", "pysdy/C++": None,
        "C++ proc ms": "5", "pysdy proc ms": "10", "C++ us/op": "20.0", "pysdy us/op": "20.0",
        "C++ MB": "1.0", "pysdy MB": "1.0", "C++ RSS MB": "200", "pysdy RSS MB": "300", "same": "yes",
    }  # fmt: skip
    assert [row[3], row[6], row[13]] == ["1.00", "2.00", "1.50"]


def test_a_side_that_fails_reads_fail_with_its_message_under_the_table():
    results = {"cpp": {"error": "'x' does not refer to a registered pass"}, "pysdy": measured(["a"])}
    process = {"cpp": "exit 1: no such pass", "pysdy": 4.0}
    row = dict(zip(HEADER, pipelines.row("xla-sdy-stablehlo-export-pipeline", 10, results, process, {"cpp": None, "pysdy": 250.0})))
    assert (row["C++ ms"], row["C++ proc ms"], row["C++ us/op"], row["C++ MB"], row["C++ RSS MB"], row["same"]) == (
        "fail", "fail", "fail", "fail", "fail", "n/a"
    )  # fmt: skip
    assert row["pysdy ms"] == "2.0"
    assert pipelines.failures("xla-sdy-stablehlo-export-pipeline", results, process) == [
        "  C++ xla-sdy-stablehlo-export-pipeline: 'x' does not refer to a registered pass"
    ]


@pytest.mark.parametrize("implementation", pipelines.IMPLEMENTATIONS)
def test_the_pass_share_of_a_process_that_fails_is_its_error(tmp_path, implementation):
    missing = str(tmp_path / "missing.mlir")
    share = pipelines.pass_share(implementation, missing, "sdy-propagation-pipeline", runs=1)
    assert share.startswith("exit 1: ") and "missing.mlir" in share, share


def test_a_ratio_over_a_share_that_is_not_positive_reads_n_a():
    results = {"cpp": measured(["a"]), "pysdy": measured(["a"])}
    row = pipelines.row("sdy-export-pipeline", 10, results, {"cpp": -3.0, "pysdy": 40.0}, RSS)
    assert HEADER[4:7] == ["C++ proc ms", "pysdy proc ms", "pysdy/C++"]
    assert row[4:7] == ["-3", "40", "n/a"]


def test_a_ratio_over_a_share_that_prints_as_zero_reads_n_a():
    # 0.4 ms prints as "0": a ratio of 100 over it would read as a figure the table does not show (a busy machine
    # made one in a `make test` run).
    results = {"cpp": measured(["a"]), "pysdy": measured(["a"])}
    row = pipelines.row("sdy-export-pipeline", 10, results, {"cpp": 0.4, "pysdy": 40.0}, RSS)
    assert row[4:7] == ["0", "40", "n/a"]


def test_the_plot_styles_c_plus_plus_dashed_and_each_pipeline_in_its_color():
    series, styles = pipelines.plot_series(
        [{("cpp", "sdy-import-pipeline"): (100, 5.0), ("pysdy", "sdy-import-pipeline"): (100, 9.0)},
         {("cpp", "sdy-import-pipeline"): (400, 6.0), ("pysdy", "sdy-import-pipeline"): (400, 8.0)}]
    )  # fmt: skip
    assert series == {"C++ sdy-import-pipeline": [(100, 5.0), (400, 6.0)], "pysdy sdy-import-pipeline": [(100, 9.0), (400, 8.0)]}
    assert styles == {"C++ sdy-import-pipeline": (0, True), "pysdy sdy-import-pipeline": (0, False)}


def test_a_browser_draws_the_plot_with_its_series_axes_and_legend(tmp_path):
    browser = chromium()
    series = {
        "C++ sdy-propagation-pipeline": [(860, 40.0), (3430, 42.0), (13700, 45.0)],
        "pysdy sdy-propagation-pipeline": [(860, 120.0), (3430, 98.0), (13700, 92.0)],
        "pysdy sdy-export-pipeline": [(900, 20.0), (3500, 22.0)],
    }
    styles = {"C++ sdy-propagation-pipeline": (1, True), "pysdy sdy-propagation-pipeline": (1, False), "pysdy sdy-export-pipeline": (2, False)}
    plot = tmp_path / "scaling.svg"
    plot.write_text(scaling_svg(series, "µs per op, test", styles))

    dom = headless(browser, str(tmp_path / "profile"), "--dump-dom", plot.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    root = ElementTree.fromstring(dom.stdout)
    drawn = {group.get("data-label"): group for group in root.iter(f"{SVG}g") if group.get("class") == "series"}
    assert {label: len(group.find(f"{SVG}polyline").get("points").split()) for label, group in drawn.items()} == {
        label: len(points) for label, points in series.items()
    }
    texts = {element.get("class"): [] for element in root.iter(f"{SVG}text")}
    for element in root.iter(f"{SVG}text"):
        texts[element.get("class")].append(element.text)
    assert texts["legend-entry"] == list(series)
    assert texts["axis-label"] == ["ops in the module (log scale)", "µs per op (median pass time / ops)"]
    assert texts["title"] == ["µs per op, test"]

    screenshot = tmp_path / "scaling.png"
    shot = headless(browser, str(tmp_path / "profile"), f"--screenshot={screenshot}", "--window-size=900,540", plot.as_uri())
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    width, height, rows = png_pixels(screenshot.read_bytes())
    assert (width, height) == (900, 540)
    assert pixel(rows, 5, 5) == (255, 255, 255)
    for label, group in drawn.items():  # each series' dots are drawn in its color where the DOM puts them
        color = COLORS[styles[label][0]]
        expected = tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))
        for circle in group.findall(f"{SVG}circle"):
            assert pixel(rows, round(float(circle.get("cx"))), round(float(circle.get("cy")))) == expected, label


def test_the_profile_summary_names_the_passes_and_splits_cpp_from_python():
    completed = subprocess.run(
        [sys.executable, os.path.join(BENCH, "profile_pipeline.py"), "--layers", "1"], capture_output=True, text=True, timeout=300
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("pysdy sdy-propagation-pipeline, 1 layers: ")
    passes_at, top_at = lines.index("per pass (cumulative, share of the profiled run):"), lines.index("top 15 functions by own time:")
    passes = lines[passes_at + 1 : top_at]
    assert any(line.endswith("  sdy-propagation-pipeline (with its steps)") for line in passes)
    shared_run = "sdy-aggressive-propagate / sdy-basic-propagate / sdy-op-priority-propagate / sdy-user-priority-propagate"
    assert any(line.endswith("  " + shared_run) for line in passes)
    assert all(line.strip()[0].isdigit() for line in lines[top_at + 1 : top_at + 16])
    assert lines[-2].startswith("MLIR's C++ run whole (pass manager, verifier, upstream passes): ")
    assert lines[-1].startswith("pysdy's Python with its calls into the bindings: ")


def test_an_unknown_pipeline_is_refused_with_the_known_ones():
    completed = subprocess.run(
        [sys.executable, os.path.join(BENCH, "pipelines.py"), "--pipelines", "sdy-propagation-pipeline,sdy-bogus"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert completed.returncode == 2
    assert "unknown pipeline sdy-bogus; choose among sdy-import-pipeline, " in completed.stderr
