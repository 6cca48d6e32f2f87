"""Times pysdy's sdy pipelines against jaxlib's C++ on unrolled JAX transformer stacks: one table per size, a plot.

Usage (from the repo root):

    .venv/bin/python bench/pipelines.py                       # propagation; 8, 32, 128 layers; 5 runs
    .venv/bin/python bench/pipelines.py --pipelines all --layers 8,32 --runs 3 --plot scaling.svg
    .venv/bin/python bench/pipelines.py --layers 8,128,512,1024  # the issue's sizes (minutes)
    make bench

Inputs (transformer_stack.py): `sdy-import-pipeline` and
`sdy-propagation-pipeline` take JAX's lowered stack; `sdy-export-pipeline` and
`xla-sdy-stablehlo-export-pipeline` take that stack after jaxlib's C++
`sdy-propagation-pipeline`, written once per size. Both sides read the same file.

Columns, per pipeline (pysdy beside C++, median of --runs):
- `ms`: in-process pass time. A fresh worker process per implementation and
  pipeline runs the pipeline once untimed (pysdy's lazy imports and first-use
  tables: `proc ms` and the start-up line count those), then per run parses the
  file into a new context and times the pipeline's run alone
  (time.perf_counter); C++ builds its PassManager before.
- `proc ms`: the passes' share of a whole process: `pysdy-opt FILE -PASS` (the
  venv's console script) against `python bench/cpp_opt.py FILE -PASS` (jaxlib's
  C++ passes), output to /dev/null, minus the same command with no pass.
- `pysdy/C++`: the ratio of the two columns before it.
- `us/op`: in-process ms * 1000 / the input's ops (func bodies, nested regions included).
- `MB`: peak RSS the first timed run adds over the parsed module (Linux: the
  warm-up's freed memory is handed back first with malloc_trim, and the
  high-water mark VmHWM is reset before the run through
  /proc/self/clear_refs; not getrusage's max RSS, which in a child also counts
  the parent's RSS at the fork; RSS rather than tracemalloc because most memory
  on both sides is MLIR's C++ heap).
- `RSS MB`: whole-process peak RSS (the kernel's max RSS, as /usr/bin/time
  reports it, which forks from its own small process rather than from this
  one) of `pysdy-opt FILE -PASS` and of the C++ stand-in on the same file,
  median of the runs that time `proc ms`: parse, pass and print together.
- `same`: `yes` when every pysdy run printed exactly what every C++ run printed.
A side whose pass fails reads `fail` (the message follows the table), a side
that does not exist in jaxlib (XLA's export pipeline is not a registered pass
there) too; the columns that need both read `n/a`.

Start-up: the median wall time of `pysdy-opt` and of `cpp_opt.py` on a
one-function module with no pass, and of `python -c pass`.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpp_opt  # noqa: E402
import progress  # noqa: E402
from scaling_plot import scaling_svg  # noqa: E402
from transformer_stack import count_ops, transformer_stack_text  # noqa: E402

PIPELINES = (
    "sdy-import-pipeline", "sdy-propagation-pipeline", "sdy-export-pipeline", "xla-sdy-stablehlo-export-pipeline",
)  # fmt: skip
# The pipelines that take the stack after C++ propagation; the others take JAX's lowered stack.
AFTER_PROPAGATION = {"sdy-export-pipeline", "xla-sdy-stablehlo-export-pipeline"}
IMPLEMENTATIONS = ("cpp", "pysdy")
SHOWN = {"cpp": "C++", "pysdy": "pysdy"}
CPP_OPT = cpp_opt.__file__
PYSDY_OPT = os.path.join(os.path.dirname(sys.executable), "pysdy-opt")
TIME = "/usr/bin/time"  # GNU time: its -f %M is the child's peak RSS in KiB
TINY_MODULE = "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n"


# ----- in-process: one implementation, one pipeline, in its own process -----


def status_mb(field: str) -> float:
    """A memory field of /proc/self/status (VmRSS, VmHWM), in MB."""
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith(f"{field}:"))
    return kib / 1024


def reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def release_free_memory() -> None:
    """Hands the memory of freed objects back to the system (glibc's malloc_trim), so that the measured run
    allocates what it needs again rather than reusing what the warm-up left in the heap."""
    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)


def first_lines(error: Exception) -> str:
    """The error's first line, with the next when the first is a heading (an MLIRError's, before its first
    diagnostic)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()] or [type(error).__name__]
    return " ".join(lines[:2] if lines[0].endswith(":") else lines[:1])[:300]


def worker(implementation: str, pipeline: str, path: str, runs: int) -> dict:
    """Runs `pipeline` `runs` times on the module in `path`: times, RSS growth and output hashes, or the error."""
    from jaxlib.mlir import ir, passmanager

    if implementation == "pysdy":
        from pysdy.dialects.context import make_context
        from pysdy.passes.pipeline import parse_pipeline, run_pipeline

        steps = parse_pipeline(pipeline)

        def prepared(module):
            return lambda: run_pipeline(module, steps)
    else:
        make_context = cpp_opt.make_context

        def prepared(module):
            manager = passmanager.PassManager.parse(f"builtin.module({pipeline})")
            return lambda: manager.run(module.operation)

    with open(path) as f:
        text = f.read()

    def one_run(measure_peak: bool) -> tuple[float, str, float]:
        """Pass ms, output hash and (if asked) the peak MB the run adds to the parsed module."""
        with make_context():
            if measure_peak:
                release_free_memory()  # here, once pysdy's memos have let go of the previous context
            module = ir.Module.parse(text)
            run = prepared(module)
            if measure_peak:
                rss_before = status_mb("VmRSS")
                reset_peak_rss()
            start = time.perf_counter()
            run()
            elapsed_ms = (time.perf_counter() - start) * 1000
            peak_mb = max(0.0, status_mb("VmHWM") - rss_before) if measure_peak else 0.0
            return elapsed_ms, hashlib.sha256(str(module).encode()).hexdigest(), peak_mb

    try:
        one_run(measure_peak=False)  # warm-up: lazy imports, tables built on first use
        results = [one_run(measure_peak=index == 0) for index in range(runs)]
    except (ir.MLIRError, ValueError) as error:
        return {"error": first_lines(error)}
    return {
        "times_ms": [elapsed for elapsed, _, _ in results],
        "peak_mb": results[0][2],
        "digests": [digest for _, digest, _ in results],
    }


def in_process(implementation: str, pipeline: str, path: str, runs: int) -> dict:
    """The worker's result; a worker that dies is an error with its last line of stderr."""
    completed = subprocess.run(
        [sys.executable, __file__, "--worker", implementation, pipeline, path, "--runs", str(runs)],
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        return {"error": f"worker exited {completed.returncode}: {(completed.stderr.strip().splitlines() or [''])[-1]}"}
    return json.loads(completed.stdout.splitlines()[-1])


# ----- whole processes -----


def command(implementation: str, path: str, pipeline: str | None) -> list[str]:
    program = [PYSDY_OPT] if implementation == "pysdy" else [sys.executable, CPP_OPT]
    return program + [path] + ([f"-{pipeline}"] if pipeline else [])


def process_run(argv: list[str]) -> tuple[float, float] | str:
    """Wall milliseconds and peak RSS MB of one run of `argv` (output to /dev/null), or its error."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        completed = subprocess.run(
            [TIME, "-f", "%M", "-o", rss.name, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        elapsed = (time.perf_counter() - start) * 1000
        if completed.returncode != 0:
            return f"exit {completed.returncode}: {(completed.stderr.strip().splitlines() or [''])[0][:200]}"
        return elapsed, int(rss.read().split()[-1]) / 1024


def median_process_ms(argv: list[str], runs: int) -> float | str:
    results = [process_run(argv) for _ in range(runs)]
    errors = [result for result in results if isinstance(result, str)]
    return errors[0] if errors else statistics.median(elapsed for elapsed, _ in results)


def pass_share(implementation: str, path: str, pipeline: str, runs: int) -> tuple[float, float] | str:
    """The median whole-process ms with the pass minus the median without it, and the median peak RSS MB of the
    runs with the pass; or the first error. The runs alternate, so that a change in the machine's load meets both."""
    with_pass, without, peaks = [], [], []
    for _ in range(runs):
        for times, pass_ in ((without, None), (with_pass, pipeline)):
            result = process_run(command(implementation, path, pass_))
            if isinstance(result, str):
                return result
            times.append(result[0])
            if pass_ is not None:
                peaks.append(result[1])
    return statistics.median(with_pass) - statistics.median(without), statistics.median(peaks)


def startup_line(directory: str, runs: int) -> str:
    path = os.path.join(directory, "tiny.mlir")
    with open(path, "w") as f:
        f.write(TINY_MODULE)
    pysdy = median_process_ms(command("pysdy", path, None), runs)
    cpp = median_process_ms(command("cpp", path, None), runs)
    bare = median_process_ms([sys.executable, "-c", "pass"], runs)
    return f"start-up, one-function module, no pass: pysdy-opt {pysdy:.0f} ms, cpp_opt.py {cpp:.0f} ms, python -c pass {bare:.0f} ms"


# ----- the table -----

COLUMNS = [
    ("pipeline", 33), ("C++ ms", 8), ("pysdy ms", 8), ("pysdy/C++", 9),
    ("C++ proc ms", 11), ("pysdy proc ms", 13), ("pysdy/C++", 9),
    ("C++ us/op", 9), ("pysdy us/op", 11), ("C++ MB", 7), ("pysdy MB", 8),
    ("C++ RSS MB", 10), ("pysdy RSS MB", 12), ("pysdy/C++", 9), ("same", 4),
]  # fmt: skip


def median_ms(result: dict) -> float | None:
    return statistics.median(result["times_ms"]) if "times_ms" in result else None


def same_output(cpp: dict, pysdy: dict) -> str:
    if "digests" not in cpp or "digests" not in pysdy:
        return "n/a"
    return "yes" if set(pysdy["digests"]) == set(cpp["digests"]) and len(set(cpp["digests"])) == 1 else "NO"


def row(
    pipeline: str, ops: int, measured: dict[str, dict], process: dict[str, float | str], peak_rss: dict[str, float | None]
) -> list[str]:
    """Table cells of one pipeline: `measured` holds each implementation's in-process result (times_ms, peak_mb,
    digests, or error), `process` its whole-process pass share in ms (or an error message) and `peak_rss` its
    whole-process peak RSS in MB (None where the process failed)."""

    def value(number: float | None, digits: int = 1) -> str:
        return "fail" if number is None else f"{number:.{digits}f}"

    def ratio(pysdy: float | None, cpp: float | None, digits: int = 1) -> str:
        """pysdy over C++, or n/a where C++'s figure is missing or prints as zero (noise beat a tiny share)."""
        if pysdy is None or cpp is None or round(cpp, digits) <= 0:
            return "n/a"
        return f"{pysdy / cpp:.2f}"

    ms = {name: median_ms(measured[name]) for name in IMPLEMENTATIONS}
    proc = {name: process[name] if isinstance(process[name], float) else None for name in IMPLEMENTATIONS}
    return [
        pipeline, value(ms["cpp"]), value(ms["pysdy"]), ratio(ms["pysdy"], ms["cpp"]),
        value(proc["cpp"], 0), value(proc["pysdy"], 0), ratio(proc["pysdy"], proc["cpp"], 0),
        *(value(None if ms[name] is None else ms[name] * 1000 / ops) for name in IMPLEMENTATIONS),
        *(value(measured[name].get("peak_mb")) for name in IMPLEMENTATIONS),
        value(peak_rss["cpp"], 0), value(peak_rss["pysdy"], 0), ratio(peak_rss["pysdy"], peak_rss["cpp"], 0),
        same_output(measured["cpp"], measured["pysdy"]),
    ]  # fmt: skip


def format_row(cells: list[str]) -> str:
    return "  ".join(cell.ljust(width) if index == 0 else cell.rjust(width) for index, (cell, (_, width)) in enumerate(zip(cells, COLUMNS)))


def failures(pipeline: str, measured: dict[str, dict], process: dict[str, float | str]) -> list[str]:
    """One line per side that failed, in process or as a whole process."""
    lines = [f"  {SHOWN[name]} {pipeline}: {measured[name]['error']}" for name in IMPLEMENTATIONS if "error" in measured[name]]
    lines += [
        f"  {SHOWN[name]} {pipeline}, whole process: {process[name]}"
        for name in IMPLEMENTATIONS
        if isinstance(process[name], str) and "error" not in measured[name]
    ]
    return lines


# ----- one size -----


def write_inputs(layers: int, directory: str, propagated_too: bool) -> dict[str, tuple[str | None, int, str]]:
    """Writes the lowered stack and, if asked, the stack after C++ propagation: each one's path, ops, and why it
    could not be made (path None) or ""."""
    from jaxlib.mlir import ir

    lowered_path = os.path.join(directory, f"stack_{layers}.mlir")
    lowered = transformer_stack_text(layers)
    with open(lowered_path, "w") as f:
        f.write(lowered)
    inputs = {"lowered": (lowered_path, count_ops(lowered), "")}
    if not propagated_too:
        return inputs
    with cpp_opt.make_context():
        module = ir.Module.parse(lowered)
        try:
            cpp_opt.run_passes(module, ["sdy-propagation-pipeline"])
        except (ir.MLIRError, ValueError) as error:
            inputs["propagated"] = (None, 0, f"C++ sdy-propagation-pipeline failed on the stack: {first_lines(error)}")
            return inputs
        propagated = str(module)
    propagated_path = os.path.join(directory, f"stack_{layers}_propagated.mlir")
    with open(propagated_path, "w") as f:
        f.write(propagated)
    inputs["propagated"] = (propagated_path, count_ops(propagated), "")
    return inputs


def bench_size(layers: int, pipelines: list[str], runs: int, directory: str) -> tuple[str, dict[tuple[str, str], tuple[int, float]]]:
    """The table of one size, and each (implementation, pipeline)'s µs/op point."""
    inputs = write_inputs(layers, directory, propagated_too=bool(AFTER_PROPAGATION.intersection(pipelines)))
    sizes = [f"JAX's lowered stack {inputs['lowered'][1]} ops"]
    if inputs.get("propagated", (None,))[0] is not None:
        sizes.append(f"after C++ propagation {inputs['propagated'][1]} ops")
    lines = [f"{layers} layers: {', '.join(sizes)}", format_row([name for name, _ in COLUMNS])]
    notes, points = [], {}
    for pipeline in pipelines:
        path, ops, missing = inputs["propagated" if pipeline in AFTER_PROPAGATION else "lowered"]
        if path is None:
            lines.append(format_row([pipeline] + ["n/a"] * (len(COLUMNS) - 1)))
            notes.append(f"  {pipeline}: no input: {missing}")
            continue
        measured, process, peak_rss = {}, {}, {}
        for name in IMPLEMENTATIONS:
            progress.show(f"{layers} layers, {pipeline}: {SHOWN[name]} in process ...")
            measured[name] = in_process(name, pipeline, path, runs)
            progress.show(f"{layers} layers, {pipeline}: {SHOWN[name]} as whole processes ...")
            share = pass_share(name, path, pipeline, runs)
            process[name], peak_rss[name] = share if isinstance(share, tuple) else (share, None)
        progress.clear()
        for name in IMPLEMENTATIONS:
            if "times_ms" in measured[name]:
                points[name, pipeline] = (ops, median_ms(measured[name]) * 1000 / ops)
        lines.append(format_row(row(pipeline, ops, measured, process, peak_rss)))
        notes += failures(pipeline, measured, process)
    return "\n".join(lines + notes), points


def plot_series(points_per_size: list[dict[tuple[str, str], tuple[int, float]]]) -> tuple[dict, dict]:
    """The plot's series (label -> points) and styles (color per pipeline, C++ dashed)."""
    series, styles = {}, {}
    for points in points_per_size:
        for (implementation, pipeline), point in points.items():
            label = f"{SHOWN[implementation]} {pipeline}"
            series.setdefault(label, []).append(point)
            styles[label] = (PIPELINES.index(pipeline), implementation == "cpp")
    return series, styles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="8,32,128", help="comma-separated layer counts (default 8,32,128)")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (default 5)")
    parser.add_argument(
        "--pipelines", default="sdy-propagation-pipeline", help=f"comma-separated, or all: {', '.join(PIPELINES)}"
    )
    parser.add_argument("--plot", metavar="FILE.svg", help="write the µs/op scaling plot there")
    parser.add_argument("--worker", nargs=3, metavar=("IMPLEMENTATION", "PIPELINE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker, args.runs)))
        return
    pipelines = list(PIPELINES) if args.pipelines == "all" else args.pipelines.split(",")
    unknown = [p for p in pipelines if p not in PIPELINES]
    if unknown:
        parser.error(f"unknown pipeline {', '.join(unknown)}; choose among {', '.join(PIPELINES)} or all")

    import jax

    jax.config.update("jax_num_cpu_devices", 8)  # before JAX creates its CPU backend
    print(f"jax {jax.__version__}; median of {args.runs} runs; ms = pass only, proc ms = whole process minus no pass", flush=True)
    points_per_size = []
    with tempfile.TemporaryDirectory() as directory:
        print(startup_line(directory, args.runs), flush=True)
        for layers in (int(n) for n in args.layers.split(",")):
            table, points = bench_size(layers, pipelines, args.runs, directory)
            print(f"\n{table}", flush=True)
            points_per_size.append(points)
    series, styles = plot_series(points_per_size)
    if args.plot and not series:
        print("\nno plot: no pipeline ran on either side", file=sys.stderr)
    elif args.plot:
        with open(args.plot, "w") as f:
            f.write(scaling_svg(series, f"µs per op against module size (jax {jax.__version__})", styles))
        print(f"\nplot: {args.plot}")


if __name__ == "__main__":
    main()
